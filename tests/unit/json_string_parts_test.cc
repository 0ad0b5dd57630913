// The JSON string of a text held in parts (abi/json_string_parts.h) against
// the JSON string of the joined text (abi/json_string.h, itself checked
// against Go's rules in byte_scan_test.cc): every character that Go's
// encoder treats apart, cut by a part's end at each of its bytes; random
// text in random parts; parts too short to be cut (joined instead). The
// room is exact, so that AddressSanitizer sees a write past it.
#include "abi/json_string_parts.h"

#include <memory>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "abi/json_string.h"

namespace {

std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& p : parts) text += p;
  return text;
}

void require_same_as_joined(std::vector<std::string> parts) {
  const std::string text = joined(parts);
  std::string want;
  tlsc::append_json_string(want, text);
  REQUIRE(tlsc::json_string_size_of_parts(parts) == want.size());
  auto out = std::make_unique<char[]>(want.size());
  REQUIRE(tlsc::write_json_string_of_parts(out.get(), parts) == out.get() + want.size());
  REQUIRE(std::string_view(out.get(), want.size()) == want);
  REQUIRE(joined(parts) == text);  // left as they were
  auto released = std::make_unique<char[]>(want.size());
  REQUIRE(tlsc::write_json_string_of_parts_releasing(released.get(), parts) == released.get() + want.size());
  REQUIRE(std::string_view(released.get(), want.size()) == want);
  for (const std::string& p : parts) REQUIRE(p.empty());
}

// Go's encoder treats each of these apart: escapes, characters of every
// UTF-8 length, the line separators, and ill-formed bytes of every kind.
const std::vector<std::string> kSpecial = {
    "\"",
    "<",
    "\x01",
    "\xC3\xA9",
    "\xE2\x82\xAC",
    "\xE2\x80\xA8",
    "\xE2\x80\xA9",
    "\xF0\x9F\x98\x80",
    "\xF4\x8F\xBF\xBF",
    "\x80",
    "\xBF\x80",
    "\xC3",
    "\xE2\x80",
    "\xF0\x9F\x98",
    "\xC0\x80",
    "\xED\xA0\x80",
    "\xF4\x90\x80\x80",
    "\xFF",
    "\xF8\x88\x80\x80\x80",
};

}  // namespace

TEST_CASE("json parts: each special character cut by a part's end at each byte", "[json][json_parts]") {
  for (const std::string& special : kSpecial) {
    for (const std::string& after :
         {std::string("plain text"), std::string("\x80\x80\x80 x"), std::string("\xA8z")}) {
      const std::string text = std::string(40, 'a') + special + after + std::string(40, 'b');
      for (size_t cut = 33; cut <= 40 + special.size() + after.size() + 3; ++cut) {
        INFO("special " << special.size() << " bytes, cut at " << cut << ", after " << after.size());
        require_same_as_joined({text.substr(0, cut), text.substr(cut)});
        // Three parts, the middle one as short as may be cut.
        if (cut + 8 <= text.size()) {
          require_same_as_joined({text.substr(0, cut), text.substr(cut, 8), text.substr(cut + 8)});
        }
      }
    }
  }
}

TEST_CASE("json parts: random text in random parts", "[json][json_parts]") {
  std::mt19937 rng(20261206);
  for (int round = 0; round < 400; ++round) {
    std::string text;
    const size_t pieces = rng() % 200;
    for (size_t k = 0; k < pieces; ++k) {
      const unsigned kind = rng() % 4;
      if (kind == 0) {
        text += kSpecial[rng() % kSpecial.size()];
      } else if (kind == 1) {
        text.push_back(static_cast<char>(rng() % 256));
      } else {
        text.append(rng() % 70, static_cast<char>('a' + rng() % 26));
      }
    }
    std::vector<std::string> parts;
    size_t at = 0;
    const size_t smallest = round % 4 == 0 ? 1 : 8;  // a quarter with parts too short to cut
    while (at < text.size()) {
      const size_t size = smallest + rng() % 90;
      parts.push_back(text.substr(at, size));
      at += size;
    }
    INFO("round " << round);
    require_same_as_joined(parts);
  }
}

TEST_CASE("json parts: no parts, empty parts, one part", "[json][json_parts]") {
  require_same_as_joined({});
  require_same_as_joined({""});
  require_same_as_joined({"only one, with <markup> and \xE2\x80\xA8"});
  require_same_as_joined({"", "x"});  // too short to cut: joined
  require_same_as_joined({"long enough part", ""});
}
