// The ClientHello the library sends, captured on the wire and decoded:
// the default profile (chrome_133) and a customTlsClient.
#include <unistd.h>  // getpid

#include <fstream>
#include <memory>
#include <set>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::json;

namespace {

bool is_grease(int v) { return (v & 0x0f0f) == 0x0a0a && ((v >> 8) == (v & 0xff)); }

// Sends one request per input to the capture server; returns its records.
std::vector<json> capture(const std::vector<json>& inputs) {
  std::string log = "/tmp/tlsc-capture-" + std::to_string(getpid()) + ".jsonl";
  std::remove(log.c_str());
  itest::ChildServer server({"python3", std::string(TLSC_SOURCE_DIR) + "/tests/servers/capture_tls.py", log});
  std::string url = "https://localhost:" + std::to_string(server.info()["port"].get<int>()) + "/";
  for (json in : inputs) {
    in["requestUrl"] = url;
    in["requestMethod"] = "GET";
    in["timeoutSeconds"] = 5;
    json r = call(in);
    INFO(r["body"].get<std::string>());
    CHECK(r["status"] == 0);  // the capture server hangs up after the hello
    CHECK(r["errorCode"] == "tls_handshake");
    CHECK(r["body"].get<std::string>().find("spec") == std::string::npos);
  }
  std::vector<json> out;
  std::ifstream f(log);
  for (std::string line; std::getline(f, line);) out.push_back(json::parse(line));
  std::remove(log.c_str());
  return out;
}

std::vector<int> without_grease(const json& list) {
  std::vector<int> out;
  for (int v : list) {
    if (!is_grease(v)) out.push_back(v);
  }
  return out;
}

}  // namespace

TEST_CASE("client hello: the default profile sends upstream's chrome_133, in its fixed order",
          "[tls][client_hello]") {
  auto records = capture(std::vector<json>(6, json::object()));
  REQUIRE(records.size() == 6);
  std::set<std::vector<int>> orders;
  for (const json& ch : records) {
    CHECK(is_grease(ch["ciphers"][0]));
    CHECK(without_grease(ch["ciphers"]) == std::vector<int>{0x1301, 0x1302, 0x1303, 0xc02b, 0xc02f, 0xc02c,
                                                            0xc030, 0xcca9, 0xcca8, 0xc013, 0xc014, 0x009c,
                                                            0x009d, 0x002f, 0x0035});
    std::vector<int> ext = ch["extensions"];
    REQUIRE(ext.size() >= 2);
    CHECK(is_grease(ext.front()));
    CHECK(is_grease(ext.back()));
    std::multiset<int> got(ext.begin() + 1, ext.end() - 1);
    // Upstream's chrome_133 set.
    CHECK(got == std::multiset<int>{0, 23, 65281, 10, 11, 35, 16, 5, 13, 18, 51, 45, 43, 27, 17613, 65037});
    std::vector<int> order = ext;  // GREASE values differ per connection
    for (int& e : order) e = is_grease(e) ? 0x0a0a : e;
    orders.insert(order);
    CHECK(without_grease(ch["groups"]) == std::vector<int>{0x11ec, 0x001d, 0x0017, 0x0018});
    REQUIRE(ch["key_shares"].size() == 3);
    CHECK(is_grease(ch["key_shares"][0][0]));
    CHECK(ch["key_shares"][1] == json::array({0x11ec, 1216}));
    CHECK(ch["key_shares"][2] == json::array({0x001d, 32}));
    // Chrome: two independent X25519 keys (one key in both is Firefox's way).
    CHECK(ch["x25519_keys"]["hybrid"] != ch["x25519_keys"]["x25519"]);
    CHECK(ch["sigalgs"] == json::array({0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601}));
    CHECK(without_grease(ch["versions"]) == std::vector<int>{0x0304, 0x0303});
    CHECK(ch["alpn"] == json::array({"h3", "h2", "http/1.1"}));
    CHECK(ch["cert_compression"] == json::array({2}));
    CHECK(ch["psk"] == false);
  }
  // Upstream's chrome_133 has RandomExtensionOrder false: one order
  // (withRandomTLSExtensionOrder shuffles: profiles_test.cc).
  CHECK(orders.size() == 1);
}

TEST_CASE("client hello: forceHttp1 offers http/1.1 alone and no ALPS", "[tls][client_hello]") {
  auto records = capture({json{{"forceHttp1", true}}});
  REQUIRE(records.size() == 1);
  const json& ch = records[0];
  CHECK(ch["alpn"] == json::array({"http/1.1"}));
  for (int e : ch["extensions"]) CHECK(e != 17613);
}

TEST_CASE("client hello: a customTlsClient's JA3 decides ciphers and extension order",
          "[tls][client_hello]") {
  json custom = {
      {"customTlsClient",
       {{"ja3String",
         "771,4865-4867-4866-49195-49199,0-23-65281-10-11-16-5-13-51-45-43-28-13172,29-23-24-25,0"},
        {"supportedSignatureAlgorithms", {"ECDSAWithP256AndSHA256", "PSSWithSHA256", "PKCS1WithSHA256"}},
        {"supportedVersions", {"1.3", "1.2"}},
        {"keyShareCurves", {"X25519", "P256"}},
        {"alpnProtocols", {"http/1.1"}},
        {"recordSizeLimit", 16385}}}};
  auto records = capture({custom});
  REQUIRE(records.size() == 1);
  const json& ch = records[0];
  CHECK(ch["ciphers"] == json::array({4865, 4867, 4866, 49195, 49199}));
  CHECK(ch["extensions"] == json::array({0, 23, 65281, 10, 11, 16, 5, 13, 51, 45, 43, 28, 13172}));
  CHECK(ch["groups"] == json::array({29, 23, 24, 25}));
  CHECK(ch["key_shares"] == json::array({json::array({29, 32}), json::array({23, 65})}));
  CHECK(ch["sigalgs"] == json::array({0x0403, 0x0804, 0x0401}));
  CHECK(ch["versions"] == json::array({0x0304, 0x0303}));
}

TEST_CASE(
    "client hello: early_data (42) and, in a TLS 1.3-only spec, renegotiation_info go out empty where listed",
    "[tls][client_hello]") {
  auto spec = [](const std::string& extensions, std::vector<std::string> versions) {
    return json{
        {"customTlsClient",
         {{"ja3String", "771,4865-4867-4866-49195-49199," + extensions + ",29-23-24,0"},
          {"supportedSignatureAlgorithms", {"ECDSAWithP256AndSHA256", "PSSWithSHA256", "PKCS1WithSHA256"}},
          {"supportedVersions", versions},
          {"keyShareCurves", {"X25519"}},
          {"alpnProtocols", {"http/1.1"}}}}};
  };
  // As upstream's JA3 path: early_data with or without pre_shared_key (which
  // only goes out with a session), renegotiation_info in a TLS 1.3-only hello.
  auto records = capture({spec("0-23-65281-10-11-16-5-13-51-45-43-42-41", {"1.3"}),
                          spec("42-0-23-65281-10-11-16-13-51-45-43", {"1.3", "1.2"})});
  REQUIRE(records.size() == 2);
  CHECK(records[0]["extensions"] == json::array({0, 23, 65281, 10, 11, 16, 5, 13, 51, 45, 43, 42}));
  CHECK(records[0]["versions"] == json::array({0x0304}));
  CHECK(records[0]["bodies"]["65281"] == "00");
  CHECK(records[0]["bodies"]["23"] == "");
  CHECK(records[0]["bodies"]["42"] == "");
  CHECK(records[1]["extensions"] == json::array({42, 0, 23, 65281, 10, 11, 16, 13, 51, 45, 43}));
  CHECK(records[1]["bodies"]["42"] == "");
  CHECK(records[1]["bodies"]["65281"] == "00");
}
