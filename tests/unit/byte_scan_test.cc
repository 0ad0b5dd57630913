// The wide scans against the byte loop, and the JSON writer and UTF-8
// decoder built on them against plain restatements of their rules, on
// bounded random input (fixed seed) with every alignment.
#include "core/byte_scan.h"

#include <memory>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "abi/json_string.h"
#include "abi/json_writer.h"
#include "charset/decoders.h"
#include "charset/go_text.h"
#include "charset/tables.h"

namespace {

size_t ascii_reference(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

// Pieces a body is made of: plain text, every byte the scans stop at (and
// their neighbours), and UTF-8 that is valid, truncated or ill-formed.
const std::vector<std::string> kPieces = {"a",
                                          "Hello, world ",
                                          "0123456789abcdef0123456789",
                                          " ",
                                          "~",
                                          "\x7f",
                                          "\"",
                                          "\\",
                                          "<",
                                          ">",
                                          "&",
                                          std::string(1, '\0'),
                                          "\x1f",
                                          "\n",
                                          "\t",
                                          "\r",
                                          "\b",
                                          "\f",
                                          "\xc3\xa9",
                                          "\xe2\x82\xac",
                                          "\xe2\x80\xa8",
                                          "\xe2\x80\xa9",
                                          "\xf0\x9d\x84\x9e",
                                          "\xc3",
                                          "\xe2\x82",
                                          "\xf0\x9d\x84",
                                          "\x80",
                                          "\xbf",
                                          "\xc0\xaf",
                                          "\xc1",
                                          "\xf5",
                                          "\xff",
                                          "\xed\xa0\x80",
                                          "\xe0\x80\x80",
                                          "\xf4\x90\x80\x80",
                                          "\xf0\x80\x80\x80"};

std::string random_body(std::mt19937& rng) {
  std::string s;
  const int pieces = static_cast<int>(rng() % 40);
  for (int k = 0; k < pieces; ++k) s += kPieces[rng() % kPieces.size()];
  return s;
}

// Go's encoding/json (HTML-safe) for one string, restated rune by rune.
std::string go_json_reference(std::string_view s) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c == '\b') {  // \b and \f: Go 1.22 and later
        out += "\\b";
      } else if (c == '\f') {
        out += "\\f";
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // Decode one rune; anything but a shortest-form scalar value is one
    // invalid byte (utf8.DecodeRuneInString's RuneError, width 1).
    size_t len = c >= 0xF8 ? 0 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    uint32_t cp = len == 4 ? c & 7 : len == 3 ? c & 15 : c & 31;
    bool ok = len != 0 && i + len <= s.size();
    for (size_t k = 1; ok && k < len; ++k) {
      auto b = static_cast<unsigned char>(s[i + k]);
      ok = (b & 0xC0) == 0x80;
      cp = (cp << 6) | (b & 0x3F);
    }
    const uint32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
    ok = ok && cp >= min_for_len[len] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    if (!ok) {
      out += "\\ufffd";
      ++i;
    } else if (cp == 0x2028 || cp == 0x2029) {
      out += cp == 0x2028 ? "\\u2028" : "\\u2029";
      i += len;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out + "\"";
}

}  // namespace

TEST_CASE("byte scans: the wide steps agree with the byte loop at every alignment", "[byte_scan]") {
  std::mt19937 rng(20261202);
  std::string buffer;
  for (int round = 0; round < 3000; ++round) {
    std::string body = random_body(rng);
    for (size_t offset = 0; offset < 16; offset += 5) {
      buffer.assign(offset, 'x');
      buffer += body;
      const char* p = buffer.data() + offset;
      INFO("round " << round << ", offset " << offset);
      REQUIRE(tlsc::count_ascii_prefix(p, body.size()) == ascii_reference(body));
      REQUIRE(tlsc::detail::count_ascii_prefix_words(p, body.size()) == ascii_reference(body));
    }
  }
}

TEST_CASE("byte scans: a stop byte in every position of long plain runs", "[byte_scan]") {
  const std::string stops = std::string("\x80\xff\xc3", 3);
  for (size_t len = 1; len <= 70; ++len) {
    for (size_t at = 0; at < len; ++at) {
      for (char stop : stops) {
        std::string s(len, 'q');
        s[at] = stop;
        INFO("len " << len << ", stop at " << at << ", byte " << int(static_cast<unsigned char>(stop)));
        REQUIRE(tlsc::count_ascii_prefix(s.data(), s.size()) == at);
        REQUIRE(tlsc::detail::count_ascii_prefix_words(s.data(), s.size()) == at);
      }
    }
  }
}

namespace {
// Every version of the JSON string writer this machine can run (the one
// json_string_size and write_json_string pick, the 16-byte one, the 64-bit
// words, and AVX2 where the CPU has it) against Go's rules, their sizes
// against what they wrote, from every alignment of input and output.
struct JsonWriterVersion {
  const char* name;
  size_t (*size)(std::string_view);
  char* (*write)(char*, std::string_view);
};
std::vector<JsonWriterVersion> json_writer_versions() {
  std::vector<JsonWriterVersion> v = {
      {"dispatched", tlsc::json_string_size, tlsc::write_json_string},
      {"16-byte", tlsc::detail::json_string_size_vector, tlsc::detail::write_json_string_vector},
      {"words", tlsc::detail::json_string_size_words, tlsc::detail::write_json_string_words},
  };
#if TLSC_JSON_STRING_AVX2
  if (tlsc::detail::json_string_avx2_in_use())
    v.push_back({"avx2", tlsc::detail::json_string_size_avx2, tlsc::detail::write_json_string_avx2});
#endif
  return v;
}

void require_go_json(const std::string& body) {
  static const std::vector<JsonWriterVersion> versions = json_writer_versions();
  const std::string want = go_json_reference(body);
  for (const JsonWriterVersion& version : versions) {
    INFO("version " << version.name);
    REQUIRE(version.size(body) == want.size());
    for (size_t offset = 0; offset < 16; offset += 7) {
      std::string in(offset, 'x');
      in += body;
      const std::string_view view(in.data() + offset, body.size());
      // Exactly the room asked for, so that AddressSanitizer sees any write
      // past it.
      const size_t room = offset + want.size();
      auto out = std::make_unique<char[]>(room);
      REQUIRE(version.write(out.get() + offset, view) == out.get() + room);
      REQUIRE(std::string_view(out.get() + offset, want.size()) == want);
    }
  }
  std::string appended = "prefix";
  tlsc::append_json_string(appended, body);
  REQUIRE(appended == "prefix" + want);
}
}  // namespace

TEST_CASE("json: the AVX2 version runs where the CPU has AVX2", "[json][byte_scan]") {
#if TLSC_JSON_STRING_AVX2
  REQUIRE(tlsc::detail::json_string_avx2_in_use() == static_cast<bool>(__builtin_cpu_supports("avx2")));
#else
  REQUIRE_FALSE(tlsc::detail::json_string_avx2_in_use());
#endif
}

TEST_CASE("json: every byte in every position of long plain runs", "[json][byte_scan]") {
  std::vector<std::string> specials;
  for (int b = 0; b < 256; ++b) {
    if (b < 0x20 || b >= 0x7f ||
        std::string_view("\"\\<>&").find(static_cast<char>(b)) != std::string_view::npos)
      specials.push_back(std::string(1, static_cast<char>(b)));
  }
  // U+2028/9 and their neighbours with the same lead (U+2019, U+2027,
  // U+202A: copied as they are), across block edges.
  for (const char* seq : {"\xc3\xa9", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xf0\x9f\x98\x80", "\xe2\x80",
                          "\xe2\x80\x99", "\xe2\x80\xa7", "\xe2\x80\xaa", "\xe2\x82\xac"})
    specials.push_back(seq);
  for (size_t len : {1u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 33u, 40u, 63u, 64u, 65u, 97u}) {
    for (size_t at = 0; at < len; ++at) {
      for (const auto& special : specials) {
        std::string s(len, 'q');
        s.replace(at, 1, special);
        INFO("len " << len << ", at " << at << ", byte " << int(static_cast<unsigned char>(special[0])));
        require_go_json(s);
      }
    }
  }
}

TEST_CASE("json: strings escaped as Go's encoder escapes them, on random bodies", "[json][byte_scan]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 3000; ++round) {
    std::string body = random_body(rng);
    INFO("round " << round);
    require_go_json(body);
  }
}

TEST_CASE("json: text mostly outside ASCII, with rare ill-formed bytes, across block edges",
          "[json][byte_scan]") {
  // The block scan runs the UTF-8 DFA over whole blocks and carries a
  // character across their edges; a fault or U+2028 sends it back to the
  // character's lead byte. Characters of every length at every offset,
  // faults among them.
  const std::vector<std::string> valid = {"\xd0\x9f",
                                          "\xd1\x80",
                                          "\xe6\x97\xa5",
                                          "\xe3\x80\x82",
                                          "\xf0\x9f\x98\x80",
                                          "\xe2\x82\xac",
                                          "\xed\x9f\xbf",
                                          "\xef\xbf\xbd",
                                          "\xf4\x8f\xbf\xbf",
                                          "\xe2\x80\x99",
                                          "\xe2\x80\xa6",
                                          "\xe2\x80\xa7",
                                          "\xe2\x80\xaa",
                                          " ",
                                          "a",
                                          "<",
                                          "\""};
  const std::vector<std::string> faulty = {
      "\xe2\x80\xa8", "\xe2\x80\xa9", "\xff",         "\xc3",     "\xe6\x97",
      "\xf0\x9f\x98", "\x80",         "\xed\xa0\x80", "\xc0\x80", "\n"};
  std::mt19937 rng(20261204);
  for (int round = 0; round < 4000; ++round) {
    std::string body;
    const size_t len = 20 + rng() % 300;
    const unsigned fault_in = 4 + rng() % 60;  // one piece in this many is a fault
    while (body.size() < len) {
      body += rng() % fault_in == 0 ? faulty[rng() % faulty.size()] : valid[rng() % valid.size()];
    }
    INFO("round " << round);
    require_go_json(body);
  }
}

TEST_CASE("charset: UTF-8 bodies keep their bytes, bad ones get U+FFFD per maximal subpart", "[byte_scan]") {
  // Valid text comes back byte for byte; each ill-formed piece of kPieces
  // becomes the U+FFFDs x/text writes for it.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"\xc3", "\xef\xbf\xbd"},
      {"\xe2\x82", "\xef\xbf\xbd"},
      {"\xf0\x9d\x84", "\xef\xbf\xbd"},
      {"\x80", "\xef\xbf\xbd"},
      {"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"},
      {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
      {"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
  };
  std::mt19937 rng(11);
  const std::vector<std::string> good = {"plain ascii text, long enough for a wide step ",
                                         "\xc3\xa9",
                                         "\xe2\x82\xac",
                                         "\xf0\x9d\x84\x9e",
                                         "<&>\"\\",
                                         std::string(1, '\0')};
  for (int round = 0; round < 2000; ++round) {
    std::string in, expected;
    const int pieces = static_cast<int>(rng() % 30);
    for (int k = 0; k < pieces; ++k) {
      if (rng() % 4 == 0) {
        const auto& [b, e] = bad[rng() % bad.size()];
        // A '.' after it, so that the next piece cannot complete it.
        in += b + ".";
        expected += e + ".";
      } else {
        const std::string& g = good[rng() % good.size()];
        in += g;
        expected += g;
      }
    }
    INFO("round " << round);
    REQUIRE(tlsc::charset::detail::decode_utf8(in) == expected);
  }
}

TEST_CASE("charset: long text outside ASCII goes through the DFA and keeps x/text's U+FFFDs", "[byte_scan]") {
  // Blocks of 16 through the DFA, characters across their edges, faults
  // rare or in crowds.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"\xc3", "\xef\xbf\xbd"},         {"\xe2\x82", "\xef\xbf\xbd"},
      {"\xf0\x9d\x84", "\xef\xbf\xbd"}, {"\x80", "\xef\xbf\xbd"},
      {"\xff", "\xef\xbf\xbd"},         {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
  };
  const std::vector<std::string> good = {"\xd0\x9f", "\xe6\x97\xa5", "\xf0\x9d\x84\x9e", "\xc3\xa9",
                                         "\xe2\x80\xa8"};
  std::mt19937 rng(12);
  for (int round = 0; round < 3000; ++round) {
    std::string in, expected;
    size_t first_bad = std::string::npos;
    const unsigned bad_in = 2 + rng() % 80;
    const size_t len = 16 + rng() % 400;
    while (in.size() < len) {
      if (rng() % bad_in == 0) {
        const auto& [b, e] = bad[rng() % bad.size()];
        if (first_bad == std::string::npos) first_bad = in.size();
        in += b + ".";  // so that the next piece cannot complete it
        expected += e + ".";
      } else {
        const std::string& g = good[rng() % good.size()];
        in += g;
        expected += g;
      }
    }
    INFO("round " << round);
    REQUIRE(tlsc::charset::detail::decode_utf8(in) == expected);
    REQUIRE(tlsc::charset::detail::valid_utf8_prefix(in) == std::min(first_bad, in.size()));
  }
}

TEST_CASE("charset: single-byte decoding copies ASCII runs and maps every high byte", "[byte_scan]") {
  std::mt19937 rng(13);
  const auto& table = tlsc::charset::tables::windows1252;
  for (int round = 0; round < 2000; ++round) {
    std::string in;
    const size_t len = rng() % 90;
    for (size_t k = 0; k < len; ++k) {
      // Mostly ASCII, as real text: the runs the scan copies, broken by
      // high bytes at every position.
      in.push_back(static_cast<char>(rng() % 5 == 0 ? 0x80 + rng() % 128 : rng() % 128));
    }
    std::string expected;
    for (char ch : in) {
      auto b = static_cast<unsigned char>(ch);
      if (b < 0x80) {
        expected.push_back(ch);
      } else {
        tlsc::charset::detail::append_utf8(expected, table[b - 0x80]);
      }
    }
    INFO("round " << round);
    REQUIRE(tlsc::charset::detail::decode_single_byte(in, table) == expected);
  }
}
