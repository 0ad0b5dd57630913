#include "codec/ws_deflate.h"

#include <algorithm>

#include <zlib.h>

namespace tlsc {
namespace {

// What the sender removed from the end of every compressed message.
constexpr std::string_view kTail("\x00\x00\xff\xff", 4);
// Output is produced in pieces of this size, so that the bound is checked
// before the message can grow far past it.
constexpr size_t kPiece = 64 * 1024;

Error invalid_message() { return make_error(ErrorCode::websocket, "websocket: invalid compressed message"); }
Error read_limit() { return make_error(ErrorCode::websocket, "websocket: read limit exceeded"); }

}  // namespace

struct WsInflater::State {
  z_stream strm{};
  bool ok = false;
  // Output goes here first, then to the message at its exact size: a
  // message keeps no spare capacity while it waits in the inbox.
  std::string scratch = std::string(kPiece, '\0');
  State() { ok = ::inflateInit2(&strm, -MAX_WBITS) == Z_OK; }
  ~State() {
    if (ok) ::inflateEnd(&strm);
  }
};

WsInflater::WsInflater(bool no_context_takeover)
    : state_(std::make_unique<State>()), no_context_takeover_(no_context_takeover) {}
WsInflater::~WsInflater() = default;

Result<std::string> WsInflater::inflate(std::string_view payload, size_t max_output) {
  if (!state_->ok) return make_error(ErrorCode::internal, "out of memory");
  z_stream& s = state_->strm;
  std::string& scratch = state_->scratch;
  std::string out;
  bool over_limit = false;
  // One call of zlib: what it wrote goes to `out`, unless that passes the
  // bound (then over_limit).
  auto step = [&](std::string_view& in) -> int {
    // zlib never writes through next_in; its API just lacks the const.
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    s.avail_in = static_cast<uInt>(std::min<size_t>(in.size(), 1u << 30));
    s.next_out = reinterpret_cast<Bytef*>(scratch.data());
    s.avail_out = static_cast<uInt>(scratch.size());
    const uInt offered = s.avail_in;
    const int rc = ::inflate(&s, Z_SYNC_FLUSH);
    in.remove_prefix(offered - s.avail_in);
    const size_t n = scratch.size() - s.avail_out;
    if (out.size() + n > max_output) {
      over_limit = true;
      return rc;
    }
    out.append(scratch.data(), n);
    return rc;
  };
  // The payload, then the tail: two inputs, one after the other.
  const std::string_view inputs[2] = {payload, kTail};
  bool ended = false;
  for (size_t k = 0; k < 2 && !ended; ++k) {
    std::string_view in = inputs[k];
    while (!in.empty() && !ended) {
      const int rc = step(in);
      if (over_limit) {
        limit_exceeded_ = true;
        return read_limit();
      }
      if (rc == Z_STREAM_END) {
        // A final block (BFINAL) ends this DEFLATE stream. What follows is
        // padding (RFC 7692 section 7.2.3.4 ends its example with a 0x00
        // octet) and our tail; the next message starts a stream afresh.
        ended = true;
      } else if (rc != Z_OK) {
        return invalid_message();
      }
    }
  }
  // Output zlib still holds after the input ran out.
  while (!ended && s.avail_out == 0) {
    std::string_view none;
    const int rc = step(none);
    if (over_limit) {
      limit_exceeded_ = true;
      return read_limit();
    }
    if (rc == Z_STREAM_END) {
      ended = true;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      return invalid_message();
    }
  }
  // A stream that ended starts afresh; so does every message without
  // context takeover.
  if (ended || no_context_takeover_) ::inflateReset(&s);
  return out;
}

struct WsDeflater::State {
  z_stream strm{};
  bool ok = false;
  explicit State(int window_bits) {
    ok =
        ::deflateInit2(&strm, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK;
  }
  ~State() {
    if (ok) ::deflateEnd(&strm);
  }
};

WsDeflater::WsDeflater(int window_bits, bool no_context_takeover)
    : state_(std::make_unique<State>(std::clamp(window_bits, 9, 15))),
      no_context_takeover_(no_context_takeover) {}
WsDeflater::~WsDeflater() = default;

std::optional<std::string> WsDeflater::deflate(std::string_view message) {
  if (!state_->ok) return std::nullopt;
  z_stream& s = state_->strm;
  std::string out;
  out.resize(::deflateBound(&s, message.size()) + 16);
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(message.data()));
  s.avail_in = static_cast<uInt>(message.size());
  size_t used = 0;
  // The input with Z_NO_FLUSH, then the flush: zlib skips a sync flush
  // that directly follows another (Z_BUF_ERROR, no output), which would
  // leave an empty message without the empty stored block whose first
  // octet (0x00) RFC 7692 section 7.2.3.6 has it send.
  for (const int flush : {Z_NO_FLUSH, Z_SYNC_FLUSH}) {
    while (true) {
      s.next_out = reinterpret_cast<Bytef*>(out.data() + used);
      s.avail_out = static_cast<uInt>(out.size() - used);
      const int rc = ::deflate(&s, flush);
      used = out.size() - s.avail_out;
      if (rc != Z_OK && rc != Z_BUF_ERROR) return std::nullopt;
      if (s.avail_in == 0 && s.avail_out != 0) break;
      out.resize(out.size() * 2);
    }
  }
  out.resize(used);
  if (out.size() >= kTail.size() && std::string_view(out).substr(out.size() - kTail.size()) == kTail)
    out.resize(out.size() - kTail.size());
  if (no_context_takeover_) ::deflateReset(&s);
  return out;
}

}  // namespace tlsc
