// request() end to end against the loopback servers: what a binding sees.
#include <filesystem>
#include <fstream>
#include <map>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::h1_servers;
using itest::json;

namespace {

json get(const std::string& url, json extra = json::object()) {
  json in = {{"requestUrl", url}, {"requestMethod", "GET"}, {"timeoutSeconds", 10}};
  for (auto& [k, v] : extra.items()) in[k] = v;
  return call(in);
}

}  // namespace

TEST_CASE("a plain GET answers in upstream's response shape", "[h1]") {
  json r = get(h1_servers().http + "/echo?x=1");
  REQUIRE(r["status"] == 200);
  CHECK(r["usedProtocol"] == "HTTP/1.1");
  CHECK(r["target"] == h1_servers().http + "/echo?x=1");
  CHECK(r["headers"]["Content-Type"] == json::array({"application/json"}));
  CHECK(r["cookies"].is_object());
  CHECK(r["id"].get<std::string>().size() == 36);
  CHECK_FALSE(r.contains("sessionId"));
  json echo = json::parse(r["body"].get<std::string>());
  CHECK(echo["method"] == "GET");
  CHECK(echo["url"] == "/echo?x=1");
}

TEST_CASE("headers go out in headerOrder, then the rest sorted, as fhttp writes them", "[h1]") {
  json r = get(h1_servers().raw + "/raw/echo-head",
               {{"headers",
                 {{"user-agent", "ua/1"},
                  {"accept", "*/*"},
                  {"X-Zeta", "z"},
                  {"X-Alpha", "a"},
                  {"accept-language", "en"}}},
                {"headerOrder", {"accept-language", "user-agent", "accept"}}});
  REQUIRE(r["status"] == 200);
  std::string head = r["body"];
  std::string expected =
      "GET /raw/echo-head HTTP/1.1\r\n"
      "accept-language: en\r\n"
      "user-agent: ua/1\r\n"
      "accept: */*\r\n"
      "Host: 127.0.0.1:" +
      h1_servers().raw.substr(h1_servers().raw.rfind(':') + 1) +
      "\r\n"
      "X-Alpha: a\r\n"
      "X-Zeta: z\r\n"
      "Accept-Encoding: gzip, deflate, br\r\n"
      "\r\n";
  CHECK(head == expected);
}

TEST_CASE("POST sends the body with Content-Length; isByteRequest decodes base64", "[h1]") {
  json r = call({{"requestUrl", h1_servers().http + "/echo"},
                 {"requestMethod", "POST"},
                 {"requestBody", "a=1&b=2"},
                 {"headers", {{"content-type", "application/x-www-form-urlencoded"}}}});
  REQUIRE(r["status"] == 200);
  json echo = json::parse(r["body"].get<std::string>());
  CHECK(itest::base64_decode(echo["body"]) == "a=1&b=2");
  r = call({{"requestUrl", h1_servers().http + "/echo"},
            {"requestMethod", "PUT"},
            {"requestBody", "AAEC/w=="},
            {"isByteRequest", true}});
  echo = json::parse(r["body"].get<std::string>());
  CHECK(itest::base64_decode(echo["body"]) == std::string("\x00\x01\x02\xff", 4));
  r = call({{"requestUrl", h1_servers().http + "/echo"},
            {"requestMethod", "POST"},
            {"requestBody", "not base64!"},
            {"isByteRequest", true}});
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "invalid_input");
  CHECK(r["body"].get<std::string>().starts_with(
      "failed to base64 decode request body: illegal base64 data at input byte"));
}

TEST_CASE("every method token goes out as given", "[h1]") {
  for (const char* m : {"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "PROPFIND"}) {
    json r = call({{"requestUrl", h1_servers().http + "/echo"}, {"requestMethod", m}});
    REQUIRE(r["status"] == 200);
    if (std::string(m) != "HEAD") {
      CHECK(json::parse(r["body"].get<std::string>())["method"] == m);
    } else {
      CHECK(r["body"] == "");
    }
  }
}

TEST_CASE("sessions keep cookies across requests and report them", "[h1][cookies]") {
  std::string sid = "cookie-session-1";
  json r = get(h1_servers().http + "/set-cookie?a=1&b=two", {{"sessionId", sid}});
  REQUIRE(r["status"] == 200);
  CHECK(r["sessionId"] == sid);
  CHECK(r["cookies"] == json({{"a", "1"}, {"b", "two"}}));
  r = get(h1_servers().http + "/cookies", {{"sessionId", sid}});
  CHECK(r["body"] == "a=1; b=two");
  json c = itest::call_fn(itest::lib().getCookiesFromSession,
                          {{"sessionId", sid}, {"url", h1_servers().http + "/"}});
  REQUIRE(c["cookies"].size() == 2);
  CHECK(c["cookies"][0]["name"] == "a");
  c = itest::call_fn(itest::lib().addCookiesToSession,
                     {{"sessionId", sid},
                      {"url", h1_servers().http + "/"},
                      {"cookies", {{{"name", "added"}, {"value", "yes"}, {"expires", nullptr}}}}});
  CHECK(c["cookies"].size() == 3);
  r = get(h1_servers().http + "/cookies", {{"sessionId", sid}});
  CHECK(r["body"] == "a=1; b=two; added=yes");
  json d = itest::call_fn(itest::lib().destroySession, {{"sessionId", sid}});
  CHECK(d["success"] == true);
  r = get(h1_servers().http + "/cookies", {{"sessionId", sid}});
  CHECK(r["body"] == "");
}

TEST_CASE("requestCookies reach the server, also with expires null or 0", "[h1][cookies]") {
  json cookies = {{{"name", "n1"}, {"value", "v1"}, {"expires", nullptr}},
                  {{"name", "n2"}, {"value", "v2"}, {"expires", 0}},
                  {{"name", "n3"}, {"value", "v3"}}};
  json r = get(h1_servers().http + "/cookies", {{"requestCookies", cookies}});
  CHECK(r["body"] == "n1=v1; n2=v2; n3=v3");
  r = get(h1_servers().http + "/cookies", {{"requestCookies", cookies}, {"withoutCookieJar", true}});
  CHECK(r["body"] == "n1=v1; n2=v2; n3=v3");
  CHECK(r["cookies"] == json::object());
}

TEST_CASE("redirects: not followed by default, followed when asked, with Go's method rules",
          "[h1][redirect]") {
  json r = get(h1_servers().http + "/redirect/2");
  CHECK(r["status"] == 302);
  CHECK(r["headers"]["Location"][0] == "/redirect/1?code=302");
  r = get(h1_servers().http + "/redirect/3", {{"followRedirects", true}});
  CHECK(r["status"] == 200);
  CHECK(r["target"] == h1_servers().http + "/redirect/0?code=302");
  // 302 turns POST into GET without a body; 307 keeps both.
  json post = {{"requestUrl", h1_servers().http + "/redirect/1?code=302"},
               {"requestMethod", "POST"},
               {"requestBody", "payload"},
               {"followRedirects", true}};
  json echo = json::parse(call(post)["body"].get<std::string>());
  CHECK(echo["method"] == "GET");
  CHECK(echo["body"] == "");
  post["requestUrl"] = h1_servers().http + "/redirect/1?code=307";
  echo = json::parse(call(post)["body"].get<std::string>());
  CHECK(echo["method"] == "POST");
  CHECK(echo["body"] == "payload");
  post["requestUrl"] = h1_servers().http + "/redirect/1?code=308";
  echo = json::parse(call(post)["body"].get<std::string>());
  CHECK(echo["method"] == "POST");
}

TEST_CASE("a redirect's Set-Cookie is stored and sent on the next hop", "[h1][redirect]") {
  json r = get(h1_servers().http + "/redirect-set-cookie", {{"followRedirects", true}});
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "hop=1");
  CHECK(r["cookies"]["hop"] == "1");
}

TEST_CASE("a redirect loop stops after 10 redirects", "[h1][redirect][bad]") {
  // As upstream's library answers: 10 requests at most (9 redirects
  // followed), and the error names the Location as the server wrote it.
  json r = get(h1_servers().http + "/loop", {{"followRedirects", true}});
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "redirect_limit");
  CHECK(r["body"] == "failed to do request: Get \"/loop\": stopped after 10 redirects");
  CHECK(get(h1_servers().http + "/redirect/9", {{"followRedirects", true}})["status"] == 200);
  json ten = get(h1_servers().http + "/redirect/10", {{"followRedirects", true}});
  CHECK(ten["status"] == 0);
  CHECK(ten["body"] == "failed to do request: Get \"/redirect/0?code=302\": stopped after 10 redirects");
}

TEST_CASE("gzip, deflate (zlib and raw), br and zstd bodies are decoded", "[h1][decode]") {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "hello compressed world ";
  for (const char* path : {"/gzip", "/deflate", "/deflate-raw", "/br", "/zstd"}) {
    INFO(path);
    json r = get(h1_servers().http + path);
    REQUIRE(r["status"] == 200);
    CHECK(r["body"] == text);
    // The transport asked for compression, so it drops these as fhttp does.
    CHECK_FALSE(r["headers"].contains("Content-Encoding"));
    CHECK_FALSE(r["headers"].contains("Content-Length"));
  }
  // A caller's own Accept-Encoding without gzip: still decoded, headers kept.
  json r = get(h1_servers().http + "/br", {{"headers", {{"accept-encoding", "br"}}}});
  CHECK(r["body"] == text);
  CHECK(r["headers"]["Content-Encoding"][0] == "br");
}

TEST_CASE("a Content-Encoding that does not decode is a status-0 error", "[h1][decode][bad]") {
  json r = get(h1_servers().http + "/bad-gzip");
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "decode");
  CHECK(r["body"].get<std::string>().find("gzip") != std::string::npos);
}

TEST_CASE("text bodies are converted to UTF-8 from their charset", "[h1][charset]") {
  CHECK(get(h1_servers().http + "/latin1")["body"] == "caf\xc3\xa9");
  json r = get(h1_servers().http + "/shift_jis");
  CHECK(r["body"] == "<meta charset=\"shift_jis\">\xe6\x97\xa5\xe6\x9c\xac");
}

TEST_CASE("isByteResponse gives a data URL with the sniffed type", "[h1]") {
  json r = get(h1_servers().http + "/png", {{"isByteResponse", true}});
  CHECK(r["body"] == "data:image/png;base64,iVBORw0KGgoAAAAA");
}

TEST_CASE("chunked, close-delimited, 1xx, 204 and multi-value headers", "[h1]") {
  CHECK(get(h1_servers().http + "/chunked")["body"] == "chunk one,chunk two,end");
  json r = get(h1_servers().raw + "/raw/http10");
  CHECK(r["body"] == "close-delimited body");
  CHECK(r["usedProtocol"] == "HTTP/1.0");
  r = get(h1_servers().raw + "/raw/1xx");
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "final");
  r = get(h1_servers().raw + "/raw/204");
  CHECK(r["status"] == 204);
  CHECK(r["headers"]["X-A"][0] == "b");
  r = get(h1_servers().raw + "/raw/multi-header");
  CHECK(r["headers"]["X-Custom-Thing"] == json::array({"one", "two"}));
  CHECK(r["headers"]["Content-Type"][0] == "text/plain");
}

TEST_CASE("a body larger than Content-Length is cut at the length", "[h1][bad]") {
  json r = get(h1_servers().raw + "/raw/extra-body");
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "hello");
}

TEST_CASE("streamOutputPath writes the body (and EOF symbol) to the file", "[h1]") {
  auto path = std::filesystem::temp_directory_path() / "tlsc-stream-test.txt";
  std::filesystem::remove(path);
  json r = get(h1_servers().http + "/chunked", {{"streamOutputPath", path.string()},
                                                {"streamOutputBlockSize", 4},
                                                {"streamOutputEOFSymbol", "<EOF>"}});
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "");
  std::ifstream f(path);
  std::string content((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  CHECK(content == "chunk one,chunk two,end<EOF>");
  std::filesystem::remove(path);
  // A file that cannot be opened: the write (off the loop thread) fails.
  r = get(h1_servers().http + "/chunked", {{"streamOutputPath", "/nonexistent-dir/x.txt"}});
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "file");
  CHECK(r["errorState"] == "writing_output");
  CHECK(r["body"].get<std::string>().starts_with("open /nonexistent-dir/x.txt: "));
}

TEST_CASE("streamOutputPath: an empty body, a BOM, legacy charsets", "[h1]") {
  auto path = std::filesystem::temp_directory_path() / "tlsc-stream-test-cases.txt";
  auto read_file = [&] {
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  std::filesystem::remove(path);
  // No body: upstream opens no file (it reads one byte first).
  json r = get(h1_servers().http + "/status/204",
               {{"streamOutputPath", path.string()}, {"streamOutputEOFSymbol", "<EOF>"}});
  CHECK(r["status"] == 204);
  CHECK_FALSE(std::filesystem::exists(path));
  // Converted as request() converts the body held in memory (a UTF-8 BOM
  // stays, as Go's UTF-8 decoder keeps it).
  for (const char* route : {"/bom", "/latin1", "/shift_jis"}) {
    json whole = get(h1_servers().http + route);
    REQUIRE(whole["status"] == 200);
    r = get(h1_servers().http + route, {{"streamOutputPath", path.string()}, {"streamOutputBlockSize", 1}});
    CHECK(r["status"] == 200);
    CHECK(read_file() == whole["body"].get<std::string>());
    std::filesystem::remove(path);
  }
}

TEST_CASE("large bodies arrive whole", "[h1]") {
  json r = get(h1_servers().http + "/big/5000000");
  REQUIRE(r["status"] == 200);
  CHECK(r["body"].get<std::string>().size() == 5000000);
}

TEST_CASE("localAddress binds the socket; disableIPV4/6 filter addresses", "[h1][net]") {
  json r = get(h1_servers().http + "/echo", {{"localAddress", "127.0.0.2:0"}});
  REQUIRE(r["status"] == 200);
  CHECK(json::parse(r["body"].get<std::string>())["remote"] == "127.0.0.2");
  r = get(h1_servers().http + "/echo", {{"localAddress", "127.0.0.3"}});
  CHECK(json::parse(r["body"].get<std::string>())["remote"] == "127.0.0.3");
  r = get(h1_servers().http + "/echo", {{"localAddress", "not-an-address"}});
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "invalid_input");
  CHECK(r["body"].get<std::string>().find(
            "failed to resolve tcp address from local not-an-address address") != std::string::npos);
  r = get(h1_servers().http + "/echo", {{"disableIPV4", true}});
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "dns");
  CHECK(r["body"].get<std::string>().find("no suitable address") != std::string::npos);
  // localhost is 127.0.0.1 only here: with IPv6 off it still works.
  std::string port = h1_servers().http.substr(h1_servers().http.rfind(':') + 1);
  r = get("http://localhost:" + port + "/echo", {{"disableIPV6", true}});
  CHECK(r["status"] == 200);
}

TEST_CASE("requestHostOverride sets the Host header", "[h1]") {
  json r = get(h1_servers().raw + "/raw/echo-head",
               {{"requestHostOverride", "example.test"}, {"headers", {{"user-agent", "x"}}}});
  CHECK(r["body"].get<std::string>().find("\r\nHost: example.test\r\n") != std::string::npos);
}

TEST_CASE("credentials in the URL become Basic auth, unless the request has an Authorization", "[h1]") {
  const std::string raw = h1_servers().raw;  // http://127.0.0.1:port
  const std::string with_user = "http://us%65r:p%40ss:x@" + raw.substr(7) + "/raw/echo-head";
  json r = get(with_user);
  // base64("user:p@ss:x")
  CHECK(r["body"].get<std::string>().find("\r\nAuthorization: Basic dXNlcjpwQHNzOng=\r\n") !=
        std::string::npos);
  r = get("http://solo@" + raw.substr(7) + "/raw/echo-head");
  CHECK(r["body"].get<std::string>().find("\r\nAuthorization: Basic c29sbzo=\r\n") != std::string::npos);
  r = get(with_user, {{"headers", {{"Authorization", "Bearer t"}}}});
  const std::string head = r["body"];
  CHECK(head.find("\r\nAuthorization: Bearer t\r\n") != std::string::npos);
  CHECK(head.find("Basic") == std::string::npos);
}

TEST_CASE("a requestHostOverride with CR or LF is refused before anything is sent (HTTP/1.1)", "[h1]") {
  json r = get(h1_servers().raw + "/raw/echo-head", {{"requestHostOverride", "127.0.0.1\r\nx-injected: 1"}});
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "invalid_input");
  CHECK(r["body"].get<std::string>().find("http: invalid Host header") != std::string::npos);
}

TEST_CASE("an empty body with a Content-Encoding is an empty body", "[h1][decode]") {
  json r = call({{"requestUrl", h1_servers().http + "/br"}, {"requestMethod", "HEAD"}});
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "");
}

TEST_CASE("redirects drop Authorization and Cookie across hosts, keep them on the same host, set Referer",
          "[h1][redirect]") {
  std::string port = h1_servers().http.substr(h1_servers().http.rfind(':') + 1);
  auto hop = [&](const std::string& target) {
    json r = get(
        h1_servers().http + "/redirect-to?code=302&url=" + target,
        {{"followRedirects", true}, {"headers", {{"Authorization", "Bearer secret"}, {"Cookie", "c=1"}}}});
    REQUIRE(r["status"] == 200);
    json echo = json::parse(r["body"].get<std::string>());
    std::map<std::string, std::string> h;
    for (size_t i = 0; i + 1 < echo["rawHeaders"].size(); i += 2)
      h[echo["rawHeaders"][i]] = echo["rawHeaders"][i + 1];
    return h;
  };
  auto same = hop("http://127.0.0.1:" + port + "/echo");
  CHECK(same["Authorization"] == "Bearer secret");
  CHECK(same["Cookie"] == "c=1");
  CHECK(same["Referer"].starts_with(h1_servers().http + "/redirect-to"));
  auto other = hop("http://localhost:" + port + "/echo");
  CHECK(other.count("Authorization") == 0);
  CHECK(other.count("Cookie") == 0);
}

TEST_CASE("URLs as Go parses them: a zoned IPv6 literal is connected to, a confusing userinfo refused",
          "[h1][url]") {
  const std::string port = std::to_string(h1_servers().http6_port);
  // The zone names the loopback interface: the connection goes to ::1 on it,
  // the Host header leaves it out (Go's removeZone), the target keeps it.
#ifdef __APPLE__
  const std::string loopback = "lo0";
#else
  const std::string loopback = "lo";
#endif
  json r = get("http://[::1%25" + loopback + "]:" + port + "/echo");
  REQUIRE(r["status"] == 200);
  CHECK(r["target"] == "http://[::1%25" + loopback + "]:" + port + "/echo");
  json seen = json::parse(r["body"].get<std::string>());
  CHECK(seen["remote"] == "::1");
  std::string host;
  for (size_t i = 0; i + 1 < seen["rawHeaders"].size(); i += 2) {
    if (seen["rawHeaders"][i] == "Host") host = seen["rawHeaders"][i + 1];
  }
  CHECK(host == "[::1]:" + port);
  // Go's parser refuses what a browser's would read as another host.
  const std::string confusing = "http://127.0.0.1:1\\@[::1]:" + port + "/echo";
  json bad = get(confusing);
  CHECK(bad["status"] == 0);
  CHECK(bad["errorCode"] == "invalid_input");
  CHECK(bad["body"] ==
        "failed to create request object: parse \"" + confusing + "\": net/url: invalid userinfo");
  json escaped = get("http://%31%32%37.0.0.1:" + port + "/");
  CHECK(escaped["body"] == "failed to create request object: parse \"http://%31%32%37.0.0.1:" + port +
                               "/\": invalid URL escape \"%31\"");
}
