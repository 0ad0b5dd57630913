#include "charset/decoders.h"
#include "charset/go_text.h"
#include "charset/tables.h"

namespace tlsc::charset::detail {
namespace {

enum class Mode { ascii, katakana, jis0208, jis0212 };

constexpr int kEsc = 0x1B;

}  // namespace

std::string decode_iso2022jp(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  Mode mode = Mode::ascii;
  std::size_t i = 0;
  while (i < in.size()) {
    const int c0 = byte_at(in, i);
    if (c0 >= 0x80) {
      append_utf8(out, kReplacementChar);
      ++i;
      continue;
    }
    if (c0 == kEsc) {
      const int c1 = byte_at(in, i + 1);
      const int c2 = byte_at(in, i + 2);
      if (c2 < 0) {  // fewer than three bytes left: the ESC alone is bad
        append_utf8(out, kReplacementChar);
        ++i;
        continue;
      }
      if (c1 == '$' && (c2 == '@' || c2 == 'B')) {
        mode = Mode::jis0208;
        i += 3;
        continue;
      }
      if (c1 == '$' && c2 == '(') {
        const int c3 = byte_at(in, i + 3);
        if (c3 == 'D') {
          mode = Mode::jis0212;
          i += 4;
          continue;
        }
      } else if (c1 == '(' && (c2 == 'B' || c2 == 'J')) {
        mode = Mode::ascii;
        i += 3;
        continue;
      } else if (c1 == '(' && c2 == 'I') {
        mode = Mode::katakana;
        i += 3;
        continue;
      }
      // Unknown or truncated escape: only the ESC is consumed, the rest is
      // decoded in the current mode.
      append_utf8(out, kReplacementChar);
      ++i;
      continue;
    }
    switch (mode) {
      case Mode::ascii:
        append_utf8(out, static_cast<char32_t>(c0));
        ++i;
        break;
      case Mode::katakana:
        append_utf8(out,
                    c0 < 0x21 || c0 >= 0x60 ? kReplacementChar : static_cast<char32_t>(c0 + (0xFF61 - 0x21)));
        ++i;
        break;
      case Mode::jis0208:
      case Mode::jis0212: {
        if (c0 == '\n') {  // a newline ends a double-byte run
          mode = Mode::ascii;
          out.push_back('\n');
          ++i;
          break;
        }
        const int c1 = byte_at(in, i + 1);
        if (c1 < 0) {
          append_utf8(out, kReplacementChar);
          ++i;
          break;
        }
        // x/text subtracts 0x21 in byte arithmetic, so bytes below 0x21 wrap
        // around to large rows and cells instead of being rejected.
        const auto row = static_cast<std::size_t>((c0 - 0x21) & 0xFF);
        const auto cell = static_cast<std::size_t>((c1 - 0x21) & 0xFF);
        const std::span<const std::uint16_t> table =
            mode == Mode::jis0208 ? tables::jis0208 : tables::jis0212;
        const std::size_t index = row * 94 + cell;
        char32_t r = kReplacementChar;
        if (index < table.size() && table[index] != 0) r = table[index];
        append_utf8(out, r);
        i += 2;
        break;
      }
    }
  }
  return out;
}

}  // namespace tlsc::charset::detail
