// The two profiles taken from the real browsers installed here (Chromium 156
// and Firefox ESR 153, captured with tools/capture_profile.py): the library,
// with tlsClientIdentifier chromium_156 / firefox_153, must look to the
// capture server like the stored browser captures in
// tests/data/browsers/<name>/captures.jsonl. No browser is needed: the
// captures are data.
//
// Compared: JA3 with GREASE removed (extension ids sorted for Chromium, which
// permutes), GREASE places, every extension's decoded contents, the Akamai
// HTTP/2 string, the HEADERS flags and priority, and the header order of a
// request made with the profile's default_headers.
//
// "[browsers-id]" uses the identifiers (needs the profile registry that embeds
// every profiles/*.json). "[browsers-custom]" drives the same checks through
// a customTlsClient built from the profile file, minus what customTlsClient
// cannot say (listed in each test).
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::cert_dir;
using itest::json;

namespace {

bool is_grease(uint32_t v) { return (v & 0x0f0f) == 0x0a0a && (v >> 8) == (v & 0xff); }
uint16_t norm(uint16_t v) { return is_grease(v) ? 0x0a0a : v; }

std::vector<uint8_t> unhex(const std::string& s) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < s.size(); i += 2)
    out.push_back(static_cast<uint8_t>(std::stoi(s.substr(i, 2), nullptr, 16)));
  return out;
}

struct Reader {
  const std::vector<uint8_t>& b;
  size_t p = 0, end;
  Reader(const std::vector<uint8_t>& bytes, size_t from, size_t to) : b(bytes), p(from), end(to) {}
  bool done() const { return p >= end; }
  uint8_t u8() {
    if (p + 1 > end) throw std::runtime_error("truncated");
    return b[p++];
  }
  uint16_t u16() {
    uint16_t hi = u8();
    return static_cast<uint16_t>(hi << 8 | u8());
  }
  Reader sub(size_t len) {
    if (p + len > end) throw std::runtime_error("truncated");
    Reader r(b, p, p + len);
    p += len;
    return r;
  }
  Reader vec8() { return sub(u8()); }
  Reader vec16() { return sub(u16()); }
  std::vector<uint8_t> rest() {
    std::vector<uint8_t> out(b.begin() + static_cast<long>(p), b.begin() + static_cast<long>(end));
    p = end;
    return out;
  }
  std::vector<uint16_t> u16s() {
    std::vector<uint16_t> out;
    while (!done()) out.push_back(norm(u16()));
    return out;
  }
  std::vector<std::string> names() {
    std::vector<std::string> out;
    while (!done()) {
      auto v = vec8().rest();
      out.emplace_back(v.begin(), v.end());
    }
    return out;
  }
};

// A decoded ClientHello, GREASE values normalised to 0x0a0a.
struct Hello {
  uint16_t legacy_version = 0;
  std::vector<uint16_t> ciphers;
  std::vector<uint16_t> extensions;
  std::map<uint16_t, std::vector<uint8_t>> bodies;  // first occurrence (GREASE: the first one)

  bool has(uint16_t e) const { return bodies.count(e) != 0; }
  Reader body(uint16_t e) const {
    const auto& b = bodies.at(e);
    return Reader(b, 0, b.size());
  }
  std::vector<uint16_t> list16(uint16_t e, bool one_byte_len = false) const {
    if (!has(e)) return {};
    Reader r = body(e);
    return one_byte_len ? r.vec8().u16s() : r.vec16().u16s();
  }
  std::vector<uint8_t> list8(uint16_t e) const {
    if (!has(e)) return {};
    return body(e).vec8().rest();
  }
  std::vector<std::string> names(uint16_t e) const {
    if (!has(e)) return {};
    return body(e).vec16().names();
  }
  // (group, key length) in order.
  std::vector<std::pair<uint16_t, size_t>> key_shares() const {
    std::vector<std::pair<uint16_t, size_t>> out;
    if (!has(51)) return out;
    Reader r = body(51).vec16();
    while (!r.done()) {
      uint16_t g = norm(r.u16());
      out.emplace_back(g, r.vec16().rest().size());
    }
    return out;
  }
  // Whether the X25519 part of the X25519MLKEM768 share is the X25519 share.
  bool same_x25519_key() const {
    if (!has(51)) return false;
    Reader r = body(51).vec16();
    std::vector<uint8_t> x, hybrid;
    while (!r.done()) {
      uint16_t g = r.u16();
      auto k = r.vec16().rest();
      if (g == 0x001d) x = k;
      if (g == 0x11ec && k.size() >= 32) hybrid.assign(k.end() - 32, k.end());
    }
    return !x.empty() && x == hybrid;
  }
  struct Ech {
    int type = -1, kdf = 0, aead = 0;
    size_t enc = 0, payload = 0;
  };
  Ech ech() const {
    Ech e;
    if (!has(65037)) return e;
    Reader r = body(65037);
    e.type = r.u8();
    if (e.type != 0) return e;
    e.kdf = r.u16();
    e.aead = r.u16();
    r.u8();  // config id
    e.enc = r.vec16().rest().size();
    e.payload = r.vec16().rest().size();
    return e;
  }
};

Hello decode(const std::string& hexstr) {
  std::vector<uint8_t> b = unhex(hexstr);
  size_t start = 0;
  if (b.size() > 4 && b[0] == 1 && ((size_t{b[1]} << 16) | (size_t{b[2]} << 8) | b[3]) == b.size() - 4)
    start = 4;
  Reader r(b, start, b.size());
  Hello h;
  h.legacy_version = r.u16();
  r.sub(32);
  r.vec8();
  h.ciphers = r.vec16().u16s();
  r.vec8();
  Reader exts = r.vec16();
  while (!exts.done()) {
    uint16_t t = norm(exts.u16());
    auto body = exts.vec16().rest();
    h.extensions.push_back(t);
    h.bodies.emplace(t, std::move(body));
  }
  return h;
}

std::string join(const std::vector<uint16_t>& v) {
  std::string out;
  for (uint16_t x : v) {
    if (is_grease(x)) continue;
    if (!out.empty()) out += '-';
    out += std::to_string(x);
  }
  return out;
}

// JA3 with GREASE removed; extension ids sorted when the client permutes.
std::string ja3(const Hello& h, bool sorted) {
  std::vector<uint16_t> exts = h.extensions;
  if (sorted) std::sort(exts.begin(), exts.end());
  std::string fmts;
  for (uint8_t f : h.list8(11)) fmts += (fmts.empty() ? "" : "-") + std::to_string(f);
  return std::to_string(h.legacy_version) + "," + join(h.ciphers) + "," + join(exts) + "," +
         join(h.list16(10)) + "," + fmts;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Browser {
  json profile;
  std::vector<json> captures;  // one per connection
  json first_load;             // the connection of the first page load
  std::vector<Hello> hellos;
};

const Browser& browser(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Browser>> cache;
  auto& slot = cache[name];
  if (!slot) {
    slot = std::make_unique<Browser>();
    slot->profile = json::parse(read_file(std::string(TLSC_SOURCE_DIR) + "/profiles/" + name + ".json"));
    std::istringstream lines(
        read_file(std::string(TLSC_SOURCE_DIR) + "/tests/data/browsers/" + name + "/captures.jsonl"));
    for (std::string line; std::getline(lines, line);) {
      if (line.empty()) continue;
      slot->captures.push_back(json::parse(line));
      slot->hellos.push_back(decode(slot->captures.back()["tls"]["client_hello_hex"]));
    }
    for (const auto& c : slot->captures) {
      if (c["streams"].empty()) continue;
      for (const auto& h : c["streams"][0]["headers"]) {
        if (h[0] == ":path" && h[1].get<std::string>().rfind("/load-", 0) == 0 &&
            slot->first_load.is_null()) {
          slot->first_load = c;
        }
      }
    }
  }
  return *slot;
}

struct CaptureServer {
  std::unique_ptr<itest::ChildServer> child;
  std::string url;
};

CaptureServer capture_server() {
  CaptureServer s;
  s.child = std::make_unique<itest::ChildServer>(std::vector<std::string>{
      TLSC_H2_CAPTURE_SERVER, cert_dir() + "/good.pem", cert_dir() + "/good.key", "--alps", "1"});
  // localhost, not 127.0.0.1: a browser sends server_name for names only.
  s.url = "https://localhost:" + std::to_string(s.child->info()["port"].get<int>()) + "/load-1";
  return s;
}

// A request with the profile's default headers, in their order.
json request_with_default_headers(const Browser& b, const std::string& url, json client) {
  json headers = json::object();
  json order = json::array();
  for (const auto& h : b.profile["default_headers"]) {
    headers[h[0].get<std::string>()] = h[1];
    order.push_back(h[0]);
  }
  json in = {{"requestUrl", url},          {"requestMethod", "GET"}, {"timeoutSeconds", 15},
             {"insecureSkipVerify", true}, {"headers", headers},     {"headerOrder", order}};
  in.update(client);
  json r = call(in);
  INFO(r.dump());
  REQUIRE(r["status"] == 200);
  return json::parse(r["body"].get<std::string>());
}

struct Exceptions {
  std::set<uint16_t> missing_extensions;  // the library cannot send these here
  bool same_x25519_key = true;            // compare share_x25519_key
  bool grease_sigalg_varies = true;       // the library's GREASE sigalg is fixed (0x0a0a)
};

std::vector<uint16_t> without(std::vector<uint16_t> v, const std::set<uint16_t>& drop) {
  std::erase_if(v, [&](uint16_t x) { return drop.count(x) != 0; });
  return v;
}

// The library's capture against every stored browser capture.
void check_tls(const Browser& b, const json& cap, bool permutes, const Exceptions& ex = {}) {
  const Hello lib = decode(cap["tls"]["client_hello_hex"]);
  const Hello& want = b.hellos.front();
  auto drop = ex.missing_extensions;
  Hello want_adj = want;
  want_adj.extensions = without(want.extensions, drop);
  for (uint16_t e : drop) want_adj.bodies.erase(e);

  // The stored captures agree with each other where they must.
  for (const Hello& h : b.hellos) {
    CHECK(ja3(h, true) == ja3(want, true));
    if (!permutes) CHECK(h.extensions == want.extensions);
  }

  CHECK(ja3(lib, permutes) == ja3(want_adj, permutes));
  CHECK(lib.ciphers == want.ciphers);  // GREASE place included
  if (permutes) {
    // GREASE first and last, the rest in any order: the same multiset.
    CHECK(lib.extensions.front() == want.extensions.front());
    CHECK(lib.extensions.back() == want.extensions.back());
    auto a = lib.extensions, w = want_adj.extensions;
    std::sort(a.begin(), a.end());
    std::sort(w.begin(), w.end());
    CHECK(a == w);
  } else {
    CHECK(lib.extensions == want_adj.extensions);
  }
  CHECK(lib.list16(10) == want.list16(10));
  CHECK(lib.key_shares() == want.key_shares());
  if (ex.same_x25519_key) CHECK(lib.same_x25519_key() == want.same_x25519_key());
  CHECK(lib.list8(11) == want.list8(11));
  CHECK(lib.list16(13) == want.list16(13));
  CHECK(lib.list16(34) == want.list16(34));
  CHECK(lib.list16(43, true) == want.list16(43, true));
  CHECK(lib.names(16) == want.names(16));
  CHECK(lib.has(17613) == want.has(17613));
  CHECK(lib.has(17513) == want.has(17513));
  CHECK(lib.names(17613) == want.names(17613));
  CHECK(lib.names(17513) == want.names(17513));
  CHECK(cap["tls"].value("alps_negotiated", false) == b.first_load["tls"].value("alps_negotiated", false));
  CHECK(lib.list16(27, true) == want.list16(27, true));
  CHECK(lib.list8(45) == want.list8(45));
  CHECK(lib.has(28) == want.has(28));
  if (want.has(28)) CHECK(lib.body(28).u16() == want.body(28).u16());
  CHECK(lib.has(21) == want.has(21));  // padding
  CHECK(lib.has(0) == want.has(0));
  CHECK(lib.has(41) == want.has(41));
  for (uint16_t e : {5, 18, 23, 35, 65281}) {  // fixed bodies
    INFO("extension " << e);
    if (want.has(e) && !drop.count(e)) CHECK(lib.bodies.at(e) == want.bodies.at(e));
  }
  // Extensions the decoder does not know: bodies as captured.
  static const std::set<uint16_t> known = {0,  5,  10, 11, 13, 16, 17513, 17613, 18,    21,    23,
                                           27, 28, 34, 35, 41, 43, 45,    51,    65037, 65281, 0x0a0a};
  for (const auto& [e, body] : want.bodies) {
    if (known.count(e) || drop.count(e)) continue;
    INFO("extension " << e);
    REQUIRE(lib.has(e));
    CHECK(lib.bodies.at(e) == body);
  }
  // ECH GREASE: type and enc size as captured; the HPKE suite and the
  // payload length one of those the browser was seen to pick (Chromium picks
  // the length per connection, Firefox the AEAD).
  auto le = lib.ech();
  auto we = want.ech();
  CHECK(le.type == we.type);
  CHECK(le.enc == we.enc);
  std::set<std::pair<int, int>> suites;
  std::set<size_t> lengths;
  for (const Hello& h : b.hellos) {
    suites.emplace(h.ech().kdf, h.ech().aead);
    lengths.insert(h.ech().payload);
  }
  INFO("ECH suite " << le.kdf << "/" << le.aead << ", payload length " << le.payload);
  CHECK(suites.count({le.kdf, le.aead}) == 1);
  CHECK(lengths.count(le.payload) == 1);
}

void check_http2(const Browser& b, const json& cap) {
  const json& want = b.first_load;
  REQUIRE(cap["protocol"] == "h2");
  CHECK(cap["akamai"] == want["akamai"]);
  CHECK(cap["settings"] == want["settings"]);
  CHECK(cap["window_update"] == want["window_update"]);
  CHECK(cap["priority_frames"] == want["priority_frames"]);
  REQUIRE(cap["streams"].size() >= 1);
  const json& s = cap["streams"][0];
  const json& w = want["streams"][0];
  CHECK(s["stream_id"] == w["stream_id"]);
  CHECK(s["flags"] == w["flags"]);
  CHECK(s["priority"] == w["priority"]);
  std::vector<std::string> got_names, want_names;
  for (const auto& h : s["headers"]) got_names.push_back(h[0]);
  for (const auto& h : w["headers"]) want_names.push_back(h[0]);
  CHECK(got_names == want_names);
  // Regular headers: the values too (pseudo-headers carry the port and path).
  for (size_t i = 0; i < s["headers"].size() && i < w["headers"].size(); ++i) {
    if (w["headers"][i][0].get<std::string>()[0] != ':') CHECK(s["headers"][i] == w["headers"][i]);
  }
}

// customTlsClient from a profile file, as far as customTlsClient can say it.
json custom_from_profile(const json& p, const std::set<uint16_t>& drop) {
  const json& t = p["tls"];
  auto num = [](const json& v) -> int {
    std::string s = v.get<std::string>();
    if (s == "GREASE") return 0x0a0a;
    return std::stoi(s, nullptr, s.rfind("0x", 0) == 0 ? 16 : 10);
  };
  auto dash = [&](const json& list, const std::set<uint16_t>& skip) {
    std::string out;
    for (const auto& v : list) {
      int n = v.is_number() ? v.get<int>() : num(v);
      if (skip.count(static_cast<uint16_t>(n))) continue;
      out += (out.empty() ? "" : "-") + std::to_string(n);
    }
    return out;
  };
  auto hexes = [&](const json& list) {
    json out = json::array();
    for (const auto& v : list) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "%04x", num(v));
      out.push_back(buf);
    }
    return out;
  };
  std::string ja3 = "771," + dash(t["cipher_suites"], {}) + "," + dash(t["extensions"], drop) + "," +
                    dash(t["supported_groups"], {}) + "," +
                    dash(t.value("point_formats", json::array({0})), {});
  static const std::map<int, std::string> curves = {{0x0a0a, "GREASE"}, {0x11ec, "X25519MLKEM768"},
                                                    {29, "X25519"},     {23, "P256"},
                                                    {24, "P384"},       {25, "P521"}};
  static const std::map<int, std::string> versions = {{0x0a0a, "GREASE"}, {0x0304, "1.3"}, {0x0303, "1.2"}};
  static const std::map<int, std::string> compression = {{1, "zlib"}, {2, "brotli"}, {3, "zstd"}};
  json c = {{"ja3String", ja3},
            {"supportedSignatureAlgorithms", hexes(t["signature_algorithms"])},
            {"supportedVersions", json::array()},
            {"keyShareCurves", json::array()},
            {"alpnProtocols", t.value("alpn", json::array())},
            {"alpsProtocols", t.value("alps", json::array())},
            {"certCompressionAlgos", json::array()}};
  for (const auto& v : t["versions"]) c["supportedVersions"].push_back(versions.at(num(v)));
  for (const auto& v : t["key_share_groups"]) c["keyShareCurves"].push_back(curves.at(num(v)));
  for (const auto& v : t.value("cert_compression", json::array()))
    c["certCompressionAlgos"].push_back(compression.at(num(v)));
  if (t.contains("delegated_credential_algorithms")) {
    c["supportedDelegatedCredentialsAlgorithms"] = hexes(t["delegated_credential_algorithms"]);
  }
  if (t.contains("record_size_limit")) c["recordSizeLimit"] = t["record_size_limit"];
  if (t.contains("ech_grease")) {
    c["ECHCandidateCipherSuites"] = json::array();
    for (const auto& s : t["ech_grease"]["cipher_suites"]) {
      char kdf[8], aead[8];
      std::snprintf(kdf, sizeof kdf, "%04x", num(s[0]));
      std::snprintf(aead, sizeof aead, "%04x", num(s[1]));
      c["ECHCandidateCipherSuites"].push_back({{"kdfId", kdf}, {"aeadId", aead}});
    }
    c["ECHCandidatePayloads"] = t["ech_grease"]["payload_lengths"];
  }
  const json& h2 = p["http2"];
  c["h2Settings"] = json::object();
  c["h2SettingsOrder"] = json::array();
  for (const auto& s : h2["settings"]) {
    c["h2Settings"][s[0].get<std::string>()] = s[1];
    c["h2SettingsOrder"].push_back(s[0]);
  }
  c["connectionFlow"] = h2["connection_flow"];
  c["pseudoHeaderOrder"] = h2["pseudo_header_order"];
  c["streamId"] = h2.value("stream_id", 0);
  if (!h2["header_priority"].is_null()) {
    const json& hp = h2["header_priority"];
    c["headerPriority"] = {{"streamDep", hp["depends_on"]},
                           {"exclusive", hp["exclusive"]},
                           {"weight", hp["weight"].get<int>() - 1}};
  }
  c["priorityFrames"] = json::array();
  for (const auto& f : h2["priority_frames"]) {
    c["priorityFrames"].push_back({{"streamID", f["stream_id"]},
                                   {"priorityParam",
                                    {{"streamDep", f["depends_on"]},
                                     {"exclusive", f["exclusive"]},
                                     {"weight", f["weight"].get<int>() - 1}}}});
  }
  return c;
}

}  // namespace

TEST_CASE("browsers: the stored captures decode and agree with the profile files",
          "[browsers][browsers-data]") {
  for (const char* name : {"chromium_156", "firefox_153"}) {
    INFO(name);
    const Browser& b = browser(name);
    REQUIRE(b.captures.size() >= 3);
    REQUIRE(b.first_load.is_object());
    const json& t = b.profile["tls"];
    CHECK(b.profile["name"] == name);
    CHECK(t["permute_extensions"] == (std::string(name) == "chromium_156"));
    CHECK(t["share_x25519_key"] == b.hellos.front().same_x25519_key());
    CHECK(b.first_load["akamai"] == (std::string(name) == "chromium_156"
                                         ? "1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p"
                                         : "1:65536;2:0;4:131072;5:16384|12517377|0|m,p,a,s"));
    REQUIRE(b.profile["default_headers"].is_array());
    std::vector<json> regular;
    for (const auto& h : b.first_load["streams"][0]["headers"]) {
      if (h[0].get<std::string>()[0] != ':') regular.push_back(h);
    }
    CHECK(json(regular) == b.profile["default_headers"]);
  }
  // Chromium permutes: over the stored connections only GREASE keeps its place.
  const Browser& c = browser("chromium_156");
  std::set<std::vector<uint16_t>> orders;
  for (const Hello& h : c.hellos) orders.insert(h.extensions);
  CHECK(orders.size() > 1);
}

TEST_CASE("browsers: chromium_156 looks like Chromium 156", "[browsers][browsers-id]") {
  const Browser& b = browser("chromium_156");
  auto server = capture_server();
  json cap = request_with_default_headers(b, server.url, {{"tlsClientIdentifier", "chromium_156"}});
  check_tls(b, cap, /*permutes=*/true);
  check_http2(b, cap);
}

TEST_CASE("browsers: firefox_153 looks like Firefox ESR 153", "[browsers][browsers-id]") {
  const Browser& b = browser("firefox_153");
  auto server = capture_server();
  json cap = request_with_default_headers(b, server.url, {{"tlsClientIdentifier", "firefox_153"}});
  check_tls(b, cap, /*permutes=*/false);
  check_http2(b, cap);
}

// The same checks through customTlsClient, built from the profile files, so
// the files are exercised before the registry selects them by name.
TEST_CASE("browsers: chromium_156's file through customTlsClient", "[browsers][browsers-custom]") {
  const Browser& b = browser("chromium_156");
  auto server = capture_server();
  // customTlsClient takes upstream's extension ids only: trust anchors
  // (51764) has no field there; it does not permute without
  // withRandomTLSExtensionOrder, which the sorted comparison covers.
  Exceptions ex;
  ex.missing_extensions = {51764};
  json custom = custom_from_profile(b.profile, ex.missing_extensions);
  json cap = request_with_default_headers(b, server.url, {{"customTlsClient", custom}});
  check_tls(b, cap, /*permutes=*/true, ex);
  check_http2(b, cap);
}

TEST_CASE("browsers: firefox_153's file through customTlsClient", "[browsers][browsers-custom]") {
  const Browser& b = browser("firefox_153");
  auto server = capture_server();
  // customTlsClient has no field for one X25519 key shared by X25519 and
  // X25519MLKEM768 (share_x25519_key).
  Exceptions ex;
  ex.same_x25519_key = false;
  json custom = custom_from_profile(b.profile, {});
  json cap = request_with_default_headers(b, server.url, {{"customTlsClient", custom}});
  check_tls(b, cap, /*permutes=*/false, ex);
  check_http2(b, cap);
}
