#include "charset/decoders.h"
#include "charset/go_text.h"
#include "core/byte_scan.h"

namespace tlsc::charset::detail {

std::string decode_single_byte(std::string_view in, const std::array<std::uint16_t, 128>& high) {
  std::string out;
  out.reserve(in.size() + in.size() / 2);
  // The low half is ASCII in every single-byte encoding: copied in runs
  // (an ASCII body sniffed as windows-1252, Go's default, is the common case).
  std::size_t i = 0;
  while (i < in.size()) {
    if (static_cast<unsigned char>(in[i]) < 0x80) {
      const std::size_t ascii = count_ascii_prefix(in.data() + i, in.size() - i);
      out.append(in.data() + i, ascii);
      i += ascii;
      if (i == in.size()) break;
    }
    append_utf8(out, high.at(static_cast<unsigned char>(in[i]) - 0x80u));
    ++i;
  }
  return out;
}

}  // namespace tlsc::charset::detail
