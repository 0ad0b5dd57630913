// Requests through real proxies on loopback: squid and tinyproxy (CONNECT,
// with and without Basic auth), Dante (SOCKS4, SOCKS5), microsocks (SOCKS5
// with user/password), the tests' own HTTPS CONNECT proxy and SOCKS4a
// proxy, and scripted proxies that fail on purpose. Every target is
// reached through a tunnel, as upstream does, http:// ones included.
#include <unistd.h>  // getpid

#include <chrono>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::cert_dir;
using itest::json;

namespace {

const std::string kProxies = std::string(TLSC_SOURCE_DIR) + "/tests/servers/proxies/";
const std::string kServers = std::string(TLSC_SOURCE_DIR) + "/tests/servers/";

struct Server {
  std::unique_ptr<itest::ChildServer> child;
  int port = 0;
  std::string addr() const { return "127.0.0.1:" + std::to_string(port); }
};

Server start(std::vector<std::string> argv) {
  itest::lib();  // the test PKI and SSL_CERT_FILE come first
  Server s;
  s.child = std::make_unique<itest::ChildServer>(std::move(argv));
  s.port = s.child->info()["port"].get<int>();
  REQUIRE(s.port > 0);
  return s;
}

// The targets: nginx over plain HTTP and over TLS; both name the
// connection they answered on in X-Conn.
const Server& http_target() {
  static Server s = start({"bash", kServers + "nginx.sh"});
  return s;
}
const Server& https_target() {
  static Server s = start({"bash", kServers + "nginx_tls.sh", "TLSv1.2 TLSv1.3",
                           cert_dir() + "/good.chain.pem", cert_dir() + "/good.key"});
  return s;
}
std::string http_url() { return "http://" + http_target().addr() + "/index.html"; }
std::string https_url() { return "https://" + https_target().addr() + "/index.html"; }

json get(const std::string& url, const std::string& proxy, json extra = json::object()) {
  json in = {{"requestUrl", url},
             {"requestMethod", "GET"},
             {"timeoutSeconds", 10},
             {"tlsClientIdentifier", "chrome_133"}};
  if (!proxy.empty()) in["proxyUrl"] = proxy;
  for (auto& [k, v] : extra.items()) in[k] = v;
  return call(in);
}

std::string body(const json& r) { return r["body"].get<std::string>(); }

// Both targets answer through the proxy.
void check_both_targets(const std::string& proxy) {
  INFO("proxy " << proxy);
  json a = get(http_url(), proxy);
  INFO(body(a));
  CHECK(a["status"] == 200);
  CHECK(body(a) == "hello from nginx\n");
  json b = get(https_url(), proxy);
  INFO(body(b));
  CHECK(b["status"] == 200);
  CHECK(body(b) == "hello from nginx over tls\n");
  CHECK(b["usedProtocol"] == "HTTP/1.1");
}

// The status-0 text for a GET of url that failed with `why`.
std::string failure(const std::string& url, const std::string& why) {
  return "failed to do request: Get \"" + url + "\": " + why;
}

// A failure of that kind with that text.
void check_failure(const json& r, const std::string& code, const std::string& text) {
  INFO(r.dump());
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == code);
  CHECK(r["body"] == text);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("proxy: squid without and with Basic auth", "[proxy]") {
  Server open = start({"bash", kProxies + "squid.sh"});
  check_both_targets("http://" + open.addr());
  Server authed = start({"bash", kProxies + "squid.sh", "alice", "s3cret"});
  check_both_targets("http://alice:s3cret@" + authed.addr());
  json r = get(https_url(), "http://" + authed.addr());
  check_failure(r, "proxy_auth",
                failure(https_url(), "Proxy responded with non 200 code: 407 Proxy Authentication Required"));
  r = get(http_url(), "http://alice:wrong@" + authed.addr());
  check_failure(r, "proxy_auth",
                failure(http_url(), "Proxy responded with non 200 code: 407 Proxy Authentication Required"));
}

TEST_CASE("proxy: tinyproxy without and with Basic auth", "[proxy]") {
  Server open = start({"bash", kProxies + "tinyproxy.sh"});
  check_both_targets("http://" + open.addr());
  Server authed = start({"bash", kProxies + "tinyproxy.sh", "alice", "s3cret"});
  check_both_targets("http://alice:s3cret@" + authed.addr());
  // tinyproxy answers bad proxy credentials with 401, not 407.
  json r = get(https_url(), "http://alice:nope@" + authed.addr());
  check_failure(r, "proxy", failure(https_url(), "Proxy responded with non 200 code: 401 Unauthorized"));
}

TEST_CASE("proxy: an HTTPS proxy (TLS to the proxy, CONNECT inside, TLS to the target)", "[proxy]") {
  std::string log = "/tmp/tlsc-https-proxy-" + std::to_string(getpid()) + ".log";
  std::remove(log.c_str());
  Server p = start({"python3", kProxies + "connect_proxy.py", "--tls", cert_dir() + "/good.chain.pem",
                    cert_dir() + "/good.key", "--auth", "alice:s3cret", "--log", log});
  check_both_targets("https://alice:s3cret@" + p.addr());
  // The proxy's name is verified (localhost is in its certificate too).
  check_both_targets("https://alice:s3cret@localhost:" + std::to_string(p.port));
  // connectHeaders go with CONNECT, after the credentials of the URL.
  json r =
      get(https_url(), "https://alice:s3cret@" + p.addr(), {{"connectHeaders", {{"X-Tunnel", {"yes"}}}}});
  INFO(body(r));
  CHECK(r["status"] == 200);
  std::string heads = read_file(log);
  CHECK(heads.find("CONNECT " + https_target().addr() + " HTTP/1.1\r\nHost: " + https_target().addr() +
                   "\r\nProxy-Authorization: Basic YWxpY2U6czNjcmV0\r\nUser-Agent: Go-http-client/1.1\r\n"
                   "X-Tunnel: yes\r\n\r\n") != std::string::npos);
  r = get(https_url(), "https://" + p.addr());
  check_failure(r, "proxy_auth",
                failure(https_url(), "Proxy responded with non 200 code: 407 Proxy Authentication Required"));
  std::remove(log.c_str());

  // A proxy whose certificate does not name it fails verification, even
  // with insecureSkipVerify (that is for the target, as upstream).
  Server wrong = start({"python3", kProxies + "connect_proxy.py", "--tls",
                        cert_dir() + "/wronghost.chain.pem", cert_dir() + "/wronghost.key"});
  r = get(https_url(), "https://" + wrong.addr(), {{"insecureSkipVerify", true}});
  INFO(body(r));
  CHECK(r["errorCode"] == "tls_verify");
  CHECK(body(r).starts_with(failure(https_url(), "tls: failed to verify certificate: x509: ")));
}

TEST_CASE("proxy: Dante for SOCKS5 and SOCKS4, and its refusals", "[proxy]") {
  Server blocked_target = start({"python3", kProxies + "bad_proxy.py", "drop"});  // any listening port
  Server d = start({"bash", kProxies + "danted.sh", std::to_string(blocked_target.port)});
  check_both_targets("socks5://" + d.addr());
  check_both_targets("socks5h://" + d.addr());
  check_both_targets("socks4://" + d.addr());
  // SOCKS4 resolves the target here: localhost comes from /etc/hosts.
  json r =
      get("http://localhost:" + std::to_string(http_target().port) + "/index.html", "socks4://" + d.addr());
  CHECK(r["status"] == 200);

  std::string blocked = "http://127.0.0.1:" + std::to_string(blocked_target.port) + "/";
  r = get(blocked, "socks5://" + d.addr());
  check_failure(r, "proxy",
                failure(blocked, "socks connect tcp " + d.addr() +
                                     "->127.0.0.1:" + std::to_string(blocked_target.port) +
                                     ": unknown error connection not allowed by ruleset"));
  r = get(blocked, "socks4://" + d.addr());
  check_failure(r, "proxy", failure(blocked, "connection to remote host was rejected"));
  // Nothing listens on port 1: the proxy says so.
  std::string closed = "http://127.0.0.1:1/";
  r = get(closed, "socks5://" + d.addr());
  check_failure(
      r, "proxy",
      failure(closed, "socks connect tcp " + d.addr() + "->127.0.0.1:1: unknown error connection refused"));
}

TEST_CASE("proxy: microsocks with user and password", "[proxy]") {
  Server m = start({"bash", kProxies + "microsocks.sh", "bob", "pw"});
  check_both_targets("socks5://bob:pw@" + m.addr());
  std::string prefix = "socks connect tcp " + m.addr() + "->" + https_target().addr() + ": ";
  json r = get(https_url(), "socks5://bob:wrong@" + m.addr());
  check_failure(r, "proxy_auth", failure(https_url(), prefix + "username/password authentication failed"));
  r = get(https_url(), "socks5://" + m.addr());
  check_failure(r, "proxy_auth", failure(https_url(), prefix + "no acceptable authentication methods"));
}

TEST_CASE("proxy: SOCKS4a sends the name for the proxy to resolve", "[proxy]") {
  Server p = start({"python3", kProxies + "socks4a_proxy.py"});
  std::string url = "https://localhost:" + std::to_string(https_target().port) + "/index.html";
  json r = get(url, "socks4a://" + p.addr());
  INFO(body(r));
  CHECK(r["status"] == 200);
  check_both_targets("socks4a://" + p.addr());
}

TEST_CASE("proxy: failures each have their own text", "[proxy]") {
  const std::string url = https_url();
  SECTION("nothing listens") {
    Server gone = start({"python3", kProxies + "bad_proxy.py", "drop"});
    std::string addr = gone.addr();
    gone.child.reset();  // the port is free again
    check_failure(get(url, "http://" + addr), "connect",
                  failure(url, "dial tcp " + addr + ": connect: connection refused"));
    check_failure(get(url, "socks5://" + addr), "connect",
                  failure(url, "socks connect tcp " + addr + "->" + https_target().addr() + ": dial tcp " +
                                   addr + ": connect: connection refused"));
    check_failure(get(url, "socks4://" + addr), "connect",
                  failure(url, "socks4 dial: dial tcp " + addr + ": connect: connection refused"));
  }
  SECTION("the proxy hangs up during CONNECT") {
    Server p = start({"python3", kProxies + "bad_proxy.py", "drop"});
    check_failure(get(url, "http://" + p.addr()), "proxy", failure(url, "unexpected EOF"));
  }
  SECTION("the proxy refuses CONNECT") {
    Server p = start({"python3", kProxies + "bad_proxy.py", "status", "HTTP/1.1 403 Forbidden"});
    check_failure(get(url, "http://" + p.addr()), "proxy",
                  failure(url, "Proxy responded with non 200 code: 403 Forbidden"));
  }
  SECTION("the proxy does not speak HTTP") {
    Server p = start({"python3", kProxies + "bad_proxy.py", "garbage"});
    check_failure(get(url, "http://" + p.addr()), "proxy",
                  failure(url, "malformed HTTP status code \"this\""));
  }
  SECTION("SOCKS5 failure codes") {
    std::string target = https_target().addr();
    for (auto [code, text] : std::vector<std::pair<int, std::string>>{{1, "general SOCKS server failure"},
                                                                      {3, "network unreachable"},
                                                                      {4, "host unreachable"},
                                                                      {6, "TTL expired"},
                                                                      {7, "command not supported"},
                                                                      {8, "address type not supported"}}) {
      Server p = start({"python3", kProxies + "bad_proxy.py", "socks5-code", std::to_string(code)});
      check_failure(
          get(url, "socks5://" + p.addr()), "proxy",
          failure(url, "socks connect tcp " + p.addr() + "->" + target + ": unknown error " + text));
    }
    Server drop = start({"python3", kProxies + "bad_proxy.py", "socks5-drop"});
    check_failure(get(url, "socks5://" + drop.addr()), "proxy",
                  failure(url, "socks connect tcp " + drop.addr() + "->" + target + ": EOF"));
  }
  SECTION("SOCKS4 ident") {
    Server p = start({"python3", kProxies + "bad_proxy.py", "socks4-code", "92"});
    check_failure(get(url, "socks4a://" + p.addr()), "proxy", failure(url, "valid ident required"));
  }
  SECTION("a SOCKS proxy URL without a port") {
    check_failure(get(url, "socks5://127.0.0.1"), "invalid_input",
                  failure(url, "socks connect tcp: dial tcp: address 127.0.0.1: missing port in address"));
  }
}

TEST_CASE("proxy: bad proxy URLs fail before any connection, in upstream's words", "[proxy]") {
  const std::string pre = "failed to build client out of request input: ";
  check_failure(get(http_url(), "127.0.0.1:3128"), "invalid_input",
                pre + "parse \"127.0.0.1:3128\": first path segment in URL cannot contain colon");
  check_failure(get(http_url(), "localhost:3128"), "invalid_input",
                pre +
                    "invalid url `localhost:3128`, make sure to specify full url like "
                    "https://username:password@hostname.com:443/");
  check_failure(get(http_url(), "ftp://127.0.0.1:21"), "invalid_input", pre + "scheme ftp is not supported");
  // An existing session keeps its proxy when a request names a bad one
  // (upstream's SetProxy rolls back).
  json ok = get(http_url(), "", {{"sessionId", "proxy-bad-url"}});
  CHECK(ok["status"] == 200);
  json again = get(http_url(), "ftp://127.0.0.1:21", {{"sessionId", "proxy-bad-url"}});
  CHECK(again["status"] == 200);
  call({{"sessionId", "proxy-bad-url"}, {"requestUrl", ""}});  // no-op
}

TEST_CASE("proxy: a session's proxy changes with the request; rotation opens a connection per request",
          "[proxy]") {
  std::string log_a = "/tmp/tlsc-proxy-a-" + std::to_string(getpid()) + ".log";
  std::string log_b = "/tmp/tlsc-proxy-b-" + std::to_string(getpid()) + ".log";
  std::remove(log_a.c_str());
  std::remove(log_b.c_str());
  Server a = start({"python3", kProxies + "connect_proxy.py", "--log", log_a});
  Server b = start({"python3", kProxies + "connect_proxy.py", "--log", log_b});
  const std::string sid = "proxy-change";
  json r1 = get(https_url(), "http://" + a.addr(), {{"sessionId", sid}});
  json r2 = get(https_url(), "http://" + a.addr(), {{"sessionId", sid}});
  REQUIRE(r1["status"] == 200);
  CHECK(r1["headers"]["X-Conn"] == r2["headers"]["X-Conn"]);  // one tunnel, reused
  json r3 = get(https_url(), "http://" + b.addr(), {{"sessionId", sid}});
  REQUIRE(r3["status"] == 200);
  CHECK(r3["headers"]["X-Conn"] != r2["headers"]["X-Conn"]);  // never through A's tunnel
  json r4 = get(https_url(), "", {{"sessionId", sid}});       // no proxyUrl: keeps B
  CHECK(r4["headers"]["X-Conn"] == r3["headers"]["X-Conn"]);
  CHECK(count(read_file(log_a), "CONNECT ") == 1);
  CHECK(count(read_file(log_b), "CONNECT ") == 1);
  call({{"sessionId", sid}, {"requestUrl", https_url()}, {"requestMethod", "GET"}, {"proxyUrl", ""}});
  CHECK(count(read_file(log_b), "CONNECT ") == 1);  // "" means direct

  const std::string rot = "proxy-rotating";
  std::set<std::string> conns;
  for (int i = 0; i < 3; ++i) {
    json r = get(http_url(), "http://" + a.addr(), {{"sessionId", rot}, {"isRotatingProxy", true}});
    REQUIRE(r["status"] == 200);
    conns.insert(r["headers"]["X-Conn"][0].get<std::string>());
  }
  CHECK(conns.size() == 3);
  CHECK(count(read_file(log_a), "CONNECT ") == 1 + 3);

  // TLS tickets: a session resumes through the same proxy, but never
  // across a rotation (upstream starts a new ticket cache per transport).
  auto reused = [&](const std::string& session, bool rotating) {
    json extra = {{"sessionId", session},
                  {"tlsClientIdentifier", "chrome_133_PSK"},
                  {"transportOptions", {{"disableKeepAlives", true}}},
                  {"isRotatingProxy", rotating}};
    json first = get(https_url(), "http://" + a.addr(), extra);
    json second = get(https_url(), "http://" + a.addr(), extra);
    REQUIRE(first["status"] == 200);
    REQUIRE(second["status"] == 200);
    CHECK(first["headers"]["X-Reused"][0] == ".");
    return second["headers"]["X-Reused"][0].get<std::string>();
  };
  CHECK(reused("proxy-tickets", false) == "r");
  CHECK(reused("proxy-tickets-rotating", true) == ".");
  std::remove(log_a.c_str());
  std::remove(log_b.c_str());
}

TEST_CASE("proxy: the timeout covers the proxy's handshake", "[proxy]") {
  Server p = start({"python3", kProxies + "bad_proxy.py", "hang"});
  auto t0 = std::chrono::steady_clock::now();
  json in = {{"requestUrl", https_url()},
             {"requestMethod", "GET"},
             {"timeoutMilliseconds", 400},
             {"proxyUrl", "http://" + p.addr()}};
  json r = call(in);
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  check_failure(
      r, "timeout",
      failure(https_url(), "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"));
  CHECK(ms < 3000);
}

TEST_CASE("proxy: serverNameOverwrite and requestHostOverride work through a tunnel", "[proxy]") {
  Server p = start({"python3", kProxies + "connect_proxy.py"});
  // A target whose certificate names only wrong.example.
  Server wrong = start({"bash", kServers + "nginx_tls.sh", "TLSv1.2 TLSv1.3",
                        cert_dir() + "/wronghost.chain.pem", cert_dir() + "/wronghost.key"});
  std::string url = "https://" + wrong.addr() + "/index.html";
  json r = get(url, "http://" + p.addr(), {{"serverNameOverwrite", "wrong.example"}});
  INFO(body(r));
  CHECK(r["status"] == 200);
  json h = get(itest::h1_servers().http + "/echo", "http://" + p.addr(),
               {{"requestHostOverride", "example.test"}});
  REQUIRE(h["status"] == 200);
  json echo = json::parse(body(h));
  std::vector<std::string> raw = echo["rawHeaders"];
  auto it = std::find(raw.begin(), raw.end(), "Host");
  REQUIRE(it != raw.end());
  CHECK(*(it + 1) == "example.test");
}

TEST_CASE("proxy: the target sees the same ClientHello through a proxy as without one",
          "[proxy][client_hello]") {
  std::string log = "/tmp/tlsc-proxy-capture-" + std::to_string(getpid()) + ".jsonl";
  std::remove(log.c_str());
  itest::ChildServer capture({"python3", kServers + "capture_tls.py", log});
  std::string url = "https://localhost:" + std::to_string(capture.info()["port"].get<int>()) + "/";
  Server connect = start({"python3", kProxies + "connect_proxy.py"});
  Server socks = start({"bash", kProxies + "microsocks.sh"});
  json custom = {
      {"ja3String", "771,4865-4867-4866-49195-49199,0-23-65281-10-11-16-5-13-51-45-43-27,29-23-24,0"},
      {"supportedSignatureAlgorithms", {"ECDSAWithP256AndSHA256", "PSSWithSHA256", "PKCS1WithSHA256"}},
      {"supportedVersions", {"1.3", "1.2"}},
      {"keyShareCurves", {"X25519"}},
      {"alpnProtocols", {"http/1.1"}},
      {"certCompressionAlgos", {"brotli"}}};
  for (std::string proxy : {std::string(), "http://" + connect.addr(), "socks5://" + socks.addr()}) {
    json in = {
        {"requestUrl", url}, {"requestMethod", "GET"}, {"timeoutSeconds", 5}, {"customTlsClient", custom}};
    if (!proxy.empty()) in["proxyUrl"] = proxy;
    json r = call(in);
    CHECK(r["status"] == 0);  // the capture server hangs up after the hello
    CHECK(r["errorCode"] == "tls_handshake");
  }
  std::vector<json> records;
  std::ifstream f(log);
  for (std::string line; std::getline(f, line);) records.push_back(json::parse(line));
  std::remove(log.c_str());
  REQUIRE(records.size() == 3);
  for (json& r : records) {  // fresh keys per connection
    r.erase("x25519_keys");
    if (r.contains("bodies")) r["bodies"].erase("51");
  }
  CHECK(records[1] == records[0]);
  CHECK(records[2] == records[0]);
  CHECK(records[0]["extensions"] == json::array({0, 23, 65281, 10, 11, 16, 5, 13, 51, 45, 43, 27}));
}

TEST_CASE("proxy: HTTP/2 targets through each kind of proxy show the same HTTP/2 fingerprint",
          "[proxy][h2]") {
  itest::lib();
  itest::ChildServer h2({TLSC_H2_CAPTURE_SERVER, cert_dir() + "/good.pem", cert_dir() + "/good.key"});
  std::string url = "https://127.0.0.1:" + std::to_string(h2.info()["port"].get<int>()) + "/h2";
  Server squid = start({"bash", kProxies + "squid.sh"});
  Server tls_proxy = start({"python3", kProxies + "connect_proxy.py", "--tls", cert_dir() + "/good.chain.pem",
                            cert_dir() + "/good.key"});
  Server dante = start({"bash", kProxies + "danted.sh"});
  Server s4a = start({"python3", kProxies + "socks4a_proxy.py"});
  std::string direct;
  for (std::string proxy :
       {std::string(), "http://" + squid.addr(), "https://" + tls_proxy.addr(), "socks5://" + dante.addr(),
        "socks4://" + dante.addr(), "socks4a://" + s4a.addr()}) {
    INFO("proxy " << proxy);
    json r = get(url, proxy);
    INFO(body(r));
    REQUIRE(r["status"] == 200);
    CHECK(r["usedProtocol"] == "HTTP/2.0");
    std::string akamai = json::parse(body(r))["akamai"];
    if (proxy.empty()) direct = akamai;
    CHECK(akamai == direct);
  }
  CHECK(direct == "1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p");
}

TEST_CASE("proxy: localAddress and disableIPV6 apply to the connection to the proxy", "[proxy]") {
  Server p = start({"python3", kProxies + "connect_proxy.py"});
  json r = get(https_url(), "http://" + p.addr(), {{"localAddress", "127.0.0.1"}});
  CHECK(r["status"] == 200);
  r = get(https_url(), "http://" + p.addr(), {{"localAddress", "[::1]:0"}});
  check_failure(
      r, "connect",
      failure(https_url(), "dial tcp " + p.addr() + ": bind: address family mismatch with local address"));
  r = get(https_url(), "http://[::1]:" + std::to_string(p.port), {{"disableIPV6", true}});
  check_failure(r, "dns", failure(https_url(), "dial tcp: address ::1: no suitable address found"));
}
