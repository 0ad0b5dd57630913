#include "charset/determine.h"

#include <algorithm>

#include "charset/go_text.h"
#include "charset/media_type.h"
#include "charset/meta_prescan.h"

namespace tlsc::charset {
namespace {

std::optional<Encoding> from_bom(std::string_view s) {
  if (s.starts_with("\xFE\xFF")) return Encoding::utf16be;
  if (s.starts_with("\xFF\xFE")) return Encoding::utf16le;
  if (s.starts_with("\xEF\xBB\xBF")) return Encoding::utf8;
  return std::nullopt;
}

// Go drops the last rune start byte found within the final three bytes, with
// whatever follows it, before checking the preview is valid UTF-8; this also
// drops a complete final rune, which Go does too.
std::string_view drop_partial_rune(std::string_view s) {
  for (std::size_t n = 1; n <= 3 && n <= s.size(); ++n) {
    const int b = detail::byte_at(s, s.size() - n);
    if (b < 0x80) break;
    if ((b & 0xC0) != 0x80) return s.substr(0, s.size() - n);
  }
  return s;
}

}  // namespace

Decision determine_encoding(std::string_view body, std::string_view content_type) {
  const std::string_view preview = body.substr(0, std::min(body.size(), kPreviewSize));
  if (auto e = from_bom(preview)) return {*e, false, Source::bom};
  if (auto cs = charset_param(content_type)) {
    if (auto e = lookup_label(*cs)) return {*e, false, Source::content_type};
  }
  if (!preview.empty()) {
    if (auto meta = prescan_meta(preview)) return {meta->encoding, meta->passthrough, Source::meta};
  }
  const std::string_view content = drop_partial_rune(preview);
  const bool high_bit =
      std::ranges::any_of(content, [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  if (high_bit && detail::valid_utf8(content)) return {Encoding::utf8, true, Source::utf8_sniff};
  return {Encoding::windows1252, false, Source::fallback};
}

}  // namespace tlsc::charset
