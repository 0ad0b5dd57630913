#include <algorithm>

#include "charset/decoders.h"
#include "charset/go_text.h"
#include "core/byte_scan.h"
#include "core/utf8.h"

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
// skipped 16 bytes a step, where it starts (binary bodies have runs of
// none); text outside ASCII goes through the UTF-8 DFA 16 bytes a step,
// and only a block where it fails is looked at a sequence at a time.
std::size_t next_invalid(std::string_view in, std::size_t from, std::size_t& bad) {
  constexpr std::size_t kBlock = 16;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  std::size_t i = from;
  // Right after an ill-formed sequence (decode_utf8 calls again from
  // there), a block's worth a sequence at a time first: ill-formed bytes
  // come in crowds (binary read as text), where the DFA would fail again.
  std::size_t exact_until = from == 0 ? 0 : std::min(n, from + kBlock);
  while (i < n) {
    while (i < exact_until) {
      if (p[i] < 0x80) {
        ++i;
        continue;
      }
      std::size_t valid_size = 0;
      bad = invalid_prefix(in, i, valid_size);
      if (bad != 0) return i;
      i += valid_size;
    }
    if (i >= n) break;
    if (p[i] < 0x80) {
      i += count_ascii_prefix(in.data() + i, n - i);
      if (i == n) break;
    }
    unsigned state = utf8_dfa::kAccept;
    exact_until = n;  // where the sequence-at-a-time look ends
    while (i + kBlock <= n) {
      if (state == utf8_dfa::kAccept && count_ascii_prefix(in.data() + i, kBlock) == kBlock) {
        exact_until = i;  // back to the ASCII skip
        break;
      }
      const unsigned next = utf8_dfa::run(state, p + i, kBlock);
      if (next == utf8_dfa::kError) {
        exact_until = i + kBlock;
        break;
      }
      state = next;
      i += kBlock;
    }
    // From the lead byte of the character in progress.
    if (state != utf8_dfa::kAccept) {
      while ((p[i - 1] & 0xC0) == 0x80) --i;
      --i;
    }
  }
  return n;
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
