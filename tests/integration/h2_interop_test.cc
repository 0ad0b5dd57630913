// HTTP/2 against real servers on loopback, all started here: nghttpd,
// nginx (http2), h2o and Node's http2 server. Requests go through the C ABI
// only (request, requestAsync/waitNext), as a binding sends them.
//
// What each server shows:
//   Node (tests/servers/node_h2_server.js)  counts sessions (= connections)
//     and tags every answer with x-session; it echoes and hashes bodies,
//     limits concurrent streams, sends GOAWAY mid-burst, resets streams, and
//     says when a session closed (idle timeout).
//   nghttpd (nghttpd.sh)   static files, --echo-upload, -m for
//     SETTINGS_MAX_CONCURRENT_STREAMS.
//   nginx (nginx_h2.sh)    static files, the echo module, X-Conn per
//     connection, GOAWAY after keepalive_requests.
//   h2o (h2o.sh)           static files, mruby handlers for POST.
// Large bodies are 50 MiB of a line pattern both sides generate.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::cert_dir;
using itest::json;
using itest::lib;
using itest::server_script;
using itest::sha256_hex;
using itest::start_once;
using Clock = std::chrono::steady_clock;

namespace {

constexpr size_t kBig = 50u * 1024 * 1024;

// ---- the test pattern and SHA-256 (FIPS 180-4), to check large bodies ----

// 64-byte lines "%015d " + 47 fixed characters + "\n", numbered from 0
// (tests/servers/lib.sh h2_docroot and node_h2_server.js make the same).
std::string pattern(size_t bytes) {
  static const char tail[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJK\n";
  std::string out;
  out.reserve(bytes + 64);
  char line[65];
  for (size_t i = 0; out.size() < bytes; ++i) {
    std::snprintf(line, sizeof line, "%015zu %s", i, tail);
    out.append(line, 64);
  }
  out.resize(bytes);
  return out;
}

const std::string& big_pattern() {
  static const std::string p = pattern(kBig);
  return p;
}

const std::string& big_sha() {
  static const std::string s = sha256_hex(big_pattern());
  return s;
}

// ---- the servers, each started once per process ----

std::string cert() { return cert_dir() + "/good.pem"; }
std::string key() { return cert_dir() + "/good.key"; }
std::string origin(int port) { return "https://127.0.0.1:" + std::to_string(port); }

// {"main","small","goaway"} ports.
const json& node() {
  return start_once("node", {"node", server_script("node_h2_server.js"), "--cert", cert(), "--key", key()});
}
std::string node_main() { return origin(node()["main"]); }
std::string node_small() { return origin(node()["small"]); }
std::string node_goaway() { return origin(node()["goaway"]); }
std::string node_small_goaway() { return origin(node()["smallGoaway"]); }
std::string nghttpd() {
  return origin(start_once("nghttpd", {"bash", server_script("nghttpd.sh"), cert(), key()})["port"]);
}
std::string nghttpd_m10() {
  return origin(
      start_once("nghttpd-m10", {"bash", server_script("nghttpd.sh"), cert(), key(), "-m", "10"})["port"]);
}
const json& nginx() { return start_once("nginx", {"bash", server_script("nginx_h2.sh"), cert(), key()}); }
std::string nginx_main() { return origin(nginx()["port"]); }
std::string nginx_goaway() { return origin(nginx()["goaway"]); }
std::string h2o() {
  return origin(start_once("h2o", {"bash", server_script("h2o.sh"), cert(), key()})["port"]);
}

// ---- requests ----

json input(const std::string& method, const std::string& url, json extra = json::object()) {
  json in = {{"requestUrl", url}, {"requestMethod", method}, {"timeoutSeconds", 30}};
  in.update(extra);
  return in;
}

json get(const std::string& url, json extra = json::object()) {
  return call(input("GET", url, std::move(extra)));
}

std::string header(const json& r, const std::string& name) {
  if (!r.contains("headers") || !r["headers"].is_object() || !r["headers"].contains(name)) return "";
  return r["headers"][name][0].get<std::string>();
}

// Starts every input with requestAsync, then collects them with waitNext
// until all are back or `limit` passes. Returns them in input order; a
// request that did not come back is `null`.
std::vector<json> burst(const std::vector<json>& inputs,
                        std::chrono::seconds limit = std::chrono::seconds(60)) {
  std::map<std::string, size_t> index;
  std::vector<json> out(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string text = inputs[i].dump();
    json r = json::parse(lib().requestAsync(text.data()));
    if (!r.contains("id") || r.contains("status")) {
      out[i] = r;  // refused at once
      continue;
    }
    index[r["id"].get<std::string>()] = i;
  }
  size_t pending = index.size();
  auto deadline = Clock::now() + limit;
  while (pending > 0 && Clock::now() < deadline) {
    json batch = json::parse(lib().waitNext(500));
    for (auto& r : batch) {
      auto it = index.find(r["id"].get<std::string>());
      if (it == index.end()) continue;  // not ours
      out[it->second] = std::move(r);
      index.erase(it);
      --pending;
    }
  }
  return out;
}

// How a burst went: statuses counted, and the server's connection tag
// (x-session / x-conn) of each 200.
struct Tally {
  std::map<int, int> status;
  std::map<std::string, int> conns;
  std::vector<std::string> errors;  // bodies of the failures (a few)
  int missing = 0;
};

Tally tally(const std::vector<json>& rs, const std::string& conn_header) {
  Tally t;
  for (const auto& r : rs) {
    if (r.is_null()) {
      ++t.missing;
      continue;
    }
    int s = r["status"].get<int>();
    ++t.status[s];
    if (s == 200) {
      ++t.conns[header(r, conn_header)];
    } else if (t.errors.size() < 5) {
      t.errors.push_back(std::to_string(s) + ": " + r["body"].get<std::string>().substr(0, 300));
    }
  }
  return t;
}

std::string describe(const Tally& t) {
  std::string s = "statuses:";
  for (auto& [k, v] : t.status) s += " " + std::to_string(k) + "x" + std::to_string(v);
  s += "; connections:";
  for (auto& [k, v] : t.conns) s += " [" + k + "]x" + std::to_string(v);
  s += "; missing: " + std::to_string(t.missing);
  for (auto& e : t.errors) s += "\n  " + e;
  return s;
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The shared checks of a 50 MiB download.
void check_big_download(const std::string& url, const std::string& session) {
  auto t0 = Clock::now();
  json r = get(url, {{"sessionId", session}});
  double took = seconds_since(t0);
  INFO("download of " << url << " took " << took << " s");
  REQUIRE(r["status"] == 200);
  CHECK(r["usedProtocol"] == "HTTP/2.0");
  const std::string& body = r["body"].get_ref<const std::string&>();
  REQUIRE(body.size() == kBig);
  CHECK(sha256_hex(body) == big_sha());
  CHECK(took < itest::time_limit(20.0));
}

json stats(const std::string& base, const std::string& session) {
  json r = get(base + "/stats", {{"sessionId", session}});
  REQUIRE(r["status"] == 200);
  return json::parse(r["body"].get<std::string>());
}

}  // namespace

TEST_CASE("sha256 and the test pattern agree with the servers' files", "[h2-interop]") {
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(pattern(128) ==
        "000000000000000 abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJK\n"
        "000000000000001 abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJK\n");
}

// ---------------------------------------------------------------- Node ----

TEST_CASE("node h2: GET answers over HTTP/2 with body and headers", "[h2-interop][node]") {
  json r = get(node_main() + "/hello");
  INFO(r.dump());
  REQUIRE(r["status"] == 200);
  CHECK(r["usedProtocol"] == "HTTP/2.0");
  CHECK(r["body"] == "hello from node h2");
  CHECK(header(r, "Content-Type") == "text/plain");
  CHECK(header(r, "X-Stream") == "1");
  CHECK_FALSE(header(r, "X-Session").empty());
  CHECK(get(node_main() + "/nothing-here")["status"] == 404);
}

TEST_CASE("node h2: a requestHostOverride with CR or LF never becomes an :authority", "[h2-interop][node]") {
  json r = get(node_main() + "/hello", {{"requestHostOverride", "127.0.0.1\r\nx-injected: 1"}});
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "invalid_input");
  CHECK(r["body"].get<std::string>().find("http: invalid Host header") != std::string::npos);
  CHECK(get(node_main() + "/hello", {{"requestHostOverride", "localhost"}})["status"] == 200);
}

TEST_CASE("node h2: POST bodies are echoed", "[h2-interop][node]") {
  json r = call(input("POST", node_main() + "/echo",
                      {{"requestBody", "{\"a\":1,\"text\":\"h\\u00e9llo\"}"},
                       {"headers", {{"content-type", "application/json"}}}}));
  INFO(r.dump());
  REQUIRE(r["status"] == 200);
  CHECK(r["usedProtocol"] == "HTTP/2.0");
  CHECK(r["body"] == "{\"a\":1,\"text\":\"h\\u00e9llo\"}");
  CHECK(header(r, "Content-Type") == "application/json");
  // Bytes, base64 both ways.
  r = call(input("PUT", node_main() + "/echo",
                 {{"requestBody", "AAEC/w=="}, {"isByteRequest", true}, {"isByteResponse", true}}));
  REQUIRE(r["status"] == 200);
  CHECK(r["body"] == "data:application/octet-stream;base64,AAEC/w==");
}

TEST_CASE("node h2: a 50 MiB download arrives whole", "[h2-interop][node][large]") {
  check_big_download(node_main() + "/download?bytes=" + std::to_string(kBig), "node-big-down");
}

TEST_CASE("node h2: a 50 MiB upload arrives whole", "[h2-interop][node][large]") {
  auto t0 = Clock::now();
  json r = call(
      input("POST", node_main() + "/upload", {{"requestBody", big_pattern()}, {"sessionId", "node-big-up"}}));
  double took = seconds_since(t0);
  INFO(r.dump() << "\nupload took " << took << " s");
  REQUIRE(r["status"] == 200);
  CHECK(r["usedProtocol"] == "HTTP/2.0");
  json got = json::parse(r["body"].get<std::string>());
  CHECK(got["bytes"] == kBig);
  CHECK(got["sha256"] == big_sha());
  CHECK(took < itest::time_limit(20.0));
}

TEST_CASE("node h2: 2,000 requests at once share one connection", "[h2-interop][node][burst]") {
  const std::string session = "node-2000";
  json before = stats(node_main(), session);  // opens the session's connection
  std::vector<json> inputs;
  for (int i = 0; i < 2000; ++i)
    inputs.push_back(input("GET", node_main() + "/hello?i=" + std::to_string(i), {{"sessionId", session}}));
  auto t0 = Clock::now();
  auto rs = burst(inputs);
  double took = seconds_since(t0);
  Tally t = tally(rs, "X-Session");
  INFO(describe(t) << "\ntook " << took << " s");
  CHECK(t.status[200] == 2000);
  CHECK(t.conns.size() == 1);
  json after = stats(node_main(), session);
  CHECK(after["sessions"] == before["sessions"]);  // no connection opened
  for (const auto& r : rs) {
    if (!r.is_null() && r["status"] == 200) {
      CHECK(r["usedProtocol"] == "HTTP/2.0");
      break;
    }
  }
  CHECK(took < itest::time_limit(30.0));
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}

TEST_CASE("node h2: MAX_CONCURRENT_STREAMS 10 with 200 at once: none fail, never more than 10 open",
          "[h2-interop][node][burst]") {
  const std::string session = "node-small";
  json before = stats(node_small(), session);
  std::vector<json> inputs;
  for (int i = 0; i < 200; ++i)
    inputs.push_back(
        input("GET", node_small() + "/slow?ms=20&i=" + std::to_string(i), {{"sessionId", session}}));
  auto rs = burst(inputs);
  Tally t = tally(rs, "X-Session");
  INFO(describe(t));
  CHECK(t.status[200] == 200);
  json after = stats(node_small(), session);
  INFO(after.dump());
  CHECK(after["maxActive"].get<int>() <= 10);
  CHECK(after["maxActive"].get<int>() >= 2);  // they did run side by side
  CHECK(after["sessions"] == before["sessions"]);
  CHECK(t.conns.size() == 1);
  // The server's nghttp2 refuses streams above 10 before Node sees them, so
  // maxActive alone cannot tell; stream ids can: none was spent on a refusal
  // (the /stats stream was 1, the burst is 3..401).
  int max_id = 0;
  for (const auto& r : rs) {
    if (!r.is_null() && r["status"] == 200) max_id = std::max(max_id, std::stoi(header(r, "X-Stream")));
  }
  CHECK(max_id == 401);
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}

TEST_CASE("node h2: GOAWAY mid-burst: the unprocessed requests go again on a new connection",
          "[h2-interop][node][goaway]") {
  // The server answers 100 streams per connection, then GOAWAY.
  const std::string session = "node-goaway";
  std::vector<json> inputs;
  for (int i = 0; i < 250; ++i)
    inputs.push_back(
        input("GET", node_goaway() + "/slow?ms=10&i=" + std::to_string(i), {{"sessionId", session}}));
  auto rs = burst(inputs);
  Tally t = tally(rs, "X-Session");
  INFO(describe(t));
  CHECK(t.status[200] == 250);
  CHECK(t.conns.size() >= 3);
  for (auto& [conn, n] : t.conns) CHECK(n <= 100);
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}

TEST_CASE("node h2: a stream reset with INTERNAL_ERROR fails that request only",
          "[h2-interop][node][reset]") {
  const std::string session = "node-reset";
  std::vector<json> inputs;
  for (int i = 0; i < 40; ++i) {
    std::string path = i == 20 ? "/reset" : "/slow?ms=50&i=" + std::to_string(i);
    inputs.push_back(input("GET", node_main() + path, {{"sessionId", session}}));
  }
  auto rs = burst(inputs);
  REQUIRE_FALSE(rs[20].is_null());
  INFO(rs[20].dump());
  CHECK(rs[20]["status"] == 0);
  CHECK(rs[20]["errorCode"] == "stream_reset");
  std::string body = rs[20]["body"];
  CHECK(std::regex_search(body, std::regex("stream error: stream ID [0-9]+; INTERNAL_ERROR$")));
  CHECK(body.starts_with("failed to do request: "));
  rs.erase(rs.begin() + 20);
  Tally t = tally(rs, "X-Session");
  INFO(describe(t));
  CHECK(t.status[200] == 39);
  CHECK(t.conns.size() == 1);  // the connection lived on
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}

TEST_CASE("node h2: a bomb past maxResponseBodyBytes resets its stream only; the connection goes on",
          "[h2-interop][node][limits]") {
  const std::string session = "node-bomb";
  json r =
      get(node_main() + "/bomb?enc=br&mib=64", {{"sessionId", session}, {"maxResponseBodyBytes", 1 << 20}});
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "body_too_large");
  CHECK(r["body"] == "response body too large: over 1048576 bytes (maxResponseBodyBytes)");
  json ok =
      get(node_main() + "/bomb?enc=gzip&mib=2", {{"sessionId", session}, {"maxResponseBodyBytes", 2 << 20}});
  REQUIRE(ok["status"] == 200);
  CHECK(ok["body"].get<std::string>() == std::string(2 << 20, '\0'));
  CHECK(header(ok, "X-Session") ==
        header(get(node_main() + "/hello", {{"sessionId", session}}), "X-Session"));
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}

TEST_CASE("a server that floods PING or SETTINGS and never reads is cut off by nghttp2's flood guard",
          "[h2-interop][flood][limits]") {
  // Without write backpressure the acknowledgements pile up in the client
  // without bound (about 50 MB/s here) until the timeout; with it nghttp2
  // holds them, counts them and ends the connection.
  for (const char* mode : {"ping", "settings"}) {
    INFO(mode);
    const json& server = start_once(
        std::string("flood-") + mode,
        {"python3", server_script("h2_flood_server.py"), "--cert", cert(), "--key", key(), "--mode", mode});
    auto t0 = Clock::now();
    json r = get(origin(server["port"]) + "/", {{"timeoutSeconds", 60}});
    const double took = std::chrono::duration<double>(Clock::now() - t0).count();
    INFO(r.dump() << " after " << took << " s");
    CHECK(r["status"] == 0);
    CHECK(r["errorCode"] == "h2_protocol");
    CHECK(r["body"].get<std::string>().ends_with(
        "http2: Flooding was detected in this HTTP/2 session, and it must be closed"));
    CHECK(took < itest::time_limit(15));
  }
}

TEST_CASE("a server that breaks HTTP/2 gets upstream's answer, word for word", "[h2-interop][rogue]") {
  // Each text is what upstream's own library answered against the same
  // server (tests/servers/h2_rogue_server.py). nghttp2's HTTP checks are
  // off: Go takes a `connection` header, a value with spaces around it and
  // a body shorter than its Content-Length, which nghttp2 refused.
  const json& server =
      start_once("rogue", {"python3", server_script("h2_rogue_server.py"), "--cert", cert(), "--key", key()});
  struct Case {
    const char* mode;
    int status;
    const char* body;  // after `failed to do request: Get "<url>": ` where prefixed
    bool prefixed;
    const char* error_code;
  };
  const Case cases[] = {
      {"rst", 0, "stream error: stream ID 1; INTERNAL_ERROR", true, "stream_reset"},
      {"rst-in-body", 0, "stream error: stream ID 1; PROTOCOL_ERROR", false, "stream_reset"},
      {"window-overflow", 0, "connection error: FLOW_CONTROL_ERROR", true, "h2_protocol"},
      {"settings-window", 0, "connection error: FLOW_CONTROL_ERROR", true, "h2_protocol"},
      {"upper-header", 0, "stream error: stream ID 1; PROTOCOL_ERROR; invalid header field name \"X-Upper\"",
       true, "h2_protocol"},
      {"odd-name", 0, "stream error: stream ID 1; PROTOCOL_ERROR; invalid header field name \"x@y\"", true,
       "h2_protocol"},
      {"bad-header-value", 0,
       "stream error: stream ID 1; PROTOCOL_ERROR; invalid header field value \"a\\x00b\"", true,
       "h2_protocol"},
      {"ctl-value", 0, "stream error: stream ID 1; PROTOCOL_ERROR; invalid header field value \"a\\x01b\"",
       true, "h2_protocol"},
      {"pseudo-after-regular", 0,
       "stream error: stream ID 1; PROTOCOL_ERROR; pseudo header field after regular", true, "h2_protocol"},
      {"unknown-pseudo", 0, "stream error: stream ID 1; PROTOCOL_ERROR; invalid pseudo-header \":foo\"", true,
       "h2_protocol"},
      {"no-status", 0, "malformed response from server: missing status pseudo header", true, "h2_protocol"},
      {"bad-status", 0, "malformed response from server: malformed non-numeric status pseudo header", true,
       "h2_protocol"},
      {"length-mismatch", 0, "net/http: server replied with more than declared Content-Length; truncated",
       false, "http_protocol"},
      // Upstream words these two as stream errors; nghttp2 ends the whole
      // connection for them (abi/COMPAT.md).
      {"data-first", 0, "connection error: PROTOCOL_ERROR", true, "h2_protocol"},
      {"zero-increment", 0, "connection error: PROTOCOL_ERROR", true, "h2_protocol"},
      {"connection-header", 200, "ok", false, nullptr},
      {"space-value", 200, "ok", false, nullptr},
      {"length-short", 200, "ok", false, nullptr},
      {"info-then-200", 200, "ok", false, nullptr},
      {"ok", 200, "ok", false, nullptr},
  };
  for (const Case& c : cases) {
    INFO(c.mode);
    const std::string url = origin(server["ports"][c.mode]) + "/";
    json r = get(url, {{"timeoutSeconds", 10}, {"sessionId", std::string("rogue-") + c.mode}});
    INFO(r.dump());
    CHECK(r["status"] == c.status);
    const std::string want =
        c.prefixed ? "failed to do request: Get \"" + url + "\": " + c.body : std::string(c.body);
    CHECK(r["body"] == want);
    if (c.error_code != nullptr) CHECK(r["errorCode"] == c.error_code);
    if (c.status == 200) CHECK(r["usedProtocol"] == "HTTP/2.0");
  }
}

TEST_CASE("node h2: REFUSED_STREAM is retried", "[h2-interop][node][reset]") {
  const std::string session = "node-refuse";
  // Alone, and among others on the same connection.
  json r = get(node_main() + "/refuse?key=alone", {{"sessionId", session}});
  INFO(r.dump());
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "attempt 2");
  std::vector<json> inputs;
  for (int i = 0; i < 30; ++i) {
    std::string path =
        i % 10 == 5 ? "/refuse?key=burst" + std::to_string(i) : "/slow?ms=20&i=" + std::to_string(i);
    inputs.push_back(input("GET", node_main() + path, {{"sessionId", session}}));
  }
  auto rs = burst(inputs);
  Tally t = tally(rs, "X-Session");
  INFO(describe(t));
  CHECK(t.status[200] == 30);
  for (int i = 5; i < 30; i += 10) CHECK(rs[i]["body"] == "attempt 2");
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}

TEST_CASE("node h2: an idle connection is closed after idleConnTimeout", "[h2-interop][node][idle]") {
  // 1 s, as Go's time.Duration in nanoseconds.
  json a = get(node_main() + "/hello",
               {{"sessionId", "node-idle-1s"}, {"transportOptions", {{"idleConnTimeout", 1000000000LL}}}});
  json b = get(node_main() + "/hello", {{"sessionId", "node-idle-default"}});
  REQUIRE(a["status"] == 200);
  REQUIRE(b["status"] == 200);
  std::string sa = header(a, "X-Session"), sb = header(b, "X-Session");
  REQUIRE(sa != sb);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  json ia = json::parse(get(node_main() + "/session?id=" + sa)["body"].get<std::string>());
  json ib = json::parse(get(node_main() + "/session?id=" + sb)["body"].get<std::string>());
  INFO(ia.dump() << " " << ib.dump());
  CHECK(ia["open"] == false);
  if (ia["open"] == false) {
    CHECK(ia["idleMsBeforeClose"].get<int>() >= 900);
    CHECK(ia["idleMsBeforeClose"].get<int>() <= 2000);
  }
  CHECK(ib["open"] == true);  // the default timeout is far longer
  // The session goes on, on a new connection.
  json c = get(node_main() + "/hello", {{"sessionId", "node-idle-1s"}});
  CHECK(c["status"] == 200);
  CHECK(header(c, "X-Session") != sa);
  json d = get(node_main() + "/hello", {{"sessionId", "node-idle-default"}});
  CHECK(header(d, "X-Session") == sb);
  itest::call_fn(lib().destroySession, {{"sessionId", "node-idle-1s"}});
  itest::call_fn(lib().destroySession, {{"sessionId", "node-idle-default"}});
}

TEST_CASE("node h2: four 12.5 MiB downloads at once on one connection", "[h2-interop][node][large]") {
  const size_t quarter = kBig / 4;
  const std::string want = sha256_hex(pattern(quarter));
  std::vector<json> inputs;
  for (int i = 0; i < 4; ++i) {
    inputs.push_back(
        input("GET", node_main() + "/download?bytes=" + std::to_string(quarter) + "&i=" + std::to_string(i),
              {{"sessionId", "node-4-down"}}));
  }
  auto t0 = Clock::now();
  auto rs = burst(inputs);
  double took = seconds_since(t0);
  INFO("took " << took << " s");
  std::set<std::string> conns;
  for (const auto& r : rs) {
    REQUIRE_FALSE(r.is_null());
    REQUIRE(r["status"] == 200);
    const std::string& body = r["body"].get_ref<const std::string&>();
    CHECK(body.size() == quarter);
    CHECK(sha256_hex(body) == want);
    conns.insert(header(r, "X-Session"));
  }
  CHECK(conns.size() == 1);
  CHECK(took < itest::time_limit(20.0));
  itest::call_fn(lib().destroySession, {{"sessionId", "node-4-down"}});
}

TEST_CASE("node h2: an answer sent before the upload ends, then RST_STREAM NO_ERROR, is kept",
          "[h2-interop][node][reset]") {
  auto t0 = Clock::now();
  json r = call(input("POST", node_main() + "/early",
                      {{"requestBody", pattern(8u * 1024 * 1024)}, {"timeoutSeconds", 15}}));
  INFO(r.dump().substr(0, 2000) << "\ntook " << seconds_since(t0) << " s");
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "early answer");
  CHECK(seconds_since(t0) < 10.0);
}

TEST_CASE("node h2: trailers after the body do not disturb the response", "[h2-interop][node]") {
  json r = get(node_main() + "/trailers");
  INFO(r.dump());
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "body before trailers");
}

TEST_CASE("node h2: a connection that dies mid-request fails that request, and the session recovers",
          "[h2-interop][node][dead]") {
  const std::string session = "node-kill";
  json a = get(node_main() + "/hello", {{"sessionId", session}});
  REQUIRE(a["status"] == 200);
  auto t0 = Clock::now();
  json r = get(node_main() + "/kill", {{"sessionId", session}, {"timeoutSeconds", 10}});
  double took = seconds_since(t0);
  INFO(r.dump() << "\ntook " << took << " s");
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "connection_closed");
  CHECK(r["body"].get<std::string>().starts_with("failed to do request: "));
  CHECK(took < 5.0);  // seen at once, not by the timeout
  json b = get(node_main() + "/hello", {{"sessionId", session}});
  INFO(b.dump());
  CHECK(b["status"] == 200);
  CHECK(header(b, "X-Session") != header(a, "X-Session"));
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}

// Each new connection opens up to 100 streams before the server's SETTINGS
// arrive (Chrome's assumption; nghttp2's default), the server refuses all
// above 10, and with the GOAWAYs a request may be refused several times.
// As fhttp's RoundTrip, the library retries up to 7 times, with a backoff of
// 1, 2, 4, ... s from the second retry on, so all 100 succeed.
TEST_CASE("node h2: GOAWAY while requests wait for a stream slot (10 at a time, GOAWAY after 25)",
          "[h2-interop][node][goaway]") {
  const std::string session = "node-small-goaway";
  std::vector<json> inputs;
  for (int i = 0; i < 100; ++i) {
    inputs.push_back(
        input("GET", node_small_goaway() + "/slow?ms=5&i=" + std::to_string(i), {{"sessionId", session}}));
  }
  auto rs = burst(inputs);
  Tally t = tally(rs, "X-Session");
  INFO(describe(t));
  CHECK(t.status[200] == 100);
  CHECK(t.conns.size() >= 4);
  for (auto& [conn, n] : t.conns) CHECK(n <= 25);
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}

TEST_CASE("node h2: a refused POST goes again with its body", "[h2-interop][node][reset]") {
  json r = call(input("POST", node_main() + "/refuse?key=post-body",
                      {{"requestBody", "the body, twice"}, {"sessionId", "node-refuse-post"}}));
  INFO(r.dump());
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "attempt 2: the body, twice");
  itest::call_fn(lib().destroySession, {{"sessionId", "node-refuse-post"}});
}

TEST_CASE("node h2: a request that times out cancels its stream; the connection stays in use",
          "[h2-interop][node][timeout]") {
  const std::string session = "node-timeout";
  // The session's client (and its timeout) comes from its first request.
  auto with_ms = [&](const std::string& path) {
    json in = input("GET", node_main() + path, {{"sessionId", session}, {"timeoutMilliseconds", 300}});
    in.erase("timeoutSeconds");
    return call(in);
  };
  json first = with_ms("/hello");
  REQUIRE(first["status"] == 200);
  json before = stats(node_main(), "node-timeout-stats");
  auto t0 = Clock::now();
  json r = with_ms("/slow?ms=3000");
  double took = seconds_since(t0);
  INFO(r.dump() << "\ntook " << took << " s");
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "timeout");
  CHECK(took < 2.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  json after = stats(node_main(), "node-timeout-stats");
  INFO(before.dump() << " -> " << after.dump());
  auto cancels = [](const json& s) { return s["clientResets"].value("8", 0); };  // CANCEL
  CHECK(cancels(after) == cancels(before) + 1);
  json again = with_ms("/hello");
  CHECK(again["status"] == 200);
  CHECK(header(again, "X-Session") == header(first, "X-Session"));  // the connection lived on
  itest::call_fn(lib().destroySession, {{"sessionId", "node-timeout-stats"}});
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}

// Before the server's SETTINGS arrive, a fresh connection opens at most 100
// streams, as Chrome assumes (fhttp assumes 1000); a server with
// MAX_CONCURRENT_STREAMS 10 refuses those above 10 (REFUSED_STREAM from its
// nghttp2), and they go again once the limit is known. Stream ids show the
// bound: 200 requests use at most 200 + 100 refused ids (1..599).
TEST_CASE("a fresh connection opens at most 100 streams before SETTINGS; refused ones go again",
          "[h2-interop]") {
  std::vector<json> inputs;
  for (int i = 0; i < 200; ++i) {
    inputs.push_back(input("GET", node_small() + "/slow?ms=20&i=" + std::to_string(i),
                           {{"sessionId", "node-fresh-small"}}));
  }
  auto rs = burst(inputs);
  Tally t = tally(rs, "X-Session");
  INFO(describe(t));
  CHECK(t.status[200] == 200);
  int max_id = 0;
  for (const auto& r : rs) {
    if (!r.is_null() && r["status"] == 200) max_id = std::max(max_id, std::stoi(header(r, "X-Stream")));
  }
  CHECK(max_id <= 599);
  itest::call_fn(lib().destroySession, {{"sessionId", "node-fresh-small"}});
}

TEST_CASE("node h2: the server's PING is answered mid-request", "[h2-interop][node]") {
  json r = get(node_main() + "/ping");
  INFO(r.dump());
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "pong");
}

TEST_CASE("node h2: a 60 KiB response header arrives through CONTINUATION frames", "[h2-interop][node]") {
  // About 45 KB of HPACK (Huffman): HEADERS and two CONTINUATIONs of 16 KB.
  // (Node itself sends no header block above 64 KB.)
  json r = get(node_main() + "/bigheader?kb=60");
  INFO(r.dump().substr(0, 600));
  REQUIRE(r["status"] == 200);
  CHECK(r["body"] == "header of 61440");
  CHECK(header(r, "X-Big") == std::string(61440, 'h'));
}

// ------------------------------------------------------------- nghttpd ----

TEST_CASE("nghttpd: GET and POST over HTTP/2", "[h2-interop][nghttpd]") {
  json r = get(nghttpd() + "/hello.txt");
  INFO(r.dump());
  REQUIRE(r["status"] == 200);
  CHECK(r["usedProtocol"] == "HTTP/2.0");
  CHECK(r["body"] == "hello from nghttpd\n");
  CHECK(header(r, "Server").starts_with("nghttpd"));
  CHECK(get(nghttpd() + "/missing")["status"] == 404);
  r = call(input("POST", nghttpd() + "/hello.txt", {{"requestBody", "posted to nghttpd"}}));
  INFO(r.dump());
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "posted to nghttpd");
}

TEST_CASE("nghttpd: 50 MiB down, and 50 MiB up and echoed back", "[h2-interop][nghttpd][large]") {
  check_big_download(nghttpd() + "/big.bin", "nghttpd-big");
  auto t0 = Clock::now();
  json r = call(input("POST", nghttpd() + "/hello.txt",
                      {{"requestBody", big_pattern()}, {"sessionId", "nghttpd-big"}}));
  double took = seconds_since(t0);
  INFO("upload and echo took " << took << " s; status " << r["status"]);
  REQUIRE(r["status"] == 200);
  const std::string& body = r["body"].get_ref<const std::string&>();
  CHECK(body.size() == kBig);
  CHECK(sha256_hex(body) == big_sha());
  CHECK(took < itest::time_limit(30.0));
}

TEST_CASE("nghttpd: MAX_CONCURRENT_STREAMS 10 with 200 at once: none fail", "[h2-interop][nghttpd][burst]") {
  std::vector<json> inputs;
  for (int i = 0; i < 200; ++i)
    inputs.push_back(
        input("GET", nghttpd_m10() + "/hello.txt?i=" + std::to_string(i), {{"sessionId", "nghttpd-m10"}}));
  auto rs = burst(inputs);
  Tally t = tally(rs, "Server");
  INFO(describe(t));
  CHECK(t.status[200] == 200);
  for (const auto& r : rs) {
    if (!r.is_null() && r["status"] == 200 && r["body"] != "hello from nghttpd\n") {
      FAIL_CHECK("wrong body: " << r["body"]);
      break;
    }
  }
  itest::call_fn(lib().destroySession, {{"sessionId", "nghttpd-m10"}});
}

// --------------------------------------------------------------- nginx ----

TEST_CASE("nginx h2: GET and POST over HTTP/2", "[h2-interop][nginx]") {
  json r = get(nginx_main() + "/hello.txt");
  INFO(r.dump());
  REQUIRE(r["status"] == 200);
  CHECK(r["usedProtocol"] == "HTTP/2.0");
  CHECK(r["body"] == "hello from nginx\n");
  CHECK(header(r, "Server").starts_with("nginx"));
  r = call(input("POST", nginx_main() + "/echo", {{"requestBody", std::string(100000, 'n')}}));
  INFO(r["status"]);
  CHECK(r["status"] == 200);
  CHECK(r["body"] == std::string(100000, 'n'));
}

TEST_CASE("nginx h2: a 50 MiB download arrives whole", "[h2-interop][nginx][large]") {
  check_big_download(nginx_main() + "/big.bin", "nginx-big");
}

TEST_CASE("nginx h2: 2,000 requests at once share one connection (128 streams at a time)",
          "[h2-interop][nginx][burst]") {
  std::vector<json> inputs;
  for (int i = 0; i < 2000; ++i)
    inputs.push_back(
        input("GET", nginx_main() + "/hello.txt?i=" + std::to_string(i), {{"sessionId", "nginx-2000"}}));
  auto t0 = Clock::now();
  auto rs = burst(inputs);
  double took = seconds_since(t0);
  Tally t = tally(rs, "X-Conn");
  INFO(describe(t) << "\ntook " << took << " s");
  CHECK(t.status[200] == 2000);
  CHECK(t.conns.size() == 1);
  CHECK(took < itest::time_limit(30.0));
  itest::call_fn(lib().destroySession, {{"sessionId", "nginx-2000"}});
}

TEST_CASE("nginx h2: GOAWAY after keepalive_requests mid-burst: all succeed on new connections",
          "[h2-interop][nginx][goaway]") {
  std::vector<json> inputs;
  for (int i = 0; i < 250; ++i)
    inputs.push_back(
        input("GET", nginx_goaway() + "/hello.txt?i=" + std::to_string(i), {{"sessionId", "nginx-goaway"}}));
  auto rs = burst(inputs);
  Tally t = tally(rs, "X-Conn");
  INFO(describe(t));
  CHECK(t.status[200] == 250);
  CHECK(t.conns.size() >= 3);
  for (auto& [conn, n] : t.conns) CHECK(n <= 100);
  itest::call_fn(lib().destroySession, {{"sessionId", "nginx-goaway"}});
}

// ----------------------------------------------------------------- h2o ----

TEST_CASE("h2o: GET and POST over HTTP/2", "[h2-interop][h2o]") {
  json r = get(h2o() + "/hello.txt");
  INFO(r.dump());
  REQUIRE(r["status"] == 200);
  CHECK(r["usedProtocol"] == "HTTP/2.0");
  CHECK(r["body"] == "hello from h2o\n");
  CHECK(header(r, "Server").starts_with("h2o"));
  r = call(input("POST", h2o() + "/echo", {{"requestBody", "posted to h2o"}}));
  INFO(r.dump());
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "posted to h2o");
}

TEST_CASE("h2o: 50 MiB down and 50 MiB up", "[h2-interop][h2o][large]") {
  check_big_download(h2o() + "/big.bin", "h2o-big");
  auto t0 = Clock::now();
  json r = call(input("POST", h2o() + "/upload", {{"requestBody", big_pattern()}, {"sessionId", "h2o-big"}}));
  double took = seconds_since(t0);
  INFO(r.dump() << "\nupload took " << took << " s");
  REQUIRE(r["status"] == 200);
  CHECK(r["body"] == std::to_string(kBig));
  CHECK(took < itest::time_limit(20.0));
}

TEST_CASE("h2o: 2,000 requests at once share one connection (100 streams at a time)",
          "[h2-interop][h2o][burst]") {
  // /conn answers the client's port: one value per TCP connection.
  std::vector<json> inputs;
  for (int i = 0; i < 2000; ++i)
    inputs.push_back(input("GET", h2o() + "/conn?i=" + std::to_string(i), {{"sessionId", "h2o-2000"}}));
  auto rs = burst(inputs);
  Tally t = tally(rs, "Server");
  INFO(describe(t));
  CHECK(t.status[200] == 2000);
  std::set<std::string> ports;
  for (const auto& r : rs) {
    if (!r.is_null() && r["status"] == 200) ports.insert(r["body"].get<std::string>());
  }
  CHECK(ports.size() == 1);
  itest::call_fn(lib().destroySession, {{"sessionId", "h2o-2000"}});
}

// ------------------------------------------------ known library bugs ----

// fhttp's HTTP/1.1 transport drops Content-Length and Content-Encoding of a
// body it asked compression for (transport.go: `if rc.addedGzip { ... Del }`);
// its HTTP/2 transport (http2/transport.go handleResponse, fhttp v0.6.8 as
// tls-client pins it) only wraps the body in DecompressBody and leaves both
// headers in place, so upstream's Response shows them for HTTP/2.
TEST_CASE("h2 responses keep Content-Length and Content-Encoding as upstream's HTTP/2 transport does",
          "[h2-interop]") {
  struct Case {
    std::string url, length;
  };
  for (const Case& c : {Case{node_main() + "/hello", "18"}, Case{nghttpd() + "/hello.txt", "19"},
                        Case{nginx_main() + "/hello.txt", "17"}, Case{h2o() + "/hello.txt", "15"}}) {
    json r = get(c.url);
    INFO(r.dump());
    REQUIRE(r["status"] == 200);
    CHECK(r["usedProtocol"] == "HTTP/2.0");
    CHECK(header(r, "Content-Length") == c.length);
  }
  // nginx gzips /gz (hello.txt): the body arrives decoded, the header stays.
  json r = get(nginx_main() + "/gz");
  INFO(r.dump());
  REQUIRE(r["status"] == 200);
  CHECK(r["body"] == "hello from nginx\n");
  CHECK(header(r, "Content-Encoding") == "gzip");
}

// A GOAWAY then close under a request the server accepted: fhttp's text,
// `http2: server sent GOAWAY and closed the connection; LastStreamID=3,
// ErrCode=NO_ERROR, debug=""` (http2/transport.go, GoAwayError.Error).
TEST_CASE("a GOAWAY then close under an accepted request fails with Go's GoAwayError text", "[h2-interop]") {
  const std::string session = "node-kill-text";
  REQUIRE(get(node_main() + "/hello", {{"sessionId", session}})["status"] == 200);
  // Node's session.destroy() sends GOAWAY (NO_ERROR, last = the /kill stream) and closes.
  json r = get(node_main() + "/kill", {{"sessionId", session}, {"timeoutSeconds", 10}});
  INFO(r.dump());
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "connection_closed");
  std::string body = r["body"];
  CHECK(std::regex_search(
      body,
      std::regex(
          "^failed to do request: Get \"https://127\\.0\\.0\\.1:[0-9]+/kill\": http2: server sent GOAWAY "
          "and closed the connection; LastStreamID=[0-9]+, ErrCode=NO_ERROR, debug=\"\"$")));
  itest::call_fn(lib().destroySession, {{"sessionId", session}});
}
