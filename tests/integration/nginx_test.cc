// nginx as a real HTTP/1.1 peer: keep-alive reuse, gzip, HEAD, 404.
#include <memory>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::json;

namespace {

const std::string& nginx_url() {
  static std::unique_ptr<itest::ChildServer> child;
  static const std::string url = [] {
    child = std::make_unique<itest::ChildServer>(
        std::vector<std::string>{"bash", std::string(TLSC_SOURCE_DIR) + "/tests/servers/nginx.sh"});
    return "http://127.0.0.1:" + std::to_string(child->info()["port"].get<int>());
  }();
  return url;
}

json req(const std::string& method, const std::string& path, json extra = json::object()) {
  json in = {{"requestUrl", nginx_url() + path}, {"requestMethod", method}, {"timeoutSeconds", 10}};
  for (auto& [k, v] : extra.items()) in[k] = v;
  return call(in);
}

}  // namespace

TEST_CASE("nginx: a session reuses its keep-alive connection", "[nginx]") {
  json a = req("GET", "/index.html", {{"sessionId", "nginx-keepalive"}});
  json b = req("GET", "/index.html", {{"sessionId", "nginx-keepalive"}});
  REQUIRE(a["status"] == 200);
  CHECK(a["body"] == "hello from nginx\n");
  CHECK(a["headers"]["X-Conn"] == b["headers"]["X-Conn"]);
  CHECK(a["headers"]["Server"][0].get<std::string>().starts_with("nginx"));
  // Without a session every request has a client of its own.
  json c = req("GET", "/index.html");
  json d = req("GET", "/index.html");
  CHECK(c["headers"]["X-Conn"] != d["headers"]["X-Conn"]);
  // disableKeepAlives sends Connection: close and never reuses.
  json e = req("GET", "/index.html",
               {{"sessionId", "nginx-close"}, {"transportOptions", {{"disableKeepAlives", true}}}});
  json f = req("GET", "/index.html", {{"sessionId", "nginx-close"}});
  CHECK(e["headers"]["X-Conn"] != f["headers"]["X-Conn"]);
}

TEST_CASE("nginx: gzip is asked for and decoded; disableCompression leaves it off", "[nginx]") {
  json r = req("GET", "/big.txt");
  REQUIRE(r["status"] == 200);
  CHECK(r["body"].get<std::string>().size() == 26 * 2000);
  CHECK_FALSE(r["headers"].contains("Content-Encoding"));
  r = req("GET", "/big.txt", {{"headers", {{"accept-encoding", "gzip"}}}});
  CHECK(r["body"].get<std::string>().size() == 26 * 2000);
  r = req("GET", "/big.txt", {{"transportOptions", {{"disableCompression", true}}}});
  CHECK(r["body"].get<std::string>().size() == 26 * 2000);
  CHECK(r["headers"]["Content-Length"][0] == std::to_string(26 * 2000));
}

TEST_CASE("nginx: HEAD, 404, and the default User-Agent", "[nginx]") {
  json r = req("HEAD", "/index.html");
  CHECK(r["status"] == 200);
  CHECK(r["body"] == "");
  CHECK(r["headers"]["Content-Length"][0] == "17");
  CHECK(req("GET", "/missing")["status"] == 404);
  CHECK(req("GET", "/echo-method")["body"] == "GET Go-http-client/1.1");
}
