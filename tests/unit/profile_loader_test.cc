// The profile file parser (profiles/SCHEMA.md) and the registry's loading
// of built-in and user files.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "profiles/profile.h"
#include "profiles/registry.h"

using tlsc::parse_profile;

namespace {

std::string minimal(const std::string& name, const std::string& tls_extra = "",
                    const std::string& top_extra = "") {
  return R"({"name": ")" + name + R"(", "tls": {"cipher_suites": ["0x1301"], "extensions": ["0", "43", "51"],
             "versions": ["0x0304"], "key_share_groups": ["0x001d"])" +
         tls_extra + "}" + top_extra + "}";
}

std::string reason(const std::string& text) {
  auto p = parse_profile(text);
  REQUIRE(!p);
  return p.error().message;
}

// A fresh directory under /tmp, removed afterwards.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("tlsc-profiles-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
  static inline int counter = 0;
};

}  // namespace

TEST_CASE("profile parser: a minimal file and its defaults", "[profiles]") {
  auto p = parse_profile(minimal("x_1"));
  REQUIRE(p);
  CHECK(p->name == "x_1");
  CHECK(p->tls.cipher_suites == std::vector<uint16_t>{0x1301});
  CHECK(p->tls.extensions == std::vector<uint16_t>{0, 43, 51});
  CHECK(p->tls.point_formats == std::vector<uint8_t>{0});
  CHECK(p->http2 == nlohmann::json::object());
  CHECK(p->http3.is_null());
  CHECK(!p->allow_http);
}

TEST_CASE("profile parser: early_data (42) and renegotiation_info need no contents", "[profiles]") {
  auto p = parse_profile(
      R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["0", "42", "65281", "43", "51"],
                             "versions": ["0x0304"], "key_share_groups": ["0x001d"]}})");
  REQUIRE(p);
  CHECK(p->tls.extensions == std::vector<uint16_t>{0, 42, 65281, 43, 51});
  CHECK(p->tls.raw_extensions.empty());
}

TEST_CASE("profile parser: malformed files are refused with the field and the reason", "[profiles]") {
  CHECK(reason("{") == "not valid JSON");
  CHECK(reason(R"({"tls": {}})").starts_with("name: required"));
  CHECK(reason(minimal("a b")).starts_with("name: "));
  CHECK(reason(minimal("x", "", R"(, "colour": 1)")) == "profile: unknown field \"colour\"");
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["0", "99"]}})") ==
        "tls.extensions: 99 has no contents: give it a body in raw_extensions");
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["41", "0"]}})") ==
        "tls.extensions: pre_shared_key (41) must be last");
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["0", "0"]}})") ==
        "tls.extensions: 0 listed twice");
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["17513", "17613"],
                  "alps": ["h2"], "alpn": ["h2"]}})") ==
        "tls.extensions: ALPS on both code points (17513 and 17613)");
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["17613"]}})") ==
        "tls.alps: ALPS is listed in extensions but has no protocols");
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["27"],
                  "cert_compression": [4]}})") ==
        "tls.cert_compression: only 1 (zlib), 2 (brotli), 3 (zstd) can be decompressed");
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["51"],
                  "raw_extensions": {"51": "00"}}})")
            .find("cannot be sent raw") != std::string::npos);
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["0"],
                  "raw_extensions": {"4660": "abc"}}})")
            .starts_with("tls.raw_extensions.4660: "));
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x10000"], "extensions": ["0"]}})")
            .starts_with("tls.cipher_suites[0]: expected a number up to 65535"));
  CHECK(reason(minimal("x", R"(, "record_size_limit": 20000)")).starts_with("tls.record_size_limit: "));
  CHECK(reason(minimal("x", "", R"(, "http2": {"priority_frames": [{"stream_id": 3, "weight": 0}]})")) ==
        "http2.priority_frames[0].weight: the HTTP/2 weight is 1 to 256 (upstream's Weight + 1)");
  CHECK(reason(minimal("x", "", R"(, "http2": {"pseudo_header_order": [":method", ":method"]})")) ==
        "http2.pseudo_header_order: :method listed twice");
  CHECK(reason(minimal("x", "", R"(, "http2": {"settings": [["NO_SUCH", 1]]})"))
            .starts_with("http2.settings[0]: expected a number"));
  CHECK(reason(minimal("x", "", R"(, "http2": {"settings": [["HEADER_TABLE_SIZE", -1]]})"))
            .starts_with("http2.settings[0]: "));
  CHECK(reason(minimal("x", "", R"(, "allow_http": "yes")")) == "profile.allow_http: expected true or false");
}

TEST_CASE("profile parser: trust_anchors, in an order of the process's own", "[profiles]") {
  auto text = [&](const std::string& ids) {
    return R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "versions": ["0x0304"],
               "key_share_groups": ["0x001d"], "extensions": ["0", "43", "51", "51764"], "trust_anchors": )" +
           ids + "}}";
  };
  auto a = parse_profile(text(R"(["aa", "bbcc", "dd"])"));
  REQUIRE(a);
  const std::string body = a->tls.raw_extensions.at(51764);
  // u16 length, then each ID behind its u8 length.
  REQUIRE(body.size() == 2 + 2 + 3 + 2);
  CHECK(body.substr(0, 2) == std::string("\x00\x07", 2));
  std::multiset<std::string> ids;
  for (size_t i = 2; i < body.size(); i += 1 + static_cast<unsigned char>(body[i]))
    ids.insert(body.substr(i + 1, static_cast<unsigned char>(body[i])));
  CHECK(ids == std::multiset<std::string>{"\xaa", "\xbb\xcc", "\xdd"});
  // The same IDs in any order give the same body in one process.
  auto b = parse_profile(text(R"(["dd", "aa", "bbcc"])"));
  REQUIRE(b);
  CHECK(b->tls.raw_extensions.at(51764) == body);
  CHECK(reason(text(R"(["aa", ""])")) == "tls.trust_anchors[1]: a trust anchor ID is 1 to 255 bytes");
  CHECK(reason(text("[\"" + std::string(512, 'a') + "\"]")) ==
        "tls.trust_anchors[0]: a trust anchor ID is 1 to 255 bytes");
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["0"],
                  "trust_anchors": ["aa"]}})") ==
        "tls.trust_anchors: 51764 (trust_anchors) is not in extensions");
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["51764"],
                  "trust_anchors": ["aa"], "raw_extensions": {"51764": "0000"}}})") ==
        "tls.trust_anchors: give the IDs here or a raw body for 51764, not both");
}

TEST_CASE("profile registry: the built-in files, their aliases and the default", "[profiles]") {
  auto set = tlsc::load_profile_set(tlsc::builtin_profile_texts(), "");
  CHECK(set.problems.empty());
  CHECK(set.profiles.size() >= 80);
  REQUIRE(set.find("chrome_133") != nullptr);
  REQUIRE(set.find("mms_ios_1") != nullptr);
  CHECK(set.find("mms_ios_1") == set.find("mms_ios"));
  CHECK(set.find("no_such") == nullptr);
  CHECK(tlsc::find_profile("no_such").name == "chrome_133");
  CHECK(tlsc::find_profile("").name == "chrome_133");
  CHECK(tlsc::find_profile("firefox_148").name == "firefox_148");
  // The HTTP/2 block is there for the HTTP/2 code to read.
  CHECK(tlsc::find_profile("chrome_133").http2["connection_flow"] == 15663105);
  CHECK(tlsc::find_profile("chrome_146_PSK").tls.extensions.back() == 41);
  // Upstream's PRs #259 and #265: their own files, not the default.
  for (const char* id : {"chrome_150", "chrome_150_PSK", "chrome_152", "chrome_152_PSK"}) {
    CHECK(tlsc::find_profile(id).name == id);
  }
  CHECK(tlsc::find_profile("chrome_150_PSK").tls.extensions.back() == 41);
  CHECK(tlsc::find_profile("chrome_152_PSK").tls.extensions.back() == 41);
}

TEST_CASE("profile registry: a user directory with a good and a bad file", "[profiles]") {
  TempDir dir;
  dir.write("good.json", minimal("user_one", "", R"(, "aliases": ["user_one_b"])"));
  dir.write("bad.json", R"({"name": "user_two", "tls": {"cipher_suites": [], "extensions": ["0"]}})");
  dir.write("notes.txt", "not a profile");
  auto set = tlsc::load_profile_set(tlsc::builtin_profile_texts(), dir.path.string());
  REQUIRE(set.problems.size() == 1);
  CHECK(set.problems[0].file == (dir.path / "bad.json").string());
  CHECK(set.problems[0].reason == "tls.cipher_suites: empty");
  REQUIRE(set.find("user_one") != nullptr);
  CHECK(set.find("user_one_b") == set.find("user_one"));
  CHECK(set.find("user_two") == nullptr);
  CHECK(set.find("chrome_133") != nullptr);
}

TEST_CASE("profile registry: a user file replaces a built-in identifier; two user files may not share one",
          "[profiles]") {
  TempDir dir;
  dir.write("a.json", minimal("chrome_133"));
  dir.write("b.json", minimal("other", "", R"(, "aliases": ["chrome_133"])"));
  auto set = tlsc::load_profile_set(tlsc::builtin_profile_texts(), dir.path.string());
  REQUIRE(set.problems.size() == 1);
  CHECK(set.problems[0].reason == "identifier chrome_133 is already defined by another file");
  REQUIRE(set.find("chrome_133") != nullptr);
  CHECK(set.find("chrome_133")->tls.cipher_suites == std::vector<uint16_t>{0x1301});
  // A directory that does not exist is one problem, not a crash.
  auto none = tlsc::load_profile_set({}, (dir.path / "missing").string());
  REQUIRE(none.problems.size() == 1);
  CHECK(none.problems[0].reason.starts_with("cannot read the directory"));
}

TEST_CASE("profile parser: a GREASE HTTP/2 setting, drawn per connection", "[profiles]") {
  auto p = parse_profile(
      minimal("x_grease", "", R"(, "http2": {"settings": [["HEADER_TABLE_SIZE", 65536], ["GREASE", 7]]})"));
  REQUIRE(p);
  REQUIRE(p->h2.settings.size() == 2);
  CHECK(p->h2.settings[1] == std::pair<uint16_t, uint32_t>{tlsc::kGreaseSettingId, 7});
  CHECK(p->h2.akamai().starts_with("1:65536;GREASE:7|"));
  // The ids a connection may draw: 0x0a0a, 0x1a1a, ... 0xfafa.
  std::set<uint16_t> ids;
  for (uint32_t draw = 0; draw < 64; ++draw) ids.insert(tlsc::grease_setting_id(draw));
  CHECK(ids.size() == 16);
  CHECK(*ids.begin() == 0x0a0a);
  CHECK(*ids.rbegin() == 0xfafa);
  for (uint16_t id : ids) CHECK((id & 0x0f0f) == 0x0a0a);
  // Lower case is no setting name.
  CHECK(!parse_profile(minimal("x_grease", "", R"(, "http2": {"settings": [["grease", 7]]})")));
}

namespace {

// A profile whose http3.quic block has the given "tls".
std::string with_quic_tls(const std::string& quic_tls) {
  return minimal("q", "",
                 R"(, "http3": {"quic": {"version": 1, "dcid_length": 8, "scid_length": 0,
                      "transport_parameters": {"parameters": [[1, 30000]]}, "tls": )" +
                     quic_tls + "}}");
}

}  // namespace

TEST_CASE("profile parser: http3.quic.tls, the QUIC ClientHello, and its rules", "[profiles]") {
  const std::string good =
      R"({"cipher_suites": ["0x1301"], "extensions": ["0", "57", "43", "51", "16"], "versions": ["0x0304"],
          "key_share_groups": ["0x001d"], "alpn": ["h3"]})";
  auto p = parse_profile(with_quic_tls(good));
  REQUIRE(p);
  REQUIRE(p->quic_tls.has_value());
  CHECK(p->quic_tls->extensions == std::vector<uint16_t>{0, 57, 43, 51, 16});
  CHECK(p->quic_tls->alpn == std::vector<std::string>{"h3"});
  CHECK_FALSE(parse_profile(minimal("x"))->quic_tls.has_value());

  // 57 belongs to QUIC: refused in the TCP hello, required in the QUIC one.
  CHECK(reason(R"({"name": "x", "tls": {"cipher_suites": ["0x1301"], "extensions": ["0", "57"]}})") ==
        "tls.extensions: 57 (quic_transport_parameters) goes in a QUIC ClientHello only: http3.quic.tls");
  CHECK(reason(with_quic_tls(R"({"cipher_suites": ["0x1301"], "extensions": ["0", "43", "51", "16"],
                                 "versions": ["0x0304"], "key_share_groups": ["0x001d"], "alpn": ["h3"]})")) ==
        "http3.quic.tls.extensions: 57 (quic_transport_parameters) is required in a QUIC ClientHello");
  CHECK(reason(with_quic_tls(R"({"cipher_suites": ["0x1301"], "extensions": ["0", "57", "43", "51", "16"],
                                 "versions": ["0x0304", "0x0303"], "key_share_groups": ["0x001d"],
                                 "alpn": ["h3"]})")) ==
        "http3.quic.tls.versions: a QUIC ClientHello offers TLS 1.3 (0x0304) alone");
  CHECK(reason(with_quic_tls(R"({"cipher_suites": ["0x1301"], "extensions": ["0", "57", "43", "51"],
                                 "versions": ["0x0304"], "key_share_groups": ["0x001d"]})")) ==
        "http3.quic.tls.alpn: a QUIC ClientHello offers ALPN");
  // The field rules of "tls" hold, under the block's own name.
  CHECK(reason(with_quic_tls(R"({"cipher_suites": ["0x1301"], "extensions": ["0", "57", "0"]})")) ==
        "http3.quic.tls.extensions: 0 listed twice");
}

TEST_CASE("profile registry: chromium_156 and firefox_153 carry their browsers' QUIC ClientHello",
          "[profiles]") {
  const tlsc::Profile* chromium = tlsc::lookup_profile("chromium_156");
  REQUIRE(chromium != nullptr);
  REQUIRE(chromium->quic_tls.has_value());
  CHECK(chromium->quic_tls->alpn == std::vector<std::string>{"h3"});
  CHECK(chromium->quic_tls->alps == std::vector<std::string>{"h3"});
  CHECK(std::count(chromium->quic_tls->extensions.begin(), chromium->quic_tls->extensions.end(),
                   tlsc::kGrease) == 0);
  const tlsc::Profile* firefox = tlsc::lookup_profile("firefox_153");
  REQUIRE(firefox != nullptr);
  REQUIRE(firefox->quic_tls.has_value());
  CHECK(firefox->quic_tls->record_size_limit == 16385);
}

TEST_CASE("profile registry: upstream's profiles with HTTP/3 settings take their family's QUIC layer",
          "[profiles]") {
  // Every profile with an http3 block has a QUIC fingerprint, so that
  // withProtocolRacing races for it; the upstream ones borrow the captured
  // browser's (profiles/tools/convert_upstream.py, QUIC_FROM_CAPTURE).
  const auto [name, captured] = GENERATE(table<std::string, std::string>({
      {"chrome_144", "chromium_156"},
      {"chrome_144_PSK", "chromium_156"},
      {"firefox_147", "firefox_153"},
      {"firefox_147_PSK", "firefox_153"},
      {"firefox_148", "firefox_153"},
  }));
  INFO(name);
  const tlsc::Profile* profile = tlsc::lookup_profile(name);
  const tlsc::Profile* browser = tlsc::lookup_profile(captured);
  REQUIRE(profile != nullptr);
  REQUIRE(browser != nullptr);
  REQUIRE(profile->h3.has_value());
  REQUIRE(profile->quic.has_value());
  REQUIRE(profile->quic_tls.has_value());
  CHECK(profile->quic->version == browser->quic->version);
  CHECK(profile->quic->dcid_length == browser->quic->dcid_length);
  CHECK(profile->quic->scid_length == browser->quic->scid_length);
  CHECK(profile->quic->max_datagram_size.ipv4 == browser->quic->max_datagram_size.ipv4);
  CHECK(profile->quic->transport_parameters.parameters.size() ==
        browser->quic->transport_parameters.parameters.size());
  CHECK(profile->quic->transport_parameters.shuffled == browser->quic->transport_parameters.shuffled);
  CHECK(profile->quic_tls->extensions == browser->quic_tls->extensions);
  CHECK(profile->quic_tls->cipher_suites == browser->quic_tls->cipher_suites);
  CHECK(profile->quic_tls->signature_algorithms == browser->quic_tls->signature_algorithms);
}

TEST_CASE("profile parser: http3 above QUIC, as the connection's H3Fingerprint", "[profiles]") {
  auto p = parse_profile(
      minimal("h", "", R"(, "http3": {"settings": [["0x1", 65536], ["0x6", 262144], ["0x33", 1]],
      "grease_setting": true, "send_grease_frames": true, "priority_param": 984832,
      "pseudo_header_order": [":method", ":authority", ":scheme", ":path"]})"));
  REQUIRE(p);
  REQUIRE(p->h3.has_value());
  using Settings = std::vector<std::pair<uint64_t, uint64_t>>;
  CHECK(p->h3->control.settings == Settings{{1, 65536}, {6, 262144}, {0x33, 1}});
  CHECK(p->h3->control.grease_setting);
  CHECK(p->h3->control.grease_frame);
  CHECK(p->h3->priority_param == tlsc::kH3PriorityUpdateFrame);
  CHECK(p->h3->pseudo_header_order == std::vector<std::string>{":method", ":authority", ":scheme", ":path"});
  CHECK_FALSE(parse_profile(minimal("x"))->h3.has_value());

  // settings_order: the listed ids in its order, those without a value
  // given upstream transport's own (0x6: 262144, 0x33: 1) or left out;
  // values it does not list follow.
  auto ordered =
      parse_profile(minimal("o", "", R"(, "http3": {"settings": [["0x1", 1], ["0x7", 2], ["0x8", 1]],
      "settings_order": ["0x7", "0x6", "0x2", "0x1", "0x33"]})"));
  REQUIRE(ordered);
  CHECK(ordered->h3->control.settings == Settings{{7, 2}, {6, 262144}, {1, 1}, {0x33, 1}, {8, 1}});
  CHECK_FALSE(ordered->h3->control.grease_setting);  // no priority_param, no grease_setting
  CHECK(ordered->h3->priority_param == 0);

  CHECK(reason(minimal("d", "", R"(, "http3": {"settings": [["0x1", 1], ["1", 2]]})")) ==
        "profile http3.settings: \"1\" twice");

  // Upstream's chrome_144: its map has 0x1 and 0x7, its order names 0x6 and
  // 0x33 too; upstream's SETTINGS are 1=65536, 6=262144, 7=100, 0x33=1 and
  // a GREASE setting (it sends PRIORITY_UPDATE).
  const tlsc::Profile* chrome_144 = tlsc::lookup_profile("chrome_144");
  REQUIRE(chrome_144 != nullptr);
  REQUIRE(chrome_144->h3.has_value());
  CHECK(chrome_144->h3->control.settings == Settings{{1, 65536}, {6, 262144}, {7, 100}, {0x33, 1}});
  CHECK(chrome_144->h3->control.grease_setting);
  CHECK(chrome_144->h3->control.grease_frame);
  const tlsc::Profile* firefox_147 = tlsc::lookup_profile("firefox_147");
  REQUIRE(firefox_147 != nullptr);
  CHECK_FALSE(firefox_147->h3->control.grease_setting);
}

TEST_CASE("profile parser: http3.quic.max_datagram_size, per address family", "[profiles]") {
  const auto with_size = [](const std::string& size) {
    return minimal("q", "",
                   R"(, "http3": {"quic": {"version": 1, "dcid_length": 8, "scid_length": 0,
                        "max_datagram_size": )" +
                       size + R"(, "transport_parameters": {"parameters": [[1, 30000]]}}})");
  };
  auto p = parse_profile(with_size(R"({"ipv4": 1250, "ipv6": 1230})"));
  REQUIRE(p);
  CHECK(p->quic->max_datagram_size.ipv4 == 1250);
  CHECK(p->quic->max_datagram_size.ipv6 == 1230);
  const std::string why =
      "profile http3.quic.max_datagram_size: {\"ipv4\": 1200..1472, \"ipv6\": 1200..1452}";
  CHECK(reason(with_size(R"({"ipv4": 1199, "ipv6": 1230})")) == why);  // below QUIC's 1200
  CHECK(reason(with_size(R"({"ipv4": 1250, "ipv6": 1472})")) == why);  // more than IPv6 leaves of 1500
  CHECK(reason(with_size(R"({"ipv4": 1250})")) == why);
  CHECK(reason(with_size(R"({"ipv4": 1250, "ipv6": 1230, "ipv5": 1})")) == why);
  CHECK(reason(with_size("1250")) == why);
  // Absent: ngtcp2's own sizing.
  auto none = parse_profile(minimal("n", "", R"(, "http3": {"quic": {"version": 1, "dcid_length": 8,
      "scid_length": 0, "transport_parameters": {"parameters": [[1, 30000]]}}})"));
  REQUIRE(none);
  CHECK(none->quic->max_datagram_size.ipv4 == 0);
}
