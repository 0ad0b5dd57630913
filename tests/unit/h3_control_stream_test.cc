// wire/h3_control_stream: a browser's SETTINGS frame, its GREASE setting
// and its GREASE frame, byte for byte and read back.
#include "wire/h3_control_stream.h"

#include <random>
#include <set>
#include <string>

#include <catch2/catch.hpp>

namespace {

uint64_t read_varint(const std::string& s, size_t& pos) {
  REQUIRE(pos < s.size());
  const auto first = static_cast<uint8_t>(s[pos]);
  const size_t len = size_t{1} << (first >> 6);
  REQUIRE(pos + len <= s.size());
  uint64_t v = first & 0x3f;
  for (size_t i = 1; i < len; ++i) v = (v << 8) | static_cast<uint8_t>(s[pos + i]);
  pos += len;
  return v;
}

}  // namespace

TEST_CASE("HTTP/3 control frames: SETTINGS in the given order, nothing random without GREASE",
          "[quic][wire]") {
  tlsc::H3ControlStreamSpec spec;
  spec.settings = {{0x1, 65536},  {0x7, 20}, {0x2b603742, 0},
                   {0xffd277, 1}, {0x33, 1}, {0x8, 1}};  // Firefox 153's
  int draws = 0;
  const std::string out = tlsc::encode_h3_control_frames(spec, [&] {
    ++draws;
    return uint64_t{0};
  });
  // type 4, length 21, then the pairs.
  CHECK(out == std::string("\x04\x15"
                           "\x01\x80\x01\x00\x00"
                           "\x07\x14"
                           "\xab\x60\x37\x42\x00"
                           "\x80\xff\xd2\x77\x01"
                           "\x33\x01"
                           "\x08\x01",
                           23));
  CHECK(draws == 0);
}

TEST_CASE("HTTP/3 control frames: Chromium's GREASE setting last and a GREASE frame after SETTINGS",
          "[quic][wire]") {
  tlsc::H3ControlStreamSpec spec;
  spec.settings = {{0x1, 65536}, {0x6, 262144}, {0x7, 100}, {0x33, 1}};
  spec.grease_setting = true;
  spec.grease_frame = true;
  std::mt19937_64 rng(7);
  std::set<uint64_t> grease_ids, frame_types;
  std::set<size_t> frame_lengths;
  for (int i = 0; i < 200; ++i) {
    const std::string out = tlsc::encode_h3_control_frames(spec, [&] { return rng(); });
    size_t pos = 0;
    REQUIRE(read_varint(out, pos) == 0x04);
    const uint64_t length = read_varint(out, pos);
    const size_t end = pos + length;
    std::vector<uint64_t> ids;
    while (pos < end) {
      ids.push_back(read_varint(out, pos));
      const uint64_t value = read_varint(out, pos);
      if (ids.size() == 5) CHECK(value <= 0xffffffffu);
    }
    REQUIRE(pos == end);
    REQUIRE(ids.size() == 5);
    CHECK(std::vector<uint64_t>(ids.begin(), ids.end() - 1) == std::vector<uint64_t>{0x1, 0x6, 0x7, 0x33});
    CHECK(tlsc::is_reserved_h3_code(ids.back()));
    grease_ids.insert(ids.back());
    const uint64_t type = read_varint(out, pos);
    CHECK(tlsc::is_reserved_h3_code(type));
    frame_types.insert(type);
    const uint64_t n = read_varint(out, pos);
    CHECK(n <= 3);
    frame_lengths.insert(n);
    CHECK(pos + n == out.size());
  }
  CHECK(grease_ids.size() > 190);
  CHECK(frame_types.size() > 190);
  CHECK(frame_lengths.size() == 4);
  CHECK_FALSE(tlsc::is_reserved_h3_code(0x33));
  CHECK(tlsc::is_reserved_h3_code(0x21));
}
