#include "core/base64.h"

#include <array>

namespace tlsc {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int8_t, 256> make_reverse() {
  std::array<int8_t, 256> r{};
  for (auto& v : r) v = -1;
  for (int i = 0; i < 64; ++i) r[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
  return r;
}
constexpr auto kReverse = make_reverse();

}  // namespace

std::string base64_encode(std::string_view data) {
  // Sized once and written by index: a body of megabytes goes through here
  // (isByteResponse), and push_back checks the capacity for every char.
  std::string out((data.size() + 2) / 3 * 4, '=');
  const auto* in = reinterpret_cast<const unsigned char*>(data.data());
  char* o = out.data();
  size_t i = 0;
  for (; i + 3 <= data.size(); i += 3, o += 4) {
    uint32_t v = (uint32_t{in[i]} << 16) | (uint32_t{in[i + 1]} << 8) | in[i + 2];
    o[0] = kAlphabet[(v >> 18) & 63];
    o[1] = kAlphabet[(v >> 12) & 63];
    o[2] = kAlphabet[(v >> 6) & 63];
    o[3] = kAlphabet[v & 63];
  }
  size_t rest = data.size() - i;
  if (rest > 0) {
    uint32_t v = (uint32_t{in[i]} << 16) | (rest == 2 ? uint32_t{in[i + 1]} << 8 : 0);
    o[0] = kAlphabet[(v >> 18) & 63];
    o[1] = kAlphabet[(v >> 12) & 63];
    if (rest == 2) o[2] = kAlphabet[(v >> 6) & 63];  // the rest stays '='
  }
  return out;
}

Result<std::string> base64_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size() / 4 * 3);
  uint32_t acc = 0;
  int n = 0;    // sextets in acc
  int pad = 0;  // '=' seen
  size_t quad_start = 0;
  auto illegal = [](size_t at) {
    return make_error(ErrorCode::invalid_input, "illegal base64 data at input byte " + std::to_string(at));
  };
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c == '\r' || c == '\n') continue;
    if (n == 0 && pad == 0) quad_start = i;
    if (c == '=') {
      if (n < 2) return illegal(i);
      ++pad;
      if (n + pad == 4) {
        if (n == 2) out.push_back(static_cast<char>((acc >> 4) & 0xff));
        if (n == 3) {
          out.push_back(static_cast<char>((acc >> 10) & 0xff));
          out.push_back(static_cast<char>((acc >> 2) & 0xff));
        }
        // Only CR/LF may follow the padding.
        for (size_t j = i + 1; j < text.size(); ++j) {
          if (text[j] != '\r' && text[j] != '\n') return illegal(j);
        }
        return out;
      }
      continue;
    }
    if (pad > 0) return illegal(i);
    int8_t v = kReverse[c];
    if (v < 0) return illegal(i);
    acc = (acc << 6) | static_cast<uint32_t>(v);
    if (++n == 4) {
      out.push_back(static_cast<char>((acc >> 16) & 0xff));
      out.push_back(static_cast<char>((acc >> 8) & 0xff));
      out.push_back(static_cast<char>(acc & 0xff));
      acc = 0;
      n = 0;
    }
  }
  if (n != 0 || pad != 0) return illegal(n == 0 ? text.size() : quad_start);
  return out;
}

}  // namespace tlsc
