#include "charset/charset.h"

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
  const Decision d = determine_encoding(body, content_type);
  if (d.passthrough || detail::decodes_to_itself(d.encoding, body)) return std::move(body);
  return to_utf8(std::string_view(body), content_type);
}

}  // namespace tlsc::charset
