// tests/servers/h3_frames.h, the HTTP/3 capture server's reader of a
// client's stream bytes: the same frames whether the bytes come whole or
// one at a time, DATA counted but not kept, oversized control frames refused.
#include "servers/h3_frames.h"

#include <catch2/catch.hpp>

namespace {

using h3_frames::Bytes;

void put_varint(Bytes& out, uint64_t v) {
  if (v < 64) {
    out.push_back(static_cast<uint8_t>(v));
  } else if (v < 16384) {
    out.push_back(static_cast<uint8_t>(0x40 | (v >> 8)));
    out.push_back(static_cast<uint8_t>(v));
  } else {
    for (int i = 3; i >= 0; --i)
      out.push_back(static_cast<uint8_t>((i == 3 ? 0x80 : 0) | ((v >> (8 * i)) & 0xff)));
  }
}

void put_frame(Bytes& out, uint64_t type, const Bytes& payload) {
  put_varint(out, type);
  put_varint(out, payload.size());
  out.insert(out.end(), payload.begin(), payload.end());
}

// A control stream as Chromium 156 sends it (tests/data/browsers/chromium_156/h3_captures.jsonl):
// SETTINGS 1:65536, 6:262144, 7:100, 51:1 and a GREASE setting, a GREASE
// frame, PRIORITY_UPDATE for stream 0 "u=0, i".
Bytes chromium_control_stream() {
  Bytes settings;
  for (auto [id, value] :
       {std::pair<uint64_t, uint64_t>{1, 65536}, {6, 262144}, {7, 100}, {51, 1}, {0x21 + 0x1f, 7}}) {
    put_varint(settings, id);
    put_varint(settings, value);
  }
  Bytes s;
  put_varint(s, 0);  // control stream
  put_frame(s, h3_frames::kSettings, settings);
  put_frame(s, 0x21 + 2 * 0x1f, {0x3f});
  Bytes priority;
  put_varint(priority, 0);
  for (char c : std::string("u=0, i")) priority.push_back(static_cast<uint8_t>(c));
  put_frame(s, h3_frames::kPriorityUpdateRequest, priority);
  return s;
}

}  // namespace

TEST_CASE("h3_frames: a control stream read whole or a byte at a time gives the same frames", "[quic]") {
  const Bytes stream = chromium_control_stream();
  h3_frames::StreamReader whole(true), bytewise(true);
  whole.feed(stream.data(), stream.size());
  for (uint8_t b : stream) bytewise.feed(&b, 1);
  for (const auto* r : {&whole, &bytewise}) {
    CHECK(r->error().empty());
    CHECK(r->stream_type() == 0u);
    REQUIRE(r->frames().size() == 3);
    const auto settings = h3_frames::settings(r->frames()[0].payload);
    REQUIRE(settings.has_value());
    REQUIRE(settings->size() == 5);
    CHECK((*settings)[1] == std::pair<uint64_t, uint64_t>{6, 262144});
    CHECK(h3_frames::is_grease_setting((*settings)[4].first));
    CHECK(h3_frames::StreamReader::is_grease_type(r->frames()[1].type));
    CHECK(r->frames()[1].payload == Bytes{0x3f});
    const auto pu = h3_frames::priority_update(r->frames()[2].payload);
    REQUIRE(pu.has_value());
    CHECK(pu->first == 0);
    CHECK(pu->second == "u=0, i");
  }
}

TEST_CASE("h3_frames: request stream DATA is counted, not kept; a control frame over 4 KiB is refused",
          "[quic]") {
  Bytes request;
  put_frame(request, h3_frames::kHeaders, Bytes(20, 0x51));
  put_frame(request, h3_frames::kData, Bytes(1 << 20, 'x'));
  put_frame(request, 0x21, {});
  h3_frames::StreamReader r(false);
  for (size_t off = 0; off < request.size(); off += 1000)
    r.feed(request.data() + off, std::min<size_t>(1000, request.size() - off));
  CHECK(r.error().empty());
  CHECK_FALSE(r.stream_type().has_value());
  REQUIRE(r.frames().size() == 3);
  CHECK(r.frames()[1].type == h3_frames::kData);
  CHECK(r.frames()[1].length == 1u << 20);
  CHECK(r.frames()[1].payload.empty());
  CHECK(r.frames()[2].type == 0x21);

  Bytes huge;
  put_varint(huge, 0);
  put_frame(huge, h3_frames::kSettings, Bytes(5000, 0));
  h3_frames::StreamReader control(true);
  control.feed(huge.data(), huge.size());
  CHECK(control.error() == "control frame over 4 KiB");
}
