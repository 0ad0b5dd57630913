// libFuzzer target for the response-body charset conversion and the content
// sniffer. Input layout: first byte N, then N bytes of Content-Type value,
// then the body. Invariants checked beyond "no crash, no UB":
//   - a passthrough decision returns the body unchanged;
//   - an owned body converts to the same bytes as a viewed one;
//   - every other decision returns valid UTF-8 (all decoders replace errors);
//   - converted in pieces (StreamConverter, cut where the body's own bytes
//     say), the body gives the same bytes as whole;
//   - held in parts, it converts to itself exactly when it does whole, and
//     then its conversion is itself;
//   - the sniffer always names some type.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "charset/charset.h"
#include "charset/determine.h"
#include "charset/stream_converter.h"
#include "sniff/sniff.h"

namespace {

// Independent of the library's own validator on purpose: a bug there must
// not hide a bug in the decoders.
bool is_valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if ((b0 & 0xE0) == 0xC0) {
      len = 2;
      cp = b0 & 0x1F;
    } else if ((b0 & 0xF0) == 0xE0) {
      len = 3;
      cp = b0 & 0x0F;
    } else if ((b0 & 0xF8) == 0xF0) {
      len = 4;
      cp = b0 & 0x07;
    } else {
      return false;
    }
    if (s.size() - i < len) return false;
    for (std::size_t k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    const std::uint32_t min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string input(data, data + size);
  const std::string_view view(input);
  const std::size_t ct_len = std::min<std::size_t>(static_cast<unsigned char>(view[0]), size - 1);
  const std::string_view content_type = view.substr(1, ct_len);
  const std::string_view body = view.substr(1 + ct_len);

  const auto decision = tlsc::charset::determine_encoding(body, content_type);
  const std::string out = tlsc::charset::to_utf8(body, content_type);
  if (decision.passthrough) {
    if (out != body) std::abort();
  } else if (!is_valid_utf8(out)) {
    std::abort();
  }
  // The owned-body path (which keeps the body where it converts to itself)
  // gives the same bytes.
  if (tlsc::charset::to_utf8_owned(std::string(body), content_type) != out) std::abort();
  {
    tlsc::charset::StreamConverter conv{std::string(content_type)};
    std::string pieces;
    std::size_t i = 0, k = 0;
    while (i < body.size()) {
      const std::size_t n = 1 + static_cast<unsigned char>(body[k++ % body.size()]) % 1500;
      conv.feed(body.substr(i, n), pieces);
      i += std::min(n, body.size() - i);
    }
    conv.finish(pieces);
    if (pieces != out) std::abort();
  }
  {
    // Held in parts (a large body's blocks), cut where the body's own bytes
    // say: the parts convert to themselves exactly when the whole body
    // does, and then the conversion is the body itself.
    std::vector<std::string> parts;
    std::size_t i = 0, k = 0;
    while (i < body.size()) {
      const std::size_t n = 1 + static_cast<unsigned char>(body[k++ % body.size()]) % 1500;
      parts.emplace_back(body.substr(i, n));
      i += std::min(n, body.size() - i);
    }
    const bool whole =
        tlsc::charset::converts_to_itself(std::vector<std::string>{std::string(body)}, content_type);
    if (tlsc::charset::converts_to_itself(parts, content_type) != whole) std::abort();
    if (whole && out != body) std::abort();
  }
  if (tlsc::detect_content_type(body).empty()) std::abort();
  if (tlsc::detect_content_type(view).empty()) std::abort();
  return 0;
}
