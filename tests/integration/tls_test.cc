// HTTPS over HTTP/1.1 against real TLS peers on loopback: openssl s_server
// for each protocol version, AEAD, group and key type; verification
// failures; pins; resumption.
#include <memory>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::cert_dir;
using itest::json;

namespace {

struct SServer {
  std::unique_ptr<itest::ChildServer> child;
  std::string url;
};

// s_server -www with a certificate from the test PKI and extra options.
SServer s_server(const std::string& cert, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {"bash",  std::string(TLSC_SOURCE_DIR) + "/tests/servers/openssl_server.sh",
                                   "-cert", cert_dir() + "/" + cert + ".pem",
                                   "-key",  cert_dir() + "/" + cert + ".key"};
  if (cert == "chained") {
    argv.push_back("-cert_chain");
    argv.push_back(cert_dir() + "/inter.pem");
  }
  argv.insert(argv.end(), extra.begin(), extra.end());
  SServer s;
  itest::lib();  // the PKI exists and SSL_CERT_FILE is set before anything runs
  s.child = std::make_unique<itest::ChildServer>(argv);
  int port = s.child->info()["port"];
  REQUIRE(port > 0);
  s.url = "https://127.0.0.1:" + std::to_string(port) + "/";
  return s;
}

json get(const std::string& url, json extra = json::object()) {
  json in = {{"requestUrl", url}, {"requestMethod", "GET"}, {"timeoutSeconds", 10}};
  for (auto& [k, v] : extra.items()) in[k] = v;
  return call(in);
}

// The body of a failed request: upstream's prefix, then Go's text.
std::string go_error(const std::string& url, const std::string& text) {
  return "failed to do request: Get \"" + url + "\": " + text;
}

// s_server -www prints the negotiated parameters in its page.
bool page_says(const json& r, const std::string& what) {
  return r["body"].get<std::string>().find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("tls: TLS 1.3 with each AEAD", "[tls]") {
  for (const char* suite :
       {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"}) {
    INFO(suite);
    auto s = s_server("good", {"-tls1_3", "-ciphersuites", suite});
    json r = get(s.url);
    REQUIRE(r["status"] == 200);
    CHECK(r["usedProtocol"] == "HTTP/1.0");  // s_server -www speaks HTTP/1.0
    CHECK(page_says(r, "TLSv1.3"));
    CHECK(page_says(r, suite));
  }
}

TEST_CASE("tls: TLS 1.2 with each suite both sides have (GCM, ChaCha20, CBC)", "[tls]") {
  for (const char* suite :
       {"ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-CHACHA20-POLY1305",
        "ECDHE-RSA-AES128-SHA", "ECDHE-RSA-AES256-SHA", "AES128-GCM-SHA256", "AES128-SHA"}) {
    INFO(suite);
    auto s = s_server("good", {"-tls1_2", "-cipher", suite});
    json r = get(s.url);
    REQUIRE(r["status"] == 200);
    CHECK(page_says(r, "TLSv1.2"));
    CHECK(page_says(r, suite));
  }
}

TEST_CASE("tls: each group, HelloRetryRequest when the server wants an unshared one", "[tls]") {
  for (const char* group : {"X25519", "P-256", "P-384"}) {
    INFO(group);
    auto s = s_server("good", {"-tls1_3", "-groups", group});
    json r = get(s.url);
    CHECK(r["status"] == 200);
  }
}

TEST_CASE("tls: RSA (PSS signatures in 1.3, PKCS#1 in 1.2), ECDSA P-256 via an intermediate, P-384",
          "[tls]") {
  for (const char* cert : {"good", "chained", "ecdsa384"}) {
    INFO(cert);
    for (const char* version : {"-tls1_3", "-tls1_2"}) {
      auto s = s_server(cert, {version});
      json r = get(s.url);
      CHECK(r["status"] == 200);
    }
  }
}

TEST_CASE("tls: a 150 KiB certificate is taken, as Go takes up to 256 KiB", "[tls]") {
  for (const char* version : {"-tls1_3", "-tls1_2"}) {
    INFO(version);
    auto s = s_server("bigchain", {version});
    json r = get(s.url);
    CHECK(r["status"] == 200);
  }
}

TEST_CASE("tls: Ed25519 and RSA-PSS-key certificates fail as they fail for Chrome", "[tls][bad]") {
  // Chrome offers neither ed25519 nor rsa_pss_pss_* signature algorithms, so
  // the server has no signature it may make with these keys and says so
  // (as it does to utls with the same ClientHello).
  for (const char* cert : {"ed25519", "rsapss"}) {
    for (const char* version : {"-tls1_3", "-tls1_2"}) {
      INFO(cert << " " << version);
      auto s = s_server(cert, {version});
      json r = get(s.url);
      CHECK(r["status"] == 0);
      CHECK(r["errorCode"] == "tls_handshake");
      CHECK(r["body"] == go_error(s.url, "remote error: tls: handshake failure"));
    }
  }
}

TEST_CASE("tls: an RSA-PSS (id-RSASSA-PSS) key sent to a profile that offers rsa_pss_pss_* fails as in Go",
          "[tls][bad]") {
  // cloudscraper offers rsa_pss_pss_sha256 (TLS 1.2 only, CBC suites; -no_etm
  // because BoringSSL refuses the encrypt_then_mac answer it did not
  // negotiate). Go's crypto/x509 leaves such a key unparsed (nil) and utls
  // then refuses its type, verification or not; BoringSSL cannot parse it.
  auto s = s_server("rsapss", {"-tls1_2", "-no_etm"});
  for (bool insecure : {false, true}) {
    INFO("insecureSkipVerify " << insecure);
    json r = get(s.url, {{"tlsClientIdentifier", "cloudscraper"}, {"insecureSkipVerify", insecure}});
    CHECK(r["status"] == 0);
    CHECK(r["errorCode"] == "tls_handshake");
    CHECK(r["body"] ==
          go_error(s.url, "tls: server's certificate contains an unsupported type of public key: <nil>"));
  }
}

TEST_CASE("tls: no common cipher suite or version: the server's alert, in Go's words", "[tls][bad]") {
  struct C {
    std::vector<std::string> server;
    json extra;
    const char* text;
  };
  const json tls12_only = {
      {"ja3String", "771,49195-49199,0-23-10-11-13-16-65281,29-23,0"},
      {"supportedSignatureAlgorithms", {"ECDSAWithP256AndSHA256", "PSSWithSHA256", "PKCS1WithSHA256"}},
      {"supportedVersions", {"1.2"}},
      {"alpnProtocols", {"http/1.1"}}};
  for (const C& c :
       {// Chrome offers no CCM suite.
        C{{"-tls1_3", "-ciphersuites", "TLS_AES_128_CCM_SHA256"},
          json::object(),
          "remote error: tls: handshake failure"},
        C{{"-tls1_2", "-cipher", "AES128-CCM"}, json::object(), "remote error: tls: handshake failure"},
        // A TLS 1.1 server; no browser profile offers TLS 1.1.
        C{{"-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"},
          json::object(),
          "remote error: tls: protocol version not supported"},
        // A TLS 1.3 server and a spec that offers TLS 1.2 alone.
        C{{"-tls1_3"},
          {{"customTlsClient", tls12_only}},
          "remote error: tls: protocol version not supported"}}) {
    INFO(c.server[0] << " " << c.server.back());
    auto s = s_server("good", c.server);
    json r = get(s.url, c.extra);
    CHECK(r["status"] == 0);
    CHECK(r["errorCode"] == "tls_handshake");
    CHECK(r["body"] == go_error(s.url, c.text));
  }
}

TEST_CASE("tls: verification failures each say why; insecureSkipVerify passes them", "[tls][bad]") {
  struct Case {
    const char* cert;
    const char* url_host;
    const char* expect;
  };
  // Names as Go's x509.HostnameError gives them: the certificate's own.
  for (const Case& c :
       {Case{"wronghost", "127.0.0.1",
             "x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs"},
        Case{"wronghost", "localhost-alias",
             "x509: certificate is valid for wrong.example, not other.example"},
        Case{"good", "localhost-alias", "x509: certificate is valid for localhost, not other.example"},
        Case{"expired", "127.0.0.1", "certificate has expired"},
        Case{"notyet", "127.0.0.1", "certificate is not yet valid"},
        Case{"selfsigned", "127.0.0.1", "x509: certificate signed by unknown authority"},
        Case{"unknownca", "127.0.0.1", "x509: certificate signed by unknown authority"}}) {
    INFO(c.cert);
    auto s = s_server(c.cert, {});
    std::string url = s.url;
    json extra = json::object();
    if (std::string(c.url_host) == "localhost-alias") extra["serverNameOverwrite"] = "other.example";
    json r = get(url, extra);
    CHECK(r["status"] == 0);
    CHECK(r["errorCode"] == "tls_verify");
    CHECK(r["body"].get<std::string>().find("tls: failed to verify certificate: ") != std::string::npos);
    CHECK(r["body"].get<std::string>().find(c.expect) != std::string::npos);
    extra["insecureSkipVerify"] = true;
    CHECK(get(url, extra)["status"] == 200);
  }
}

TEST_CASE("tls: a leaf signed with SHA-1 is refused as Go refuses it; insecureSkipVerify passes it",
          "[tls][bad]") {
  // SECLEVEL=0: OpenSSL 3 refuses to serve a SHA-1-signed certificate otherwise.
  auto s = s_server("sha1", {"-tls1_3", "-cipher", "DEFAULT:@SECLEVEL=0"});
  json r = get(s.url);
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "tls_verify");
  CHECK(r["body"] == go_error(s.url,
                              "tls: failed to verify certificate: x509: certificate signed by unknown "
                              "authority (possibly because of \"x509: cannot verify signature: insecure "
                              "algorithm SHA1-RSA\" while trying to verify candidate authority certificate "
                              "\"tlsc test root\")"));
  CHECK(get(s.url, {{"insecureSkipVerify", true}})["status"] == 200);
  // The same root with SHA-256 below it passes.
  auto good = s_server("good", {"-tls1_3"});
  CHECK(get(good.url)["status"] == 200);
}

TEST_CASE("tls: serverNameOverwrite sets SNI and the verification name", "[tls]") {
  auto s = s_server("good", {"-tls1_3"});
  std::string port = s.url.substr(s.url.rfind(':') + 1);
  // Connect by IP, verify as localhost.
  json r = get(s.url, {{"serverNameOverwrite", "localhost"}});
  CHECK(r["status"] == 200);
  r = get("https://localhost:" + port, {{"serverNameOverwrite", "wrong.example"}});
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "tls_verify");
}

TEST_CASE("tls: certificate pins (SPKI SHA-256); with insecureSkipVerify refused as upstream refuses them",
          "[tls][bad]") {
  auto s = s_server("good", {"-tls1_3"});
  const std::string pin = itest::spki_pin(cert_dir() + "/good.pem");
  CHECK(get(s.url, {{"certificatePinningHosts", {{"127.0.0.1", {pin}}}}})["status"] == 200);
  json bad =
      get(s.url,
          {{"certificatePinningHosts", {{"127.0.0.1", {"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}}}}});
  CHECK(bad["status"] == 0);
  CHECK(bad["errorCode"] == "tls_pin");
  CHECK(bad["body"].get<std::string>().find("bad ssl pin detected, found pins: [" + pin) !=
        std::string::npos);
  // Pins with insecureSkipVerify: tls-client refuses the configuration.
  json both = get(s.url, {{"certificatePinningHosts", {{"127.0.0.1", {pin}}}}, {"insecureSkipVerify", true}});
  CHECK(both["errorCode"] == "invalid_input");
  CHECK(
      both["body"] ==
      "failed to build client out of request input: invalid config: certificate pinning cannot be used with "
      "insecure skip verify");
  // A pin for another host does not apply.
  CHECK(get(s.url, {{"certificatePinningHosts", {{"*.example.com", {"AAAA"}}}}})["status"] == 200);
}

TEST_CASE("tls: a *_PSK profile resumes on its session's next connection; its base profile does not",
          "[tls]") {
  auto s = s_server("good", {"-tls1_3"});
  for (const char* profile : {"chrome_133_PSK", "chrome_133"}) {
    INFO(profile);
    std::string sid = std::string("tls-resume-") + profile;
    json a = get(s.url, {{"sessionId", sid},
                         {"tlsClientIdentifier", profile},
                         {"transportOptions", {{"disableKeepAlives", true}}}});
    REQUIRE(a["status"] == 200);
    json b = get(s.url, {{"sessionId", sid}});
    REQUIRE(b["status"] == 200);
    // Upstream's chrome_133 has no pre_shared_key extension, so it cannot
    // resume a TLS 1.3 session; chrome_133_PSK can.
    CHECK(page_says(b, "Reused, TLSv1.3") == (std::string(profile) == "chrome_133_PSK"));
    itest::call_fn(itest::lib().destroySession, {{"sessionId", sid}});
  }
}

TEST_CASE("tls: a plain-text server: Go's first-record text", "[tls][bad]") {
  // The HTTP/1.1 test server answers the ClientHello with an HTTP error.
  std::string http = itest::h1_servers().http;
  std::string url = "https://" + http.substr(http.find("://") + 3) + "/";
  json r = get(url);
  CHECK(r["status"] == 0);
  CHECK(r["errorCode"] == "tls_handshake");
  CHECK(r["body"] == go_error(url, "tls: first record does not look like a TLS handshake"));
}

TEST_CASE("tls: an Ed25519 certificate works for a spec that offers ed25519 (TLS 1.3 and 1.2)", "[tls]") {
  // BoringSSL verifies only what the spec offers (patch: the spec's
  // signature algorithms are also the verify preferences), so Ed25519 is
  // accepted exactly when the spec lists it, as in Go.
  struct V {
    const char* server;
    const char* ja3;
    const char* version;
    const char* page;
  };
  for (const V& v : {V{"-tls1_3", "771,4865-4866-4867,0-23-10-11-13-16-43-45-51,29-23,0", "1.3", "TLSv1.3"},
                     V{"-tls1_2", "771,49195-49199,0-23-10-11-13-16-65281,29-23,0", "1.2", "TLSv1.2"}}) {
    INFO(v.server);
    auto s = s_server("ed25519", {v.server});
    json custom = {{"ja3String", v.ja3},
                   {"supportedSignatureAlgorithms", {"Ed25519", "ECDSAWithP256AndSHA256", "PSSWithSHA256"}},
                   {"supportedVersions", {v.version}},
                   {"keyShareCurves", {"X25519"}},
                   {"alpnProtocols", {"http/1.1"}}};
    json r = get(s.url, {{"customTlsClient", custom}});
    INFO(r["body"].get<std::string>());
    CHECK(r["status"] == 200);
    CHECK(page_says(r, v.page));
    // Without Ed25519 in the list the server has nothing to sign with.
    custom["supportedSignatureAlgorithms"] = {"ECDSAWithP256AndSHA256", "PSSWithSHA256"};
    r = get(s.url, {{"customTlsClient", custom}});
    CHECK(r["errorCode"] == "tls_handshake");
    CHECK(r["body"] == go_error(s.url, "remote error: tls: handshake failure"));
  }
}

namespace {

struct BsslServer {
  std::unique_ptr<itest::ChildServer> child;
  std::string url;
};

BsslServer bssl_server(std::vector<std::string> extra, const std::string& cert = "good") {
  itest::lib();
  std::vector<std::string> argv = {TLSC_BSSL_SERVER, cert_dir() + "/" + cert + ".chain.pem",
                                   cert_dir() + "/" + cert + ".key"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  BsslServer s;
  s.child = std::make_unique<itest::ChildServer>(argv);
  s.url = "https://127.0.0.1:" + std::to_string(s.child->info()["port"].get<int>()) + "/";
  return s;
}

// A Firefox-like customTlsClient that offers every certificate compression
// algorithm and a record_size_limit.
json custom_with(std::vector<std::string> compression, int record_size_limit) {
  return {{"ja3String", "771,4865-4867-4866-49195-49199,0-23-65281-10-11-16-5-13-51-45-43-27-28,29-23-24,0"},
          {"supportedSignatureAlgorithms", {"ECDSAWithP256AndSHA256", "PSSWithSHA256", "PKCS1WithSHA256"}},
          {"supportedVersions", {"1.3", "1.2"}},
          {"keyShareCurves", {"X25519"}},
          {"alpnProtocols", {"http/1.1"}},
          {"certCompressionAlgos", compression},
          {"recordSizeLimit", record_size_limit}};
}

}  // namespace

TEST_CASE("tls: certificates compressed with each algorithm are decompressed", "[tls][bssl-server]") {
  for (const char* alg : {"zlib", "brotli", "zstd"}) {
    INFO(alg);
    auto s = bssl_server({"--compress", alg});
    json r = get(s.url, {{"customTlsClient", custom_with({"zlib", "brotli", "zstd"}, 16385)}});
    REQUIRE(r["status"] == 200);
    CHECK(json::parse(r["body"].get<std::string>())["cert_compressions"] == 1);
  }
  // chrome_133 offers brotli alone.
  auto s = bssl_server({"--compress", "brotli"});
  json r = get(s.url);
  REQUIRE(r["status"] == 200);
  CHECK(json::parse(r["body"].get<std::string>())["cert_compressions"] == 1);
}

TEST_CASE("tls: a server's record_size_limit is honoured", "[tls][bssl-server]") {
  auto s = bssl_server({"--record-size-limit", "64"});
  // A request head far larger than 64 bytes goes out in small records.
  json r = get(s.url, {{"customTlsClient", custom_with({"brotli"}, 16385)},
                       {"headers", {{"X-Padding", std::string(600, 'p')}}}});
  REQUIRE(r["status"] == 200);
  // 64 bytes of TLS 1.3 plaintext (content type included) plus the tag.
  CHECK(json::parse(r["body"].get<std::string>())["max_client_record"].get<int>() <= 64 + 16);
}

TEST_CASE("tls: a server signature that does not verify: Go's text for its key type",
          "[tls][bssl-server][bad]") {
  // bssl_server signs with the real key and flips a bit: TLS 1.3
  // CertificateVerify, TLS 1.2 ServerKeyExchange (auth.go's words; RSA's
  // are crypto/rsa.ErrVerification).
  struct C {
    const char* cert;
    const char* why;
  };
  for (const C& c :
       {C{"good", "crypto/rsa: verification error"}, C{"chained", "ECDSA verification failure"}}) {
    for (bool tls12 : {false, true}) {
      INFO(c.cert << (tls12 ? " TLS 1.2" : " TLS 1.3"));
      std::vector<std::string> args = {"--corrupt-signature"};
      if (tls12) args.push_back("--tls12");
      auto s = bssl_server(args, c.cert);
      json r = get(s.url);
      CHECK(r["status"] == 0);
      CHECK(r["errorCode"] == "tls_handshake");
      CHECK(r["body"] ==
            go_error(s.url, std::string("tls: invalid signature by the server certificate: ") + c.why));
    }
  }
  auto s = bssl_server({"--corrupt-signature"}, "ed25519");
  json custom = {{"ja3String", "771,4865-4866-4867,0-23-10-11-13-16-43-45-51,29-23,0"},
                 {"supportedSignatureAlgorithms", {"Ed25519", "ECDSAWithP256AndSHA256", "PSSWithSHA256"}},
                 {"supportedVersions", {"1.3"}},
                 {"keyShareCurves", {"X25519"}},
                 {"alpnProtocols", {"http/1.1"}}};
  json r = get(s.url, {{"customTlsClient", custom}});
  CHECK(r["errorCode"] == "tls_handshake");
  CHECK(r["body"] ==
        go_error(s.url, "tls: invalid signature by the server certificate: Ed25519 verification failure"));
}

namespace {

// A customTlsClient that lists early_data (42) and pre_shared_key (41), as
// upstream's JA3 path sends them: an empty early_data in every hello.
json custom_early_data() {
  return {{"ja3String", "771,4865-4867-4866-49195-49199,0-23-65281-10-11-16-5-13-51-45-43-42-41,29-23-24,0"},
          {"supportedSignatureAlgorithms", {"ECDSAWithP256AndSHA256", "PSSWithSHA256", "PKCS1WithSHA256"}},
          {"supportedVersions", {"1.3", "1.2"}},
          {"keyShareCurves", {"X25519"}},
          {"alpnProtocols", {"http/1.1"}}};
}

}  // namespace

TEST_CASE(
    "tls: early_data listed: 0-RTT offered on resumption without early data; accepted or declined, the "
    "request succeeds",
    "[tls][bssl-server][early-data]") {
  // Our BoringSSL server accepts 0-RTT: the client finishes with
  // EndOfEarlyData; the request only goes out after the handshake.
  auto s = bssl_server({"--early-data", "accept"});
  const std::string sid = "tls-early-data-bssl";
  json a = get(s.url, {{"sessionId", sid},
                       {"customTlsClient", custom_early_data()},
                       {"transportOptions", {{"disableKeepAlives", true}}}});
  INFO(a.dump());
  REQUIRE(a["status"] == 200);
  json ab = json::parse(a["body"].get<std::string>());
  CHECK(ab["session_reused"] == false);
  CHECK(ab["early_data_accepted"] == false);
  json b = get(s.url, {{"sessionId", sid}});
  INFO(b.dump());
  REQUIRE(b["status"] == 200);
  json bb = json::parse(b["body"].get<std::string>());
  CHECK(bb["session_reused"] == true);
  CHECK(bb["early_data_accepted"] == true);
  itest::call_fn(itest::lib().destroySession, {{"sessionId", sid}});

  // The same server declining 0-RTT: no EndOfEarlyData, a plain resumption.
  auto n = bssl_server({"--early-data", "decline"});
  const std::string sid1 = "tls-early-data-bssl-decline";
  json e = get(n.url, {{"sessionId", sid1},
                       {"customTlsClient", custom_early_data()},
                       {"transportOptions", {{"disableKeepAlives", true}}}});
  REQUIRE(e["status"] == 200);
  json f = get(n.url, {{"sessionId", sid1}});
  INFO(f.dump());
  REQUIRE(f["status"] == 200);
  json fb = json::parse(f["body"].get<std::string>());
  CHECK(fb["session_reused"] == true);
  CHECK(fb["early_data_accepted"] == false);
  itest::call_fn(itest::lib().destroySession, {{"sessionId", sid1}});

  // openssl s_server's tickets do not allow 0-RTT (no -early_data, which
  // -www does not take): the empty early_data goes with the session.
  auto o = s_server("good", {"-tls1_3"});
  const std::string sid2 = "tls-early-data-openssl";
  json c = get(o.url, {{"sessionId", sid2},
                       {"customTlsClient", custom_early_data()},
                       {"transportOptions", {{"disableKeepAlives", true}}}});
  REQUIRE(c["status"] == 200);
  json d = get(o.url, {{"sessionId", sid2}});
  INFO(d.dump());
  REQUIRE(d["status"] == 200);
  CHECK(page_says(d, "Reused, TLSv1.3"));
  itest::call_fn(itest::lib().destroySession, {{"sessionId", sid2}});
}

TEST_CASE("tls: a server that answered our record_size_limit and sends larger records fails cleanly",
          "[tls][bssl-server]") {
  // 1024 advertised; a 5000-byte body. Honoured: records of 1023 bytes + the
  // content type. Not honoured (16384-byte records): record_overflow.
  json custom = custom_with({"brotli"}, 1024);
  auto honest = bssl_server({"--record-size-limit", "16385", "--pad", "5000"});
  json ok = get(honest.url, {{"customTlsClient", custom}});
  INFO(ok.dump());
  REQUIRE(ok["status"] == 200);
  CHECK(ok["body"].get<std::string>().size() > 5000);

  auto rogue = bssl_server({"--record-size-limit", "16385", "--pad", "5000", "--oversized-records"});
  json bad = get(rogue.url, {{"customTlsClient", custom}});
  INFO(bad.dump());
  CHECK(bad["status"] == 0);
  CHECK(bad["errorCode"] == "tls_handshake");
  CHECK(bad["body"].get<std::string>().find("record_size_limit 1024") != std::string::npos);
}
