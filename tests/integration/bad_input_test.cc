// Every kind of bad input answers with status 0 and a reason, never a crash
// or a hang.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::call_raw;
using itest::h1_servers;
using itest::json;

namespace {

void expect_error(const json& r, const std::string& code, const std::string& fragment) {
  INFO(r.dump());
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == code);
  CHECK(r["body"].get<std::string>().find(fragment) != std::string::npos);
  CHECK(r["headers"].is_null());
}

json req(const std::string& url, json extra = json::object()) {
  json in = {{"requestUrl", url}, {"requestMethod", "GET"}, {"timeoutSeconds", 10}};
  for (auto& [k, v] : extra.items()) in[k] = v;
  return call(in);
}

}  // namespace

TEST_CASE("malformed calls", "[bad]") {
  expect_error(call_raw(nullptr), "invalid_input", "null pointer");
  expect_error(call_raw(""), "invalid_input", "unexpected end of JSON input");
  // Go's scanner's words, which run before any field is decoded.
  expect_error(call_raw("{not json"), "invalid_input",
               "invalid character 'n' looking for beginning of object key string");
  expect_error(call_raw("{\"requestUrl\":\"http://x/\"} x"), "invalid_input",
               "invalid character 'x' after top-level value");
  expect_error(call_raw("[1,2]"), "invalid_input",
               "cannot unmarshal array into Go value of type tls_client_cffi_src.RequestInput");
  expect_error(call_raw("\"str\""), "invalid_input", "cannot unmarshal string");
  expect_error(call_raw("{\"requestUrl\": 5, \"requestMethod\": \"GET\"}"), "invalid_input",
               "json: cannot unmarshal number into Go struct field RequestInput.requestUrl of type string");
  expect_error(call_raw("{\"timeoutSeconds\": \"10\"}"), "invalid_input", "of type int");
  // Not UTF-8 inside a string: U+FFFD for each byte, as Go decodes it.
  expect_error(call_raw("{\"requestUrl\": \"http://127.0.0.1:1/\xff\xfe\", \"requestMethod\": \"GET\"}"),
               "connect", "Get \"http://127.0.0.1:1/%EF%BF%BD%EF%BF%BD\"");
  expect_error(call_raw("{}"), "invalid_input", "no request url or request method provided");
}

TEST_CASE("upstream's conflicting-input rules", "[bad]") {
  expect_error(call({{"requestUrl", "http://127.0.0.1/"},
                     {"requestMethod", "GET"},
                     {"tlsClientIdentifier", "chrome_133"},
                     {"customTlsClient", {{"ja3String", "x"}}}}),
               "invalid_input",
               "cannot build client out of client identifier and custom tls client information");
  expect_error(call({{"requestUrl", "http://127.0.0.1/"},
                     {"requestMethod", "GET"},
                     {"timeoutSeconds", 1},
                     {"timeoutMilliseconds", 5}}),
               "invalid_input",
               "cannot build client with both defined timeout in seconds and timeout in milliseconds");
  expect_error(call({{"requestUrl", "http://127.0.0.1/"},
                     {"requestMethod", "GET"},
                     {"customTlsClient", {{"ja3String", "771,4865,0-99,29,0"}}}}),
               "invalid_input",
               "failed to build client out of request input: can not build http client out of custom "
               "tls client information: unknown extension with id 99 provided");
  // An unknown identifier is no error: it falls back to the default profile.
  json r = req(h1_servers().http + "/echo", {{"tlsClientIdentifier", "no_such_browser_1"}});
  CHECK(r["status"] == 200);
}

TEST_CASE("huge strings do not crash", "[bad]") {
  std::string huge(8 << 20, 'a');
  json r = req(h1_servers().http + "/echo", {{"headers", {{"X-Huge", huge.substr(0, 1 << 20)}}}});
  CHECK((r["status"] == 200 || r["status"] == 431 || r["status"] == 0));
  r = req("http://" + huge + "/");
  CHECK(r["status"] == 0);
  r = call({{"requestUrl", h1_servers().http + "/echo"}, {"requestMethod", "POST"}, {"requestBody", huge}});
  CHECK(r["status"] == 200);
}

TEST_CASE("bad methods and URLs", "[bad]") {
  expect_error(call({{"requestUrl", "http://127.0.0.1/"}, {"requestMethod", "GE T"}}), "invalid_input",
               "failed to create request object: net/http: invalid method \"GE T\"");
  expect_error(req("127.0.0.1:8080/x"), "invalid_input",
               "failed to create request object: parse \"127.0.0.1:8080/x\": first path segment in URL "
               "cannot contain colon");
  // tls-client's round tripper's words (fhttp's "unsupported protocol
  // scheme" is never reached).
  expect_error(req("/just/a/path"), "invalid_input",
               "failed to do request: Get \"/just/a/path\": invalid URL scheme: []");
  expect_error(req("http:///nohost"), "invalid_input", "http: no Host in request URL");
  expect_error(req("ftp://127.0.0.1/file"), "invalid_input", "invalid URL scheme: [ftp]");
  // An opaque URL is printed as Go prints it: no "//".
  expect_error(req("javascript:alert(1)"), "invalid_input",
               "failed to do request: Get \"javascript:alert(1)\": invalid URL scheme: [javascript]");
  expect_error(req("http://127.0.0.1:70000/"), "invalid_input", "invalid port");
  expect_error(req("http://127.0.0.1:8x/"), "invalid_input", "invalid port");
}

TEST_CASE("network failures", "[bad]") {
  // Port 1 on loopback: nothing listens there.
  json r = req("http://127.0.0.1:1/");
  expect_error(
      r, "connect",
      "failed to do request: Get \"http://127.0.0.1:1/\": dial tcp 127.0.0.1:1: connect: connection refused");
  CHECK(r["errorState"] == "dialing");
  // Refused before it started: no state.
  CHECK_FALSE(call_raw("{}").contains("errorState"));
  CHECK(req("ftp://127.0.0.1/file")["errorState"] == "starting");
  expect_error(req("http://no-such-host.invalid/"), "dns", "lookup no-such-host.invalid");
  // A label over 63 bytes: no DNS name, and Go says so as for any unknown host.
  const std::string label(64, 'a');
  expect_error(req("http://" + label + ".example/"), "dns",
               "dial tcp: lookup " + label + ".example: no such host");
  expect_error(req(h1_servers().raw + "/raw/reset"), "connection_closed", "connection reset by peer");
  expect_error(req(h1_servers().raw + "/raw/truncated"), "connection_closed", "unexpected EOF");
  expect_error(req(h1_servers().raw + "/raw/no-response"), "connection_closed", "EOF");
  expect_error(req(h1_servers().raw + "/raw/malformed-status"), "http_protocol",
               "malformed HTTP status code");
  expect_error(req(h1_servers().raw + "/raw/garbage"), "http_protocol", "malformed HTTP response");
  expect_error(req(h1_servers().raw + "/raw/bad-chunk"), "http_protocol", "chunk");
  expect_error(
      req(h1_servers().raw + "/raw/huge-header", {{"transportOptions", {{"maxResponseHeaderBytes", 4096}}}}),
      "http_protocol", "server response headers exceeded 4096 bytes; aborted");
}

TEST_CASE("timeouts end a request on time", "[bad][timeout]") {
  auto t0 = std::chrono::steady_clock::now();
  json r = call({{"requestUrl", h1_servers().http + "/delay/5000"},
                 {"requestMethod", "GET"},
                 {"timeoutMilliseconds", 300}});
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  expect_error(r, "timeout", "Client.Timeout exceeded while awaiting headers");
  CHECK(r["errorState"] == "awaiting_head");
  CHECK(ms >= 290);
  CHECK(ms < 3000);
  r = call({{"requestUrl", h1_servers().raw + "/raw/slow-body"},
            {"requestMethod", "GET"},
            {"timeoutMilliseconds", 300}});
  expect_error(r, "timeout", "Client.Timeout or context cancellation while reading body");
  CHECK(r["errorState"] == "reading_body");
}

TEST_CASE("withDebug traces each state of a request on stderr", "[bad][debug]") {
  // stderr goes to a file for the call (the library writes with stdio).
  std::string path = "/tmp/tlsc-debug-" + std::to_string(getpid()) + ".log";
  std::fflush(stderr);
  int saved = dup(2);
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(fd >= 0);
  dup2(fd, 2);
  json r = req(h1_servers().http + "/echo", {{"withDebug", true}});
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  INFO(log);
  CHECK(r["status"] == 200);
  std::string id = r["id"];
  size_t at = 0;
  for (const char* step : {"GET http", "dialing", "sending", "awaiting_head", "HTTP/1.1 200", "done"}) {
    size_t p = log.find(step, at);
    CHECK(p != std::string::npos);
    if (p != std::string::npos) at = p;
  }
  CHECK(log.find("tls-client debug: " + id + " +") != std::string::npos);
  // Without withDebug: nothing.
  saved = dup(2);
  fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(fd, 2);
  req(h1_servers().http + "/echo");
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  std::ifstream in2(path);
  std::string quiet((std::istreambuf_iterator<char>(in2)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  CHECK(quiet.empty());
}

TEST_CASE("freeMemory, destroySession and waitNext on nothing", "[bad]") {
  CHECK(itest::lib().freeMemory(const_cast<char*>("no-such-id")) == nullptr);
  CHECK(itest::lib().freeMemory(nullptr) == nullptr);
  json d = itest::call_fn(itest::lib().destroySession, {{"sessionId", "never-existed"}});
  CHECK(d["success"] == true);
  auto t0 = std::chrono::steady_clock::now();
  std::string w = itest::lib().waitNext(-1);
  CHECK(w == "[]");
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
  json c = itest::call_fn(itest::lib().getCookiesFromSession,
                          {{"sessionId", "never-existed"}, {"url", "http://x/"}});
  expect_error(c, "invalid_input", "no client found for sessionId: never-existed");
}

TEST_CASE("conflicting options: tls-client's validateConfig, its order and words", "[bad]") {
  const std::string prefix = "failed to build client out of request input: invalid config: ";
  auto with = [](json extra) {
    json in = {{"requestUrl", "http://127.0.0.1:1/"}, {"requestMethod", "GET"}};
    for (auto& [k, v] : extra.items()) in[k] = v;
    return call(in);
  };
  expect_error(with({{"withProtocolRacing", true}, {"disableHttp3", true}}), "invalid_input",
               prefix + "HTTP/3 racing cannot be enabled when HTTP/3 is disabled");
  expect_error(
      with(
          {{"withProtocolRacing", true}, {"forceHttp1", true}, {"disableIPV4", true}, {"disableIPV6", true}}),
      "invalid_input", prefix + "HTTP/3 racing cannot be enabled when HTTP/1 is forced");
  expect_error(with({{"disableIPV4", true}, {"disableIPV6", true}}), "invalid_input",
               prefix + "cannot disable both IPv4 and IPv6");
  expect_error(with({{"insecureSkipVerify", true}, {"certificatePinningHosts", {{"127.0.0.1", {"AAAA"}}}}}),
               "invalid_input", prefix + "certificate pinning cannot be used with insecure skip verify");
  // No pins at all is no conflict: the request goes on (and fails to connect).
  json r = with({{"insecureSkipVerify", true}, {"certificatePinningHosts", json::object()}});
  CHECK(r["errorCode"] == "connect");
}
