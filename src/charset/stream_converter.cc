#include "charset/stream_converter.h"

#include "charset/charset.h"
#include "charset/decoders.h"

namespace tlsc::charset {
namespace {

constexpr size_t kPreview = 1024;  // Go's charset.NewReader

// Where a UTF-8 sequence that the end of `in` cuts short begins: a lead
// byte within the last three bytes whose continuation bytes so far are
// valid for it. in.size() when the end cuts nothing. A lead byte always
// starts a new sequence (it is never a continuation byte), so the bytes
// before it decode alone exactly as they would in the whole body.
size_t cut_sequence_start(std::string_view in) {
  const size_t n = in.size();
  for (size_t back = 1; back <= 3 && back <= n; ++back) {
    const size_t p = n - back;
    const auto b0 = static_cast<unsigned char>(in[p]);
    if (b0 >= 0x80 && b0 < 0xC0) continue;  // a continuation byte: look further back
    const auto [size, lo, hi] = detail::utf8_lead(b0);
    if (size == 0) return n;     // ASCII or a byte that starts nothing
    if (back >= size) return n;  // complete (or too long: decoded as it is)
    for (size_t k = 1; k < back; ++k) {
      const auto b = static_cast<unsigned char>(in[p + k]);
      const int l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
      if (b < l || b > h) return n;  // already invalid: decoded as it is
    }
    return p;
  }
  return n;
}

}  // namespace

void StreamConverter::convert(std::string_view in, std::string& out) {
  switch (mode_) {
    case Mode::passthrough:
      out.append(in);
      return;
    case Mode::single_byte:
      out.append(detail::decode(encoding_, in));
      return;
    case Mode::utf8: {
      held_.append(in);
      const size_t cut = cut_sequence_start(held_);
      out.append(detail::decode_utf8(std::string_view(held_).substr(0, cut)));
      held_.erase(0, cut);
      return;
    }
    case Mode::whole:
    case Mode::undecided:
      held_.append(in);
      return;
  }
}

void StreamConverter::decide(std::string& out) {
  const Decision d = determine_encoding(held_, content_type_);
  encoding_ = d.encoding;
  if (d.passthrough) {
    mode_ = Mode::passthrough;
  } else if (d.encoding == Encoding::utf8) {
    mode_ = Mode::utf8;
  } else if (detail::single_byte_table(d.encoding) != nullptr) {
    mode_ = Mode::single_byte;
  } else {
    mode_ = Mode::whole;
    return;  // held_ keeps the body
  }
  std::string preview = std::move(held_);
  held_.clear();
  convert(preview, out);
}

void StreamConverter::feed(std::string_view in, std::string& out) {
  if (mode_ != Mode::undecided) {
    convert(in, out);
    return;
  }
  held_.append(in);
  if (held_.size() >= kPreview) decide(out);
}

void StreamConverter::finish(std::string& out) {
  if (mode_ == Mode::undecided) {
    if (held_.empty()) return;  // an empty body converts to nothing
    decide(out);
  }
  if (mode_ == Mode::whole) {
    out.append(detail::decode(encoding_, held_));
  } else if (mode_ == Mode::utf8 && !held_.empty()) {
    out.append(detail::decode_utf8(held_));  // a sequence the body's end cut short
  }
  held_.clear();
}

}  // namespace tlsc::charset
