#include "charset/decoders.h"
#include "charset/go_text.h"

namespace tlsc::charset::detail {

std::string decode_single_byte(std::string_view in, const std::array<std::uint16_t, 128>& high) {
  std::string out;
  out.reserve(in.size() + in.size() / 2);
  for (const char ch : in) {
    const auto b = static_cast<unsigned char>(ch);
    if (b < 0x80) {
      out.push_back(ch);
    } else {
      append_utf8(out, high.at(b - 0x80u));
    }
  }
  return out;
}

}  // namespace tlsc::charset::detail
