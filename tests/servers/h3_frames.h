// The HTTP/3 frames a client sends on one stream, as a fingerprinting
// server logs them (RFC 9114 section 7): on a unidirectional stream its
// type first (0 control, 2 and 3 QPACK, reserved GREASE types), then on the
// control stream and on request streams a sequence of (type, length,
// payload). The payloads kept are those of the frames a fingerprint reads
// (SETTINGS, PRIORITY_UPDATE, GOAWAY, and unknown GREASE frames, up to
// 4 KiB each); DATA and HEADERS payloads are counted, not kept (HEADERS are
// decoded by nghttp3's QPACK).
//
// Bytes in, frames out; every read is bounds-checked and a malformed stream
// is an error string (tests/fuzz/quic_initial_fuzz.cc feeds it too).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quic_initial.h"

namespace h3_frames {

using quic_initial::Bytes;

constexpr uint64_t kData = 0x0, kHeaders = 0x1, kSettings = 0x4, kGoaway = 0x7;
constexpr uint64_t kPriorityUpdateRequest = 0xf0700, kPriorityUpdatePush = 0xf0701;
constexpr size_t kMaxKeptPayload = 4096;

struct Frame {
  uint64_t type = 0;
  uint64_t length = 0;
  Bytes payload;  // kept for the frames named above
};

// One stream's bytes in order, in pieces as they arrive.
class StreamReader {
 public:
  explicit StreamReader(bool unidirectional) : need_stream_type_(unidirectional) {}

  void feed(const uint8_t* data, size_t len) {
    if (!error_.empty()) return;
    while (len > 0) {
      if (skip_ > 0) {  // inside a payload that is counted, not kept
        const size_t n = static_cast<size_t>(std::min<uint64_t>(skip_, len));
        skip_ -= n;
        data += n;
        len -= n;
        continue;
      }
      pending_.push_back(*data++);
      --len;
      if (!take_pending()) return;
    }
  }

  std::optional<uint64_t> stream_type() const { return stream_type_; }
  const std::vector<Frame>& frames() const { return frames_; }
  const std::string& error() const { return error_; }

  static bool is_grease_type(uint64_t type) { return type >= 0x21 && (type - 0x21) % 0x1f == 0; }

 private:
  // Reads what pending_ holds once it is whole: the stream type, a frame
  // header, or a kept payload. False after an error.
  bool take_pending() {
    CBS in;
    CBS_init(&in, pending_.data(), pending_.size());
    if (need_stream_type_) {
      uint64_t type;
      if (!whole_varint(&in, &type)) return true;
      stream_type_ = type;
      need_stream_type_ = false;
      pending_.clear();
      return true;
    }
    if (!in_payload_) {
      uint64_t type, length;
      if (!whole_varint(&in, &type)) return true;
      if (CBS_len(&in) == 0 || !whole_varint(&in, &length)) return true;
      pending_.clear();
      if (frames_.size() >= 1024) return fail("over 1024 frames on one stream");
      frames_.push_back({type, length, {}});
      const bool keep = type == kSettings || type == kGoaway || type == kPriorityUpdateRequest ||
                        type == kPriorityUpdatePush || is_grease_type(type);
      if (keep && length > kMaxKeptPayload) return fail("control frame over 4 KiB");
      if (keep && length > 0) {
        in_payload_ = true;
      } else {
        skip_ = length;
      }
      return true;
    }
    if (pending_.size() == frames_.back().length) {
      frames_.back().payload = std::move(pending_);
      pending_.clear();
      in_payload_ = false;
    }
    return true;
  }

  // A varint that pending_ holds whole (false: more bytes needed).
  static bool whole_varint(CBS* in, uint64_t* out) {
    if (CBS_len(in) == 0) return false;
    const size_t need = size_t{1} << (CBS_data(in)[0] >> 6);
    if (CBS_len(in) < need) return false;
    return quic_initial::get_varint(in, out);
  }

  bool fail(std::string why) {
    error_ = std::move(why);
    return false;
  }

  bool need_stream_type_;
  bool in_payload_ = false;
  uint64_t skip_ = 0;
  Bytes pending_;
  std::optional<uint64_t> stream_type_;
  std::vector<Frame> frames_;
  std::string error_;
};

// A SETTINGS payload: (identifier, value) in the client's order.
inline std::optional<std::vector<std::pair<uint64_t, uint64_t>>> settings(const Bytes& payload) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  CBS in;
  CBS_init(&in, payload.data(), payload.size());
  while (CBS_len(&in) > 0) {
    uint64_t id, value;
    if (!quic_initial::get_varint(&in, &id) || !quic_initial::get_varint(&in, &value)) return std::nullopt;
    out.emplace_back(id, value);
  }
  return out;
}

// A PRIORITY_UPDATE payload: the element's id and the Priority field value
// (RFC 9218 section 7.2).
inline std::optional<std::pair<uint64_t, std::string>> priority_update(const Bytes& payload) {
  CBS in;
  CBS_init(&in, payload.data(), payload.size());
  uint64_t id;
  if (!quic_initial::get_varint(&in, &id)) return std::nullopt;
  return std::make_pair(id, std::string(reinterpret_cast<const char*>(CBS_data(&in)), CBS_len(&in)));
}

// HTTP/3's reserved ("GREASE") setting identifiers: 0x1f * N + 0x21.
inline bool is_grease_setting(uint64_t id) { return StreamReader::is_grease_type(id); }

}  // namespace h3_frames
