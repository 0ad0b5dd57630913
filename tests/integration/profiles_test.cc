// Every built-in profile on the wire: one request per profile to the
// capture server, whose decoded ClientHello must match
// profiles/expected/<name>.json. Those files are computed from upstream's Go
// literals by profiles/tools/expected.py, apart from the profile files the
// library reads, so a mistranslated profile fails here.
#include <unistd.h>  // getpid

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::json;

namespace {

bool is_grease(int v) { return (v & 0x0f0f) == 0x0a0a && ((v >> 8) == (v & 0xff)); }

// Wire values with each GREASE value written "GREASE", as the expected
// files write them.
json greased(const json& list) {
  json out = json::array();
  for (const auto& v : list) {
    if (v.is_number_integer() && is_grease(v.get<int>()))
      out.push_back("GREASE");
    else
      out.push_back(v);
  }
  return out;
}

json without(const json& list, int value) {
  json out = json::array();
  for (const auto& v : list) {
    if (!(v.is_number_integer() && v.get<int>() == value)) out.push_back(v);
  }
  return out;
}

// A RequestedTrustAnchorList (trust_anchors 0xca34) in hex: its IDs, in
// hex, sorted (the order is the process's own), or nothing if malformed.
std::optional<std::vector<std::string>> trust_anchor_ids(const std::string& hex) {
  auto byte = [&](size_t i) { return std::stoi(hex.substr(2 * i, 2), nullptr, 16); };
  const size_t n = hex.size() / 2;
  if (n < 2 || static_cast<size_t>(byte(0) * 256 + byte(1)) != n - 2) return std::nullopt;
  std::vector<std::string> ids;
  for (size_t i = 2; i < n;) {
    const size_t len = static_cast<size_t>(byte(i));
    if (len == 0 || i + 1 + len > n) return std::nullopt;
    ids.push_back(hex.substr(2 * (i + 1), 2 * len));
    i += 1 + len;
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::map<std::string, json> load_expected() {
  std::map<std::string, json> out;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(TLSC_SOURCE_DIR) + "/profiles/expected")) {
    if (e.path().extension() != ".json") continue;
    std::ifstream f(e.path());
    json j = json::parse(f);
    out[j["name"].get<std::string>()] = j;
  }
  return out;
}

// A capture server (closing after each hello, or relaying to a TLS server
// on forward_port) for the life of the object.
class Capture {
 public:
  explicit Capture(int forward_port = 0)
      : log_("/tmp/tlsc-prof-capture-" + std::to_string(getpid()) + "-" + std::to_string(counter_++) +
             ".jsonl") {
    std::remove(log_.c_str());
    std::vector<std::string> argv = {"python3",
                                     std::string(TLSC_SOURCE_DIR) + "/tests/servers/capture_tls.py", log_};
    if (forward_port) {
      argv.push_back("--forward");
      argv.push_back(std::to_string(forward_port));
    }
    server_ = std::make_unique<itest::ChildServer>(argv);
    url_ = "https://localhost:" + std::to_string(server_->info()["port"].get<int>()) + "/";
  }
  ~Capture() { std::remove(log_.c_str()); }
  const std::string& url() const { return url_; }
  std::vector<json> records() const {
    std::vector<json> out;
    std::ifstream f(log_);
    for (std::string line; std::getline(f, line);) out.push_back(json::parse(line));
    return out;
  }

 private:
  static inline int counter_ = 0;
  std::string log_;
  std::unique_ptr<itest::ChildServer> server_;
  std::string url_;
};

json request(const std::string& url, json extra) {
  json in = {{"requestUrl", url}, {"requestMethod", "GET"}, {"timeoutSeconds", 5}};
  for (auto& [k, v] : extra.items()) in[k] = v;
  return call(in);
}

// One ClientHello against its expected description.
void check_hello(const json& ch, const json& exp) {
  CHECK(greased(ch["ciphers"]) == exp["ciphers"]);
  const bool pad_depends = exp["padding"] == "depends";
  json wire_ext = greased(ch["extensions"]);
  json exp_ext = exp["extensions"];
  if (pad_depends) {
    wire_ext = without(wire_ext, 21);
    exp_ext = without(exp_ext, 21);
  }
  CHECK(wire_ext == exp_ext);
  // Padding: BoringSSL's rule (utls BoringPaddingStyle is the same).
  bool padded = false;
  for (int e : ch["extensions"]) padded = padded || e == 21;
  int length = ch["length"];
  int unpadded = padded ? length - 4 - ch["padding_length"].get<int>() : length;
  if (padded) {
    CHECK((unpadded > 0xff && unpadded < 0x200));
    CHECK((length == 0x200 || ch["padding_length"] == 1));
  } else if (exp["padding"] != false) {
    CHECK(!(unpadded > 0xff && unpadded < 0x200));
  }
  if (exp["padding"] == true) CHECK(padded);
  auto same = [&](const char* wire_key, const char* exp_key, json empty) {
    INFO(exp_key);
    json want = exp.contains(exp_key) ? exp[exp_key] : empty;
    json got = ch.contains(wire_key) ? ch[wire_key] : empty;
    CHECK(greased(got) == want);
  };
  same("groups", "groups", json::array());
  same("sigalgs", "sigalgs", json::array());
  same("versions", "versions", json::array());
  same("point_formats", "point_formats", json::array());
  same("psk_modes", "psk_modes", json::array());
  same("cert_compression", "cert_compression", json::array());
  same("alpn", "alpn", json::array());
  if (exp.contains("delegated_credentials"))
    CHECK(ch["delegated_credentials"] == exp["delegated_credentials"]);
  else
    CHECK(!ch.contains("delegated_credentials"));
  if (exp.contains("record_size_limit"))
    CHECK(ch["record_size_limit"] == exp["record_size_limit"]);
  else
    CHECK(!ch.contains("record_size_limit"));
  json shares = json::array();
  for (const auto& ks : ch["key_shares"]) shares.push_back(json::array({greased({ks[0]})[0], ks[1]}));
  CHECK(shares == (exp.contains("key_shares") ? exp["key_shares"] : json::array()));
  // One X25519 key in the hybrid and the x25519 share for Firefox-family
  // profiles, as Firefox sends them; two independent keys for the rest, as
  // Chrome (and utls for every profile) sends them (abi/COMPAT.md).
  const bool both = ch["x25519_keys"].contains("hybrid") && ch["x25519_keys"].contains("x25519");
  CHECK(both == exp.contains("same_x25519_key"));
  if (both && exp.contains("same_x25519_key")) {
    CHECK((ch["x25519_keys"]["hybrid"] == ch["x25519_keys"]["x25519"]) == exp["same_x25519_key"].get<bool>());
  }
  if (exp.contains("alps")) {
    CHECK(ch["alps_codepoint"] == exp["alps"]["codepoint"]);
    CHECK(ch["alps"] == exp["alps"]["protocols"]);
  } else {
    CHECK(ch["alps"] == json::array());
  }
  if (exp.contains("ech")) {
    REQUIRE(ch.contains("ech"));
    const json& e = ch["ech"];
    CHECK(e["type"] == 0);         // outer
    CHECK(e["enc_length"] == 32);  // X25519
    bool suite_ok = false;
    for (const auto& s : exp["ech"]["cipher_suites"])
      suite_ok = suite_ok || (s[0] == e["kdf"] && s[1] == e["aead"]);
    CHECK(suite_ok);
    bool len_ok = false;
    for (const auto& n : exp["ech"]["payload_lengths"])
      len_ok = len_ok || n.get<int>() + 16 == e["payload_length"];
    CHECK(len_ok);
  } else {
    CHECK(!ch.contains("ech"));
  }
  if (exp.contains("raw")) {
    for (auto& [id, hex] : exp["raw"].items()) CHECK(ch["bodies"][id] == hex);
  }
  if (exp.contains("trust_anchors")) {
    // The IDs, each once, in an order of this process's own.
    const json& ta = exp["trust_anchors"];
    const std::string key = std::to_string(ta["codepoint"].get<int>());
    REQUIRE(ch["bodies"].contains(key));
    const std::string hex = ch["bodies"][key];
    CHECK(hex.size() / 2 == ta["body_length"].get<size_t>());
    auto ids = trust_anchor_ids(hex);
    REQUIRE(ids);
    std::vector<std::string> want = ta["ids"].get<std::vector<std::string>>();
    std::sort(want.begin(), want.end());
    CHECK(*ids == want);
  }
  CHECK(ch["psk"] == false);  // first connection of a session
  CHECK(ch[pad_depends ? "ja3_without_padding" : "ja3"] == exp["ja3"]);
  CHECK(ch[pad_depends ? "ja4_without_padding" : "ja4"] == exp["ja4"]);
  CHECK(ch["session_id_length"] == exp["session_id_length"]);
}

}  // namespace

TEST_CASE("profiles: every built-in profile sends upstream's ClientHello", "[profiles]") {
  auto expected = load_expected();
  REQUIRE(expected.size() >= 80);
  Capture cap;
  std::vector<std::string> order;
  for (const auto& [name, exp] : expected) {
    json r = request(cap.url(), {{"tlsClientIdentifier", name}});
    INFO(name << ": " << r["body"]);
    CHECK(r["status"] == 0);  // the capture server hangs up after the hello
    CHECK(r["errorCode"] == "tls_handshake");
    CHECK(r["body"].get<std::string>().find("spec") == std::string::npos);
    order.push_back(name);
  }
  auto records = cap.records();
  REQUIRE(records.size() == order.size());
  std::map<std::string, std::string> anchor_bodies;  // the IDs' list -> the body sent for it
  for (size_t i = 0; i < order.size(); ++i) {
    INFO("profile " << order[i]);
    check_hello(records[i], expected[order[i]]);
    const json& exp = expected[order[i]];
    if (exp.contains("trust_anchors")) {
      // One order per process: every profile with the same IDs sends the
      // same bytes (chrome_152 and chrome_152_PSK).
      const std::string key = std::to_string(exp["trust_anchors"]["codepoint"].get<int>());
      auto [it, fresh] = anchor_bodies.emplace(exp["trust_anchors"]["ids"].dump(), records[i]["bodies"][key]);
      if (!fresh) CHECK(records[i]["bodies"][key] == it->second);
    }
  }
}

TEST_CASE("profiles: aliases and unknown identifiers", "[profiles]") {
  Capture cap;
  for (const char* id : {"mms_ios", "mms_ios_1", "mesh_ios_1", "chrome_133", "no_such_profile", ""}) {
    request(cap.url(), id[0] ? json{{"tlsClientIdentifier", id}} : json::object());
  }
  auto r = cap.records();
  REQUIRE(r.size() == 6);
  auto exp = load_expected();
  CHECK(r[0]["ja3"] == exp["mms_ios"]["ja3"]);
  CHECK(r[1]["ja3"] == exp["mms_ios"]["ja3"]);
  CHECK(r[2]["ja3"] == exp["mesh_ios"]["ja3"]);
  // Unknown or no identifier: upstream's default, chrome_133.
  CHECK(r[4]["ja3"] == exp["chrome_133"]["ja3"]);
  CHECK(r[5]["ja3"] == exp["chrome_133"]["ja3"]);
}

TEST_CASE("profiles: a user's profile from TLS_CLIENT_PROFILES_DIR; the broken one is skipped",
          "[profiles]") {
  Capture cap;
  request(cap.url(), {{"tlsClientIdentifier", "test_user_profile"}});
  request(cap.url(), {{"tlsClientIdentifier", "test_user_profile_alias"}});
  request(cap.url(), {{"tlsClientIdentifier", "zz_broken"}});  // skipped: the default
  auto r = cap.records();
  REQUIRE(r.size() == 3);
  for (int i : {0, 1}) {
    CHECK(r[i]["ciphers"] == json::array({0x1302, 0x1301}));
    CHECK(r[i]["extensions"] == json::array({0, 10, 13, 16, 43, 51, 45, 0x1234}));
    CHECK(r[i]["bodies"]["4660"] == "abcd");
    CHECK(r[i]["key_shares"] == json::array({json::array({23, 65})}));
  }
  CHECK(r[2]["ja3"] == load_expected()["chrome_133"]["ja3"]);
}

TEST_CASE("profiles: withRandomTLSExtensionOrder shuffles all but GREASE, padding and pre_shared_key",
          "[profiles]") {
  Capture cap;
  for (int i = 0; i < 8; ++i) {
    request(cap.url(), {{"tlsClientIdentifier", "chrome_116_PSK"}, {"withRandomTLSExtensionOrder", true}});
  }
  auto r = cap.records();
  REQUIRE(r.size() == 8);
  json exp = load_expected()["chrome_116_PSK"];
  std::set<json> orders;
  for (const auto& ch : r) {
    json ext = greased(ch["extensions"]);
    orders.insert(ext);
    REQUIRE(ext.size() == exp["extensions"].size());
    // Fixed places: GREASE first and before padding, padding last here.
    CHECK(ext[0] == "GREASE");
    CHECK(ext[ext.size() - 2] == "GREASE");
    CHECK(ext.back() == 21);
    std::multiset<std::string> a, b;
    for (const auto& e : ext) a.insert(e.dump());
    for (const auto& e : exp["extensions"]) b.insert(e.dump());
    CHECK(a == b);
    // JA3 with the extension ids sorted, as one compares permuting clients.
    auto sorted_ids = [](const json& list) {
      std::vector<int> v;
      for (const auto& e : list) {
        if (e.is_number_integer()) v.push_back(e);
      }
      std::sort(v.begin(), v.end());
      return v;
    };
    CHECK(sorted_ids(ext) == sorted_ids(exp["extensions"]));
  }
  CHECK(orders.size() > 1);
}

TEST_CASE("profiles: forceHttp1 and disableHttp3 change ALPN and ALPS as upstream's UClient", "[profiles]") {
  Capture cap;
  request(cap.url(), {{"tlsClientIdentifier", "chrome_133"}, {"forceHttp1", true}});
  request(cap.url(), {{"tlsClientIdentifier", "chrome_133"}, {"disableHttp3", true}});
  auto r = cap.records();
  REQUIRE(r.size() == 2);
  // forceHttp1: http/1.1 alone; ALPS keeps only what ALPN still offers
  // (restrict_to_http1), so chrome_133's h3,h2 ALPS goes.
  CHECK(r[0]["alpn"] == json::array({"http/1.1"}));
  CHECK(r[0]["alps"] == json::array());
  // disableHttp3: h3 leaves ALPN and ALPS, the rest stays.
  CHECK(r[1]["alpn"] == json::array({"h2", "http/1.1"}));
  CHECK(r[1]["alps"] == json::array({"h2"}));
  CHECK(r[1]["alps_codepoint"] == 17613);
}

TEST_CASE("profiles: *_PSK profiles resume on the session's second connection with pre_shared_key last",
          "[profiles][psk]") {
  itest::lib();  // SSL_CERT_FILE before the server's certificate is needed
  itest::ChildServer tls({"bash", std::string(TLSC_SOURCE_DIR) + "/tests/servers/openssl_server.sh", "-cert",
                          itest::cert_dir() + "/good.pem", "-key", itest::cert_dir() + "/good.key",
                          "-tls1_3"});
  REQUIRE(tls.info()["port"].get<int>() > 0);
  Capture cap(tls.info()["port"].get<int>());
  auto expected = load_expected();
  std::vector<std::string> names;
  for (const auto& [name, exp] : expected) {
    if (exp["psk"] == true) names.push_back(name);
  }
  REQUIRE(names.size() >= 10);
  for (const auto& name : names) {
    std::string sid = "psk-" + name;
    for (int i = 0; i < 2; ++i) {
      json r = request(cap.url(), {{"sessionId", sid},
                                   {"tlsClientIdentifier", name},
                                   {"insecureSkipVerify", true},
                                   {"transportOptions", {{"disableKeepAlives", true}}}});
      INFO(name << " request " << i << ": " << r["body"]);
      CHECK(r["status"] == 200);
    }
    itest::call_fn(itest::lib().destroySession, {{"sessionId", sid}});
  }
  auto r = cap.records();
  REQUIRE(r.size() == 2 * names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    INFO(names[i]);
    const json& first = r[2 * i];
    const json& second = r[2 * i + 1];
    CHECK(first["psk"] == false);
    CHECK(second["psk"] == true);
    CHECK(second["extensions"].back() == 41);
    // Apart from pre_shared_key (and padding, whose size follows the
    // length), the resumed hello keeps the profile's order.
    CHECK(without(without(greased(second["extensions"]), 41), 21) ==
          without(without(greased(first["extensions"]), 41), 21));
  }
}
