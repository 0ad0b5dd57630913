#include "charset/charset.h"

#include <algorithm>

#include "charset/decoders.h"
#include "charset/determine.h"

namespace tlsc::charset {

std::string to_utf8(std::string_view body, std::string_view content_type) {
  // Go's NewReader fails with io.EOF on an empty body (upstream skips the
  // conversion for one); the only sensible output here is empty too.
  if (body.empty()) return {};
  const Decision d = determine_encoding(body, content_type);
  if (d.passthrough) return std::string(body);
  return detail::decode(d.encoding, body);
}

std::string to_utf8_owned(std::string&& body, std::string_view content_type) {
  if (body.empty()) return {};
  if (converts_to_itself(std::span<const std::string>(&body, 1), content_type)) return std::move(body);
  return to_utf8(std::string_view(body), content_type);
}

bool converts_to_itself(std::span<const std::string> parts, std::string_view content_type) {
  // Go decides from the body's first 1024 bytes, which the first part holds
  // unless it is short.
  std::string short_start;
  std::string_view start = parts.empty() ? std::string_view() : std::string_view(parts.front());
  if (parts.size() > 1 && start.size() < kPreviewSize) {
    for (const std::string& part : parts) {
      short_start.append(part, 0, std::min(part.size(), kPreviewSize - short_start.size()));
      if (short_start.size() == kPreviewSize) break;
    }
    start = short_start;
  }
  if (start.empty()) return true;  // an empty body stays empty
  const Decision d = determine_encoding(start, content_type);
  return d.passthrough || detail::decodes_to_itself(d.encoding, parts);
}

}  // namespace tlsc::charset
