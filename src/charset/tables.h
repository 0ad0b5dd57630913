// Decoding tables of the legacy encodings, generated from Go's
// golang.org/x/text by gen_tables.js (see there for why Go's and not
// WHATWG's or ICU's). Zero in a multi-byte table means "unmapped".
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace tlsc::charset::tables {

// Single-byte code pages: code points of bytes 0x80..0xFF (the low half is
// ASCII in all of them). Unmapped bytes hold U+FFFD, as in Go.
extern const std::array<std::uint16_t, 128> ibm866;
extern const std::array<std::uint16_t, 128> iso8859_2;
extern const std::array<std::uint16_t, 128> iso8859_3;
extern const std::array<std::uint16_t, 128> iso8859_4;
extern const std::array<std::uint16_t, 128> iso8859_5;
extern const std::array<std::uint16_t, 128> iso8859_6;
extern const std::array<std::uint16_t, 128> iso8859_7;
extern const std::array<std::uint16_t, 128> iso8859_8;
extern const std::array<std::uint16_t, 128> iso8859_10;
extern const std::array<std::uint16_t, 128> iso8859_13;
extern const std::array<std::uint16_t, 128> iso8859_14;
extern const std::array<std::uint16_t, 128> iso8859_15;
extern const std::array<std::uint16_t, 128> iso8859_16;
extern const std::array<std::uint16_t, 128> koi8_r;
extern const std::array<std::uint16_t, 128> koi8_u;
extern const std::array<std::uint16_t, 128> macintosh;
extern const std::array<std::uint16_t, 128> x_mac_cyrillic;
extern const std::array<std::uint16_t, 128> windows874;
extern const std::array<std::uint16_t, 128> windows1250;
extern const std::array<std::uint16_t, 128> windows1251;
extern const std::array<std::uint16_t, 128> windows1252;
extern const std::array<std::uint16_t, 128> windows1253;
extern const std::array<std::uint16_t, 128> windows1254;
extern const std::array<std::uint16_t, 128> windows1255;
extern const std::array<std::uint16_t, 128> windows1256;
extern const std::array<std::uint16_t, 128> windows1257;
extern const std::array<std::uint16_t, 128> windows1258;
extern const std::array<std::uint16_t, 128> x_user_defined;

// JIS X 0208 / 0212 by 94x94 pointer (0208 runs past 94*94 for the IBM
// extension rows that Shift_JIS reaches).
extern const std::span<const std::uint16_t> jis0208;
extern const std::span<const std::uint16_t> jis0212;
// EUC-KR in x/text's packing: rows 0x81..0xC6 have 178 cells, later rows 94.
extern const std::span<const std::uint16_t> euc_kr;
// GBK by (lead - 0x81) * 190 + trail offset.
extern const std::span<const std::uint16_t> gbk;
// gb18030 four-byte ranges, flattened pairs (pointer, first code point),
// sorted by pointer.
extern const std::span<const std::uint16_t> gb18030_ranges;
// Big5 by (lead - 0x81) * 157 + trail offset: the low 16 bits of the code
// point, plus the sorted pointers whose code point is in plane 2.
extern const std::span<const std::uint16_t> big5_low;
extern const std::span<const std::uint16_t> big5_plane2;

}  // namespace tlsc::charset::tables
