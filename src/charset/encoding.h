// The encodings Go's html/charset can select, and their WHATWG labels as
// golang.org/x/text/encoding/htmlindex knows them.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tlsc::charset {

enum class Encoding : std::uint8_t {
  utf8,
  ibm866,
  iso8859_2,
  iso8859_3,
  iso8859_4,
  iso8859_5,
  iso8859_6,
  iso8859_7,
  iso8859_8,
  iso8859_8i,
  iso8859_10,
  iso8859_13,
  iso8859_14,
  iso8859_15,
  iso8859_16,
  koi8_r,
  koi8_u,
  macintosh,
  windows874,
  windows1250,
  windows1251,
  windows1252,
  windows1253,
  windows1254,
  windows1255,
  windows1256,
  windows1257,
  windows1258,
  x_mac_cyrillic,
  gbk,
  gb18030,
  big5,
  euc_jp,
  iso2022jp,
  shift_jis,
  euc_kr,
  replacement,
  utf16be,
  utf16le,
  x_user_defined,
};

// htmlindex.Get: surrounding Unicode white space is ignored and matching is
// case-insensitive (Go's Unicode lowercasing).
std::optional<Encoding> lookup_label(std::string_view label);

// htmlindex canonical name, e.g. "shift_jis", "utf-16le".
std::string_view canonical_name(Encoding e);

}  // namespace tlsc::charset
