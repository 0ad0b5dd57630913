// One decoder per family, each reproducing its golang.org/x/text decoder
// (v0.32.0) on a complete input, including how many bytes an invalid
// sequence swallows: x/text's error handling is not WHATWG's, and Go's
// output is what callers compare against. All return UTF-8.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "charset/encoding.h"
#include "core/utf8.h"

namespace tlsc::charset::detail {

// Any x/text charmap: ASCII below 0x80, the table above.
std::string decode_single_byte(std::string_view in, const std::array<std::uint16_t, 128>& high);

// unicode.UTF8 decoder: valid UTF-8 (a BOM included) is copied, each maximal
// invalid subpart becomes one U+FFFD.
std::string decode_utf8(std::string_view in);
// How many bytes from the start are well-formed UTF-8 (decode_utf8 copies
// them unchanged).
std::size_t valid_utf8_prefix(std::string_view in);

// utf8_lead (core/utf8.h) says what a lead byte starts.
using tlsc::utf8_lead;

// unicode.UTF16(endianness, IgnoreBOM): a BOM is decoded as U+FEFF.
std::string decode_utf16(std::string_view in, bool big_endian);

std::string decode_euc_jp(std::string_view in);
std::string decode_shift_jis(std::string_view in);
std::string decode_iso2022jp(std::string_view in);
std::string decode_euc_kr(std::string_view in);
// GBK when four_byte is false, gb18030 when true.
std::string decode_gbk(std::string_view in, bool four_byte);
std::string decode_big5(std::string_view in);

// Dispatch on the encoding. The replacement encoding yields one U+FFFD for
// any input, the empty one included (x/text emits it at end of input;
// to_utf8 never gets there with an empty body).
std::string decode(Encoding e, std::string_view in);

// The table of a single-byte encoding (decode_single_byte), or null.
const std::array<std::uint16_t, 128>* single_byte_table(Encoding e);

// decode(e, text) would return the text itself: valid UTF-8 for UTF-8,
// ASCII for a single-byte encoding. Lets a caller that owns the body keep it
// instead of copying it (most bodies are one of the two). The text is what
// the parts make in order (one part for a body in one string): a character
// may begin in one part and end in the next.
bool decodes_to_itself(Encoding e, std::span<const std::string> parts);

}  // namespace tlsc::charset::detail
