// The JSON string writer's block scans, for each width a machine has:
// 64-bit words everywhere, SSE2 on x86-64, NEON on arm64, and AVX2 on the
// x86-64 machines that have it (abi/json_string_avx2.cc compiles these
// templates once more for 32-byte blocks and json_string.cc picks that
// version at run time). Private to those two files: everything here has
// internal linkage, so that the AVX2 file's copies, compiled for AVX2, can
// never stand in for the others.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace tlsc {
namespace {  // NOLINT(google-build-namespaces, cert-dcl59-cpp): on purpose, see above

// What Go writes for one byte below 0x80: size 1 is the byte itself.
// text is padded to 8 bytes, so that it can be stored in one move.
struct AsciiOut {
  char text[8] = {};
  uint8_t size = 1;
};

constexpr std::array<AsciiOut, 128> make_ascii_table() {
  constexpr char kHex[] = "0123456789abcdef";
  std::array<AsciiOut, 128> table{};
  for (int c = 0; c < 128; ++c) {
    AsciiOut& e = table[c];
    auto two = [&](char second) {
      e.size = 2;
      e.text[0] = '\\';
      e.text[1] = second;
    };
    switch (c) {
      case '"':
      case '\\':
        two(static_cast<char>(c));
        break;
      case '\b':
        two('b');
        break;
      case '\f':
        two('f');
        break;
      case '\n':
        two('n');
        break;
      case '\r':
        two('r');
        break;
      case '\t':
        two('t');
        break;
      default:
        if (c < 0x20 || c == '<' || c == '>' || c == '&') {
          e.size = 6;
          const char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
          for (int k = 0; k < 6; ++k) e.text[k] = u[k];
        } else {
          e.text[0] = static_cast<char>(c);
        }
    }
  }
  return table;
}
constexpr std::array<AsciiOut, 128> kAscii = make_ascii_table();

bool is_line_separator(const unsigned char* p) {  // U+2028 or U+2029
  return p[0] == 0xE2 && p[1] == 0x80 && (p[2] & 0xFE) == 0xA8;
}

// One step of the wide scan, over a block of kSize bytes:
//   special(p): a bit mask of the bytes that need more than a copy: below
//     0x20, above 0x7f, '"', '\\', '<', '>', '&';
//   high(p): a bit mask of the bytes above 0x7f;
//   extra(p, k): how many bytes the escapes of the ASCII bytes of p[0, k)
//     add (one for '"', '\\', \b \f \n \r \t; five for \u00XX);
//   equal_to(p, c): a bit mask of the bytes equal to c.
// Each byte has one bit in a mask, the lowest byte the lowest bit; byte k's
// is bit k * kShift + (kShift - 1).
// 64-bit words (any machine): exact per-byte tests that leave each byte's
// answer in its top bit, with no carry between bytes.
struct WordBlock {
  static constexpr size_t kSize = 8;
  static constexpr int kShift = 8;  // byte k's flag: bit 8k + 7
  static constexpr uint64_t kOnes = 0x0101010101010101ull;
  static constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full;
  static constexpr uint64_t kHigh = 0x8080808080808080ull;

  static uint64_t load(const char* p) {
    uint64_t w;
    std::memcpy(&w, p, sizeof w);
    if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
    return w;
  }
  // Top bit of each byte that is zero.
  static uint64_t zero_bytes(uint64_t x) { return ~(((x & kLow7) + kLow7) | x) & kHigh; }
  static uint64_t equal(uint64_t w, unsigned char c) { return zero_bytes(w ^ (kOnes * c)); }
  // Bytes below 0x20 among those below 0x80 (0x7f + 0x60 carries into no
  // neighbour).
  static uint64_t control(uint64_t w) { return ~((w & kLow7) + kOnes * 0x60) & ~w & kHigh; }

  static uint64_t special(const char* p) {
    const uint64_t w = load(p);
    return control(w) | (w & kHigh) | equal(w, '"') | equal(w, '\\') | equal(w, '<') | equal(w, '>') |
           equal(w, '&');
  }
  static uint64_t high(const char* p) { return load(p) & kHigh; }
  static uint64_t equal_to(const char* p, unsigned char c) { return equal(load(p), c); }
  static size_t extra(const char* p, size_t k) {
    const uint64_t w = load(p);
    const uint64_t one = equal(w, '"') | equal(w, '\\') | equal(w, '\b') | equal(w, '\f') | equal(w, '\n') |
                         equal(w, '\r') | equal(w, '\t');
    const uint64_t five = (control(w) & ~one) | equal(w, '<') | equal(w, '>') | equal(w, '&');
    uint64_t weights = (one >> 7) + (five >> 7) * 5;  // 0, 1 or 5 in each byte
    if (k < kSize) weights &= (uint64_t{1} << (8 * k)) - 1;
    return static_cast<size_t>((weights * kOnes) >> 56);  // the bytes' sum (at most 40)
  }
  static void copy(char* dst, const char* src) { std::memcpy(dst, src, kSize); }
};

#if defined(__SSE2__)
// The x86 blocks, written once for every register width: R gives the
// register's operations (Sse2Register below, 16 bytes; Avx2Register in
// json_string_avx2.cc, 32). x86 compares signed bytes with "greater than"
// only; as signed bytes everything above 0x7f is negative.
template <typename R>
struct X86Block {
  using V = typename R::Vector;
  static constexpr size_t kSize = R::kSize;
  static constexpr int kShift = 1;

  static V eq(V v, char c) { return R::cmpeq(v, R::splat(c)); }
  // Control bytes and everything above 0x7f.
  static V below_0x20(V v) { return R::cmpgt(R::splat(0x20), v); }

  static uint64_t special(const char* p) {
    const V v = R::load(p);
    return R::movemask(R::or_(R::or_(below_0x20(v), R::or_(eq(v, '"'), eq(v, '\\'))),
                              R::or_(R::or_(eq(v, '<'), eq(v, '>')), eq(v, '&'))));
  }
  static uint64_t high(const char* p) { return R::movemask(R::load(p)); }
  static uint64_t equal_to(const char* p, unsigned char c) {
    return R::movemask(eq(R::load(p), static_cast<char>(c)));
  }
  static size_t extra(const char* p, size_t k) {
    const V v = R::load(p);
    const V one = R::or_(R::or_(R::or_(eq(v, '"'), eq(v, '\\')), R::or_(eq(v, '\b'), eq(v, '\f'))),
                         R::or_(R::or_(eq(v, '\n'), eq(v, '\r')), eq(v, '\t')));
    // Control bytes: below 0x20 and not negative (not above 0x7f).
    const V control = R::and_(below_0x20(v), R::cmpgt(v, R::splat(-1)));
    const V five = R::or_(R::andnot(one, control), R::or_(R::or_(eq(v, '<'), eq(v, '>')), eq(v, '&')));
    const V weights = R::or_(R::and_(one, R::splat(1)), R::and_(five, R::splat(5)));
    return R::sum_bytes(R::and_(weights, R::cmpgt(R::splat(static_cast<char>(k)), R::index())));
  }
  static void copy(char* dst, const char* src) { R::store(dst, R::load(src)); }
};

struct Sse2Register {
  using Vector = __m128i;
  static constexpr size_t kSize = 16;

  static Vector load(const char* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  static void store(char* p, Vector v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
  static Vector splat(char c) { return _mm_set1_epi8(c); }
  static Vector cmpeq(Vector a, Vector b) { return _mm_cmpeq_epi8(a, b); }
  static Vector cmpgt(Vector a, Vector b) { return _mm_cmpgt_epi8(a, b); }
  static Vector or_(Vector a, Vector b) { return _mm_or_si128(a, b); }
  static Vector and_(Vector a, Vector b) { return _mm_and_si128(a, b); }
  static Vector andnot(Vector a, Vector b) { return _mm_andnot_si128(a, b); }  // ~a & b
  static uint64_t movemask(Vector v) { return static_cast<uint32_t>(_mm_movemask_epi8(v)); }
  static Vector index() { return _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }
  // The bytes' sum (at most 80), from the two halves' sums.
  static size_t sum_bytes(Vector v) {
    const __m128i sums = _mm_sad_epu8(v, _mm_setzero_si128());
    return static_cast<size_t>(_mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4));
  }
};
using VectorBlock = X86Block<Sse2Register>;
#elif defined(__ARM_NEON)
struct VectorBlock {
  static constexpr size_t kSize = 16;
  static constexpr int kShift = 4;  // vshrn leaves a nibble per byte

  static uint8x16_t load(const char* p) { return vld1q_u8(reinterpret_cast<const uint8_t*>(p)); }
  static uint64_t bits(uint8x16_t v) {
    // One bit per byte: the top one of its nibble.
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(v), 4)), 0) &
           0x8888888888888888ull;
  }
  static uint8x16_t eq(uint8x16_t v, uint8_t c) { return vceqq_u8(v, vdupq_n_u8(c)); }

  static uint64_t special(const char* p) {
    const uint8x16_t v = load(p);
    uint8x16_t hit = vcltq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(0x20));
    hit = vorrq_u8(hit, vorrq_u8(eq(v, '"'), eq(v, '\\')));
    hit = vorrq_u8(hit, vorrq_u8(vorrq_u8(eq(v, '<'), eq(v, '>')), eq(v, '&')));
    return bits(hit);
  }
  static uint64_t high(const char* p) { return bits(vcgeq_u8(load(p), vdupq_n_u8(0x80))); }
  static uint64_t equal_to(const char* p, unsigned char c) { return bits(eq(load(p), c)); }
  static size_t extra(const char* p, size_t k) {
    const uint8x16_t v = load(p);
    const uint8x16_t one =
        vorrq_u8(vorrq_u8(vorrq_u8(eq(v, '"'), eq(v, '\\')), vorrq_u8(eq(v, '\b'), eq(v, '\f'))),
                 vorrq_u8(vorrq_u8(eq(v, '\n'), eq(v, '\r')), eq(v, '\t')));
    const uint8x16_t five = vorrq_u8(vbicq_u8(vcltq_u8(v, vdupq_n_u8(0x20)), one),
                                     vorrq_u8(vorrq_u8(eq(v, '<'), eq(v, '>')), eq(v, '&')));
    uint8x16_t weights = vorrq_u8(vandq_u8(one, vdupq_n_u8(1)), vandq_u8(five, vdupq_n_u8(5)));
    static constexpr uint8_t kIndex[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    weights = vandq_u8(weights, vcltq_u8(vld1q_u8(kIndex), vdupq_n_u8(static_cast<uint8_t>(k))));
    return vaddvq_u8(weights);  // at most 80
  }
  static void copy(char* dst, const char* src) { vst1q_u8(reinterpret_cast<uint8_t*>(dst), load(src)); }
};
#else
using VectorBlock = WordBlock;
#endif

template <typename Block>
size_t first_flagged(uint64_t mask) {
  return static_cast<size_t>(std::countr_zero(mask)) / Block::kShift;
}

// Bytes >= 0x80 from p[i] on, one UTF-8 sequence at a time: adds what
// their escapes add to `extra`, returns where the run ends.
size_t count_non_ascii_run(const unsigned char* p, size_t i, size_t n, size_t& extra) {
  while (i < n && p[i] >= 0x80) {
    const size_t len = utf8_sequence_size(p + i, n - i);
    if (len == 0) {
      extra += 5;  // one byte becomes \ufffd
      i += 1;
    } else {
      if (len == 3 && is_line_separator(p + i)) extra += 3;
      i += len;
    }
  }
  return i;
}

// The same run, written at `out`; returns where both end (as a value, so
// that the caller's cursors stay in registers).
struct Cursors {
  size_t in;
  char* out;
};
Cursors write_non_ascii_run(const unsigned char* p, size_t i, size_t n, char* d) {
  size_t copy_from = i;  // well-formed sequences are copied in one piece
  auto copy_pending = [&] {
    std::memcpy(d, p + copy_from, i - copy_from);
    d += i - copy_from;
  };
  while (i < n && p[i] >= 0x80) {
    const size_t len = utf8_sequence_size(p + i, n - i);
    if (len != 0 && !(len == 3 && is_line_separator(p + i))) {
      i += len;
      continue;
    }
    copy_pending();
    if (len == 0) {
      std::memcpy(d, "\\ufffd", 6);
      i += 1;
    } else {
      std::memcpy(d, p[i + 2] == 0xA8 ? "\\u2028" : "\\u2029", 6);
      i += 3;
    }
    d += 6;
    copy_from = i;
  }
  copy_pending();
  return {i, d};
}

// How many bytes before p[i] belong to the character the DFA is inside of
// in `state` (0 between characters): back to its lead byte.
size_t pending_bytes(const unsigned char* p, size_t i, unsigned state) {
  if (state == utf8_dfa::kAccept) return 0;
  size_t back = 1;
  while ((p[i - back] & 0xC0) == 0x80) ++back;
  return back;
}

// Whether a block may hold U+2028 or U+2029 (E2 80 A8, E2 80 A9): one of
// them in it, or a 0xE2 lead in its last two bytes, whose character ends
// in the next block. Other characters with that lead (the curly quotes,
// the ellipsis, the euro sign: common in text) do not count.
template <typename Block>
bool may_hold_line_separator(const char* block) {
  const uint64_t lead = Block::equal_to(block, 0xE2);
  if (lead == 0) return false;
  constexpr int kStep = Block::kShift;  // from one byte's flag to the next's
  if ((lead >> ((Block::kSize - 2) * kStep)) != 0) return true;
  const uint64_t second = Block::equal_to(block, 0x80);
  const uint64_t third = Block::equal_to(block, 0xA8) | Block::equal_to(block, 0xA9);
  return (lead & (second >> kStep) & (third >> (2 * kStep))) != 0;
}

// Whether the bytes above 0x7f of a block go out as they are: every
// character they make is well-formed (the DFA, from the state the
// previous block left, did not fail) and none is U+2028 or U+2029 (a
// block that may hold one takes the slow way). Sets `state` for the next
// block.
template <typename Block>
bool non_ascii_copies(const char* block, unsigned& state) {
  const unsigned next = utf8_dfa::run(state, reinterpret_cast<const unsigned char*>(block), Block::kSize);
  if (next == utf8_dfa::kError || may_hold_line_separator<Block>(block)) return false;
  state = next;
  return true;
}

template <typename Block>
size_t size_of(std::string_view s) {
  const char* data = s.data();
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  const size_t n = s.size();
  size_t extra = 2;  // the quotes
  size_t i = 0;
  unsigned state = utf8_dfa::kAccept;  // of the UTF-8 passed over so far
  size_t slow_until = 0;               // no DFA before here
  while (i + Block::kSize <= n) {
    if (Block::special(data + i) == 0 && state == utf8_dfa::kAccept) {
      i += Block::kSize;
      continue;
    }
    if ((Block::high(data + i) == 0 && state == utf8_dfa::kAccept) ||
        (i >= slow_until && non_ascii_copies<Block>(data + i, state))) {
      extra += Block::extra(data + i, Block::kSize);
      i += Block::kSize;
      continue;
    }
    // The slow way, a sequence at a time, from the lead byte of the
    // character in progress: the escapes before the first byte above 0x7f,
    // then its run; the next block starts where the run ends. The rest of
    // a block that failed goes the slow way too (ill-formed bytes come in
    // crowds: binary read as text).
    if (i >= slow_until) slow_until = i + Block::kSize;
    i -= pending_bytes(p, i, state);
    state = utf8_dfa::kAccept;
    const size_t k = first_flagged<Block>(Block::high(data + i));
    extra += Block::extra(data + i, k);
    i = count_non_ascii_run(p, i + k, n, extra);
  }
  i -= pending_bytes(p, i, state);  // the tail takes the character in progress
  while (i < n) {
    if (p[i] < 0x80) {
      extra += kAscii[p[i]].size - 1;
      ++i;
    } else {
      i = count_non_ascii_run(p, i, n, extra);
    }
  }
  return n + extra;
}

// The string's contents, without its quotes: size_of(s) - 2 bytes.
template <typename Block>
char* write_contents(char* d, std::string_view s) {
  const char* data = s.data();
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  const size_t n = s.size();
  size_t i = 0;
  unsigned state = utf8_dfa::kAccept;  // of the UTF-8 passed over so far
  size_t slow_until = 0;               // no DFA before here (as in size_of)
  // A block's escapes are written from one look at it: between them the
  // plain bytes are stored a block at a time from where they start (what
  // overshoots is written over next), an escape as 8 bytes (no branch on
  // its size, which text makes unpredictable). No store passes the end of
  // the contents: what is left of them is at least what is left of the
  // input, and the loop keeps a block and more of input ahead.
  while (i + 2 * Block::kSize <= n) {
    uint64_t special = Block::special(data + i);
    Block::copy(d, data + i);
    if (special == 0 && state == utf8_dfa::kAccept) {
      i += Block::kSize;
      d += Block::kSize;
      continue;
    }
    const uint64_t high = Block::high(data + i);
    if (high != 0 || state != utf8_dfa::kAccept) {
      if (i < slow_until || !non_ascii_copies<Block>(data + i, state)) {
        if (i >= slow_until) slow_until = i + Block::kSize;
        // The slow way, from the lead byte of the character in progress
        // (stored already, as it is): up to the first byte that needs
        // work, then its escape or its UTF-8 run, and the next block from
        // there.
        const size_t back = pending_bytes(p, i, state);
        i -= back;
        d -= back;
        state = utf8_dfa::kAccept;
        Block::copy(d, data + i);
        const size_t k = first_flagged<Block>(Block::special(data + i));
        i += k;
        d += k;
        if (p[i] < 0x80) {
          std::memcpy(d, kAscii[p[i]].text, 8);
          d += kAscii[p[i]].size;
          ++i;
        } else {
          const Cursors c = write_non_ascii_run(p, i, n, d);
          i = c.in;
          d = c.out;
        }
        continue;
      }
      special &= ~high;  // those go out as they are
      if (special == 0) {
        i += Block::kSize;
        d += Block::kSize;
        continue;
      }
    }
    size_t from = 0;  // the first byte of the block not written yet
    do {
      const size_t k = first_flagged<Block>(special);
      Block::copy(d, data + i + from);
      d += k - from;
      const AsciiOut& e = kAscii[p[i + k]];
      std::memcpy(d, e.text, 8);
      d += e.size;
      from = k + 1;
      special &= special - 1;
    } while (special != 0);
    Block::copy(d, data + i + from);
    d += Block::kSize - from;
    i += Block::kSize;
  }
  // The tail takes the character in progress, from its lead byte.
  const size_t back = pending_bytes(p, i, state);
  i -= back;
  d -= back;
  while (i < n) {
    if (p[i] < 0x80) {
      const AsciiOut& e = kAscii[p[i]];
      std::memcpy(d, e.text, e.size);
      d += e.size;
      ++i;
    } else {
      const Cursors c = write_non_ascii_run(p, i, n, d);
      i = c.in;
      d = c.out;
    }
  }
  return d;
}

template <typename Block>
char* write(char* d, std::string_view s) {
  *d++ = '"';
  d = write_contents<Block>(d, s);
  *d++ = '"';
  return d;
}

}  // namespace
}  // namespace tlsc
