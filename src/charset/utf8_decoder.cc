#include "charset/decoders.h"
#include "charset/go_text.h"
#include "core/byte_scan.h"

namespace tlsc::charset::detail {
namespace {

bool in_range(int b, int lo, int hi) { return b >= lo && b <= hi; }

// Length of the maximal subpart of an ill-formed sequence at in[i] (the
// Unicode "substitution of maximal subparts" practice x/text follows), or 0
// when a well-formed sequence starts there.
std::size_t invalid_prefix(std::string_view in, std::size_t i, std::size_t& valid_size) {
  const auto [size, lo, hi] = utf8_lead(byte_at(in, i));
  if (size == 0) return 1;
  if (!in_range(byte_at(in, i + 1), lo, hi)) return 1;
  if (size > 2 && !in_range(byte_at(in, i + 2), 0x80, 0xBF)) return 2;
  if (size > 3 && !in_range(byte_at(in, i + 3), 0x80, 0xBF)) return 3;
  valid_size = size;
  return 0;
}

// Where the first ill-formed sequence at or after `from` starts (in.size()
// if none), and in `bad` how many bytes its maximal subpart takes. ASCII is
// skipped 16 bytes a step, where it starts (binary bodies have runs of none).
std::size_t next_invalid(std::string_view in, std::size_t from, std::size_t& bad) {
  std::size_t i = from;
  while (i < in.size()) {
    if (byte_at(in, i) < 0x80) {
      i += count_ascii_prefix(in.data() + i, in.size() - i);
      if (i == in.size()) break;
    }
    std::size_t valid_size = 0;
    bad = invalid_prefix(in, i, valid_size);
    if (bad != 0) return i;
    i += valid_size;
  }
  return in.size();
}

}  // namespace

std::size_t valid_utf8_prefix(std::string_view in) {
  std::size_t bad = 0;
  return next_invalid(in, 0, bad);
}

std::string decode_utf8(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  // Well-formed stretches are copied whole (a valid body in one append).
  std::size_t i = 0;
  while (true) {
    std::size_t bad = 0;
    const std::size_t at = next_invalid(in, i, bad);
    out.append(in.data() + i, at - i);
    if (at == in.size()) break;
    append_utf8(out, kReplacementChar);
    i = at + bad;
  }
  return out;
}

}  // namespace tlsc::charset::detail
