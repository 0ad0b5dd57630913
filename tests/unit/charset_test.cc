// tlsc::charset against Go. Every expected output in the table-driven cases
// below was produced by Go itself: golang.org/x/net v0.48.0 html/charset
// over golang.org/x/text v0.32.0 (the versions tls-client pins), via
// io.ReadAll(charset.NewReader(bytes.NewReader(body), contentType)), with
// the name from charset.DetermineEncoding. Where Go's x/text departs from
// the WHATWG Encoding Standard (error handling, a few tables), the case says
// so: Go is what this library must reproduce.
#include "charset/charset.h"

#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "charset/determine.h"
#include "charset/encoding.h"
#include "charset/media_type.h"
#include "charset/meta_prescan.h"
#include "charset/stream_converter.h"

using namespace std::string_view_literals;
using tlsc::charset::Encoding;

namespace {

struct Case {
  std::string_view content_type;
  std::string body;
  std::string expected;
  std::string_view encoding;  // Go's DetermineEncoding name
};

std::string spaces(std::size_t n) { return std::string(n, ' '); }

void check_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    INFO("content type: " << c.content_type << "\nbody: " << c.body);
    const auto decision = tlsc::charset::determine_encoding(c.body, c.content_type);
    CHECK(tlsc::charset::canonical_name(decision.encoding) == c.encoding);
    CHECK(tlsc::charset::to_utf8(c.body, c.content_type) == c.expected);
    // An owned body gives the same bytes (kept, not copied, where unchanged).
    CHECK(tlsc::charset::to_utf8_owned(std::string(c.body), c.content_type) == c.expected);
    // In pieces (streamOutputPath), cut anywhere: the same bytes.
    for (size_t piece : {1, 2, 3, 5, 1024, 4096}) {
      tlsc::charset::StreamConverter conv{std::string(c.content_type)};
      std::string out;
      for (size_t i = 0; i < c.body.size(); i += piece)
        conv.feed(std::string_view(c.body).substr(i, piece), out);
      conv.finish(out);
      CHECK(out == c.expected);
    }
  }
}

}  // namespace

TEST_CASE("to_utf8: a byte order mark decides before anything else", "[charset]") {
  const std::vector<Case> cases = {
      // UTF-16LE BOM wins over the header; Go keeps the BOM as U+FEFF
      {"text/html; charset=shift_jis"sv, std::string("\xff\xfeh\x00i\x00"sv), std::string("\xef\xbb\xbfhi"sv),
       "utf-16le"sv},
      // UTF-16BE BOM
      {""sv, std::string("\xfe\xff\x00h\x00i"sv), std::string("\xef\xbb\xbfhi"sv), "utf-16be"sv},
      // UTF-8 BOM selects the UTF-8 decoder, which keeps the BOM and replaces invalid bytes
      {""sv,
       std::string("\xef\xbb\xbf"
                   "a\xff"
                   "b"sv),
       std::string("\xef\xbb\xbf"
                   "a\xef\xbf\xbd"
                   "b"sv),
       "utf-8"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: the Content-Type charset parameter, parsed like mime.ParseMediaType", "[charset]") {
  const std::vector<Case> cases = {
      // charset parameter
      {"text/html; charset=shift_jis"sv, std::string("\x93\xfa\x96{\x8c\xea"sv), std::string("日本語"sv),
       "shift_jis"sv},
      // quoted, mixed case, padded label
      {"text/html; charset=\" Shift_JIS \""sv, std::string("\x93\xfa\x96{\x8c\xea"sv),
       std::string("日本語"sv), "shift_jis"sv},
      // RFC 2231 extended parameter
      {"text/html; charset*=utf-8''euc-jp"sv, std::string("\xc6\xfc\xcb\xdc\xb8\xec"sv),
       std::string("日本語"sv), "euc-jp"sv},
      // RFC 2231 continuation pieces are joined
      {"text/html; charset*0=euc; charset*1=-jp"sv, std::string("\xc6\xfc\xcb\xdc\xb8\xec"sv),
       std::string("日本語"sv), "euc-jp"sv},
      // trailing semicolon is tolerated
      {"text/html; charset=euc-jp;"sv, std::string("\xc6\xfc\xcb\xdc\xb8\xec"sv), std::string("日本語"sv),
       "euc-jp"sv},
      // equal duplicates are tolerated (Go 1.24)
      {"text/html; charset=euc-jp; charset=euc-jp"sv, std::string("\xc6\xfc\xcb\xdc\xb8\xec"sv),
       std::string("日本語"sv), "euc-jp"sv},
      // conflicting duplicates make Go drop the header: UTF-8 sniffing takes over
      {"text/html; charset=euc-jp; charset=gbk"sv, std::string("日本x"sv), std::string("日本x"sv), "utf-8"sv},
      // junk after the parameter makes Go drop the header
      {"text/html; charset=euc-jp junk"sv, std::string("\xc6\xfcx"sv), std::string("Æüx"sv),
       "windows-1252"sv},
      // missing subtype makes Go drop the header
      {"text/; charset=euc-jp"sv, std::string("\xc6\xfcx"sv), std::string("Æüx"sv), "windows-1252"sv},
      // unknown label falls through to the fallback
      {"text/html; charset=klingon"sv, std::string("\x80"sv), std::string("€"sv), "windows-1252"sv},
      // Kelvin sign lowercases to k in Go
      {"text/html; charset=\"\xe2\x84\xaaoi8-r\""sv, std::string("\xf0\xd2\xc9\xd7\xc5\xd4"sv),
       std::string("Привет"sv), "koi8-r"sv},
      // Unicode white space around the label is trimmed
      {"text/html; charset=\"\xe2\x80\x83koi8-r\xc2\xa0\""sv, std::string("\xf0\xd2\xc9\xd7\xc5\xd4"sv),
       std::string("Привет"sv), "koi8-r"sv},
      // explicit utf-8 runs the decoder: invalid bytes become U+FFFD
      {"text/html; charset=utf-8"sv, std::string("a\xc3("sv), std::string("a\xef\xbf\xbd("sv), "utf-8"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: the meta prescan, with Go's tokenizer", "[charset]") {
  const std::vector<Case> cases = {
      // meta charset
      {""sv, std::string("<html><head><meta charset=\"euc-jp\"></head>\xc6\xfc\xcb\xdc\xb8\xec"sv),
       std::string("<html><head><meta charset=\"euc-jp\"></head>日本語"sv), "euc-jp"sv},
      // http-equiv plus content
      {""sv,
       std::string("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=shift_jis\">\x93\xfa"sv),
       std::string("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=shift_jis\">日"sv),
       "shift_jis"sv},
      // content without the http-equiv pragma is ignored
      {""sv, std::string("<meta content=\"text/html; charset=shift_jis\">\x93\xfa"sv),
       std::string("<meta content=\"text/html; charset=shift_jis\">“ú"sv), "windows-1252"sv},
      // meta inside a comment is ignored
      {""sv, std::string("<!-- <meta charset=shift_jis> --><meta charset=euc-kr>\xc7\xd1"sv),
       std::string("<!-- <meta charset=shift_jis> --><meta charset=euc-kr>한"sv), "euc-kr"sv},
      // meta inside script is ignored
      {""sv, std::string("<script>var s='<meta charset=shift_jis>';</script><meta charset=gbk>\xd6\xd0"sv),
       std::string("<script>var s='<meta charset=shift_jis>';</script><meta charset=gbk>中"sv), "gbk"sv},
      // meta inside title is ignored by Go's tokenizer (unlike the WHATWG prescan)
      {""sv, std::string("<title><meta charset=shift_jis></title>\x93\xfa"sv),
       std::string("<title><meta charset=shift_jis></title>“ú"sv), "windows-1252"sv},
      // unterminated meta at the end of the preview is ignored
      {""sv, std::string("<meta charset=shift_jis"sv), std::string("<meta charset=shift_jis"sv),
       "windows-1252"sv},
      // meta beyond the first 1024 bytes is not seen
      {""sv, spaces(1024) + std::string("<meta charset=shift_jis>\x93\xfa"sv),
       spaces(1024) + std::string("<meta charset=shift_jis>“ú"sv), "windows-1252"sv},
      // UTF-16 in meta means UTF-8 passthrough: invalid bytes survive
      {""sv, std::string("<meta charset=utf-16>\xff"sv), std::string("<meta charset=utf-16>\xff"sv),
       "utf-8"sv},
      // character references in the value are decoded
      {""sv, std::string("<meta charset=\"&#x73;hift_jis\">\x93\xfa"sv),
       std::string("<meta charset=\"&#x73;hift_jis\">日"sv), "shift_jis"sv},
      // a later charset attribute overrides content
      {""sv, std::string("<meta http-equiv=content-type content=\"charset=gbk\" charset=big5>\xa4\xa4"sv),
       std::string("<meta http-equiv=content-type content=\"charset=gbk\" charset=big5>中"sv), "big5"sv},
      // first of duplicate attributes wins
      {""sv, std::string("<meta charset=big5 charset=gbk>\xa4\xa4"sv),
       std::string("<meta charset=big5 charset=gbk>中"sv), "big5"sv},
      // unknown meta label falls through to the fallback
      {""sv, std::string("<meta charset=klingon>\x80"sv), std::string("<meta charset=klingon>€"sv),
       "windows-1252"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: UTF-8 sniffing of the preview", "[charset]") {
  const std::vector<Case> cases = {
      // valid UTF-8 in the preview: passthrough, later invalid bytes survive
      {""sv, std::string("é"sv) + spaces(1100) + std::string("\xff"sv),
       std::string("é"sv) + spaces(1100) + std::string("\xff"sv), "utf-8"sv},
      // Go drops the final rune before checking: a lone trailing é is windows-1252
      {""sv, std::string("café"sv), std::string("cafÃ©"sv), "windows-1252"sv},
      // ASCII only: windows-1252 (x/text maps 0x81 to U+FFFD)
      {""sv, std::string("abc"sv), std::string("abc"sv), "windows-1252"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: windows-1252 fallback", "[charset]") {
  const std::vector<Case> cases = {
      // windows-1252 with x/text's holes
      {""sv, std::string("\x80\x81\x9f\xe9"sv), std::string("€\xef\xbf\xbdŸé"sv), "windows-1252"sv},
      // invalid UTF-8 falls back to windows-1252
      {""sv, std::string("\xc3("sv), std::string("Ã("sv), "windows-1252"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding shift_jis", "[charset]") {
  const std::vector<Case> cases = {
      // kanji and half-width katakana
      {"text/plain; charset=shift_jis"sv,
       std::string("\x93\xfa\x96{\x8c\xea\xb1"
                   "A"sv),
       std::string("日本語ｱA"sv), "shift_jis"sv},
      // 0x80 is U+0080 (as WHATWG says; ICU's TextDecoder gives U+FFFD)
      {"text/plain; charset=shift_jis"sv, std::string("\x80"sv), std::string("\xc2\x80"sv), "shift_jis"sv},
      // Cyrillic row
      {"text/plain; charset=shift_jis"sv, std::string("\x84P\x84\x82\x84y\x84r\x84u\x84\x84"sv),
       std::string("Привет"sv), "shift_jis"sv},
      // lead byte at the end
      {"text/plain; charset=shift_jis"sv, std::string("a\x93"sv), std::string("a\xef\xbf\xbd"sv),
       "shift_jis"sv},
      // ASCII trail byte is decoded on its own
      {"text/plain; charset=shift_jis"sv, std::string("\x93 "sv), std::string("\xef\xbf\xbd "sv),
       "shift_jis"sv},
      // unmapped pair with an ASCII trail: x/text swallows both (WHATWG would keep '@')
      {"text/plain; charset=shift_jis"sv, std::string("\x85@"sv), std::string("\xef\xbf\xbd"sv),
       "shift_jis"sv},
      // user-defined rows are unmapped in x/text (WHATWG: PUA)
      {"text/plain; charset=shift_jis"sv, std::string("\xf0@"sv), std::string("\xef\xbf\xbd"sv),
       "shift_jis"sv},
      // 0xA0 and 0xFD..0xFF are single-byte errors
      {"text/plain; charset=shift_jis"sv, std::string("\xa0\xfd\xfe\xff"sv),
       std::string("\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"sv), "shift_jis"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding euc-jp", "[charset]") {
  const std::vector<Case> cases = {
      // JIS X 0208, JIS X 0212 and half-width katakana
      {"text/plain; charset=euc-jp"sv, std::string("\xc6\xfc\xcb\xdc\xb8\xec\x8f\xb0\xa1\x8e\xb1"sv),
       std::string("日本語丂ｱ"sv), "euc-jp"sv},
      // bad trail byte keeps the trail
      {"text/plain; charset=euc-jp"sv,
       std::string("\xc6"
                   "A"sv),
       std::string("\xef\xbf\xbd"
                   "A"sv),
       "euc-jp"sv},
      // truncated JIS X 0212 sequence swallows a plausible second byte
      {"text/plain; charset=euc-jp"sv, std::string("\x8f\xb0"sv), std::string("\xef\xbf\xbd"sv), "euc-jp"sv},
      // 0x8E with a non-katakana trail
      {"text/plain; charset=euc-jp"sv, std::string("\x8e\xe0"sv), std::string("\xef\xbf\xbd"sv), "euc-jp"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding iso-2022-jp", "[charset]") {
  const std::vector<Case> cases = {
      // JIS X 0208 run between escapes
      {"text/plain; charset=iso-2022-jp"sv, std::string("\x1b$BF|K\\8l\x1b(B!"sv), std::string("日本語!"sv),
       "iso-2022-jp"sv},
      // katakana mode
      {"text/plain; charset=iso-2022-jp"sv, std::string("\x1b(I1\x1b(B"sv), std::string("ｱ"sv),
       "iso-2022-jp"sv},
      // newline ends a double-byte run
      {"text/plain; charset=iso-2022-jp"sv,
       std::string("\x1b$B\x0a"
                   "A"sv),
       std::string("\x0a"
                   "A"sv),
       "iso-2022-jp"sv},
      // unknown escape: only ESC is replaced
      {"text/plain; charset=iso-2022-jp"sv, std::string("\x1b(XA"sv), std::string("\xef\xbf\xbd(XA"sv),
       "iso-2022-jp"sv},
      // bytes >= 0x80 are errors
      {"text/plain; charset=iso-2022-jp"sv,
       std::string("\x80"
                   "A"sv),
       std::string("\xef\xbf\xbd"
                   "A"sv),
       "iso-2022-jp"sv},
      // odd byte at the end of a double-byte run
      {"text/plain; charset=iso-2022-jp"sv, std::string("\x1b$BF"sv), std::string("\xef\xbf\xbd"sv),
       "iso-2022-jp"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding gbk", "[charset]") {
  const std::vector<Case> cases = {
      // GB2312 range and the 0x80 euro
      {"text/plain; charset=gbk"sv, std::string("\xd6\xd0\xce\xc4\x80"sv), std::string("中文€"sv), "gbk"sv},
      // GBK has no four-byte form in x/text
      {"text/plain; charset=gbk"sv,
       std::string("\x81"
                   "0\x81"
                   "0"sv),
       std::string("\xef\xbf\xbd"
                   "0\xef\xbf\xbd"
                   "0"sv),
       "gbk"sv},
      // lead byte at the end
      {"text/plain; charset=gbk"sv, std::string("a\xd6"sv), std::string("a\xef\xbf\xbd"sv), "gbk"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding gb18030", "[charset]") {
  const std::vector<Case> cases = {
      // four-byte BMP and supplementary code points
      {"text/plain; charset=gb18030"sv,
       std::string("\x81"
                   "0\x8c"
                   "1\x94"
                   "9\xfc"
                   "6"sv),
       std::string("Ą😀"sv), "gb18030"sv},
      // two-byte extension
      {"text/plain; charset=gb18030"sv, std::string("\x81@"sv), std::string("丂"sv), "gb18030"sv},
      // four-byte pointer in the gap skips only the lead
      {"text/plain; charset=gb18030"sv,
       std::string("\x84"
                   "1\xa5"
                   "0"sv),
       std::string("\xef\xbf\xbd"
                   "1\xef\xbf\xbd"
                   "0"sv),
       "gb18030"sv},
      // bad third byte
      {"text/plain; charset=gb18030"sv,
       std::string("\x81"
                   "0AA"sv),
       std::string("\xef\xbf\xbd"
                   "0AA"sv),
       "gb18030"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding big5", "[charset]") {
  const std::vector<Case> cases = {
      // common hanzi
      {"text/plain; charset=big5"sv, std::string("\xa4\xa4\xa4\xe5"sv), std::string("中文"sv), "big5"sv},
      // pointers that decode to two code points
      {"text/plain; charset=big5"sv,
       std::string("\x88"
                   "b\x88"
                   "d\x88\xa3\x88\xa5"sv),
       std::string("Ê̄Ê̌ê̄ê̌"sv), "big5"sv},
      // HKSCS plane-2 entry
      {"text/plain; charset=big5"sv,
       std::string("\x87"
                   "E"sv),
       std::string("𧉧"sv), "big5"sv},
      // ASCII trail kept, 0x7F..0xA0 trail swallowed
      {"text/plain; charset=big5"sv, std::string("\xa4 \xa4\x80"sv),
       std::string("\xef\xbf\xbd \xef\xbf\xbd"sv), "big5"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding euc-kr", "[charset]") {
  const std::vector<Case> cases = {
      // KS X 1001 hangul
      {"text/plain; charset=euc-kr"sv, std::string("\xc7\xd1\xb1\xb9\xbe\xee"sv), std::string("한국어"sv),
       "euc-kr"sv},
      // UHC extension (x/text has it; ICU's euc-kr does not)
      {"text/plain; charset=euc-kr"sv,
       std::string("\x81"
                   "A"sv),
       std::string("갂"sv), "euc-kr"sv},
      // ASCII trail kept
      {"text/plain; charset=euc-kr"sv, std::string("\xc7 "sv), std::string("\xef\xbf\xbd "sv), "euc-kr"sv},
      // 0x80 and 0xFF
      {"text/plain; charset=euc-kr"sv, std::string("\x80\xff"sv), std::string("\xef\xbf\xbd\xef\xbf\xbd"sv),
       "euc-kr"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding utf-16le", "[charset]") {
  const std::vector<Case> cases = {
      // surrogate pair
      {"text/plain; charset=utf-16le"sv,
       std::string("=\xd8\x00\xde"
                   "A\x00"sv),
       std::string("😀A"sv), "utf-16le"sv},
      // lone lead surrogate then a letter
      {"text/plain; charset=utf-16le"sv,
       std::string("=\xd8"
                   "A\x00"sv),
       std::string("\xef\xbf\xbd"
                   "A"sv),
       "utf-16le"sv},
      // two trail surrogates are one U+FFFD in x/text (WHATWG: two)
      {"text/plain; charset=utf-16le"sv, std::string("\x00\xde\x00\xde"sv), std::string("\xef\xbf\xbd"sv),
       "utf-16le"sv},
      // odd trailing byte
      {"text/plain; charset=utf-16le"sv,
       std::string("A\x00"
                   "B"sv),
       std::string("A\xef\xbf\xbd"sv), "utf-16le"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding utf-16be", "[charset]") {
  const std::vector<Case> cases = {
      // surrogate pair
      {"text/plain; charset=utf-16be"sv,
       std::string("\xd8=\xde\x00\x00"
                   "A"sv),
       std::string("😀A"sv), "utf-16be"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding utf-16", "[charset]") {
  const std::vector<Case> cases = {
      // "utf-16" is little-endian
      {"text/plain; charset=utf-16"sv, std::string("A\x00"sv), std::string("A"sv), "utf-16le"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding windows-1251", "[charset]") {
  const std::vector<Case> cases = {
      // Cyrillic
      {"text/plain; charset=windows-1251"sv, std::string("\xcf\xf0\xe8\xe2\xe5\xf2"sv),
       std::string("Привет"sv), "windows-1251"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding koi8-r", "[charset]") {
  const std::vector<Case> cases = {
      // Cyrillic
      {"text/plain; charset=koi8-r"sv, std::string("\xf0\xd2\xc9\xd7\xc5\xd4"sv), std::string("Привет"sv),
       "koi8-r"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding iso-8859-2", "[charset]") {
  const std::vector<Case> cases = {
      // Latin-2
      {"text/plain; charset=iso-8859-2"sv, std::string("\xa1"sv), std::string("Ą"sv), "iso-8859-2"sv},
      // C1 bytes are U+FFFD in x/text (WHATWG: U+0080..U+009F)
      {"text/plain; charset=iso-8859-2"sv, std::string("\x80"sv), std::string("\xef\xbf\xbd"sv),
       "iso-8859-2"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding koi8-u", "[charset]") {
  const std::vector<Case> cases = {
      // x/text's KOI8-U (0xAE is ў, not WHATWG's box drawing)
      {"text/plain; charset=koi8-u"sv, std::string("\xae"sv), std::string("ў"sv), "koi8-u"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding iso-8859-16", "[charset]") {
  const std::vector<Case> cases = {
      // ISO-8859-16
      {"text/plain; charset=iso-8859-16"sv, std::string("\xa1\xa4"sv), std::string("Ą€"sv), "iso-8859-16"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding x-user-defined", "[charset]") {
  const std::vector<Case> cases = {
      // high bytes map to U+F780..U+F7FF
      {"text/plain; charset=x-user-defined"sv,
       std::string("\x80\xff"
                   "A"sv),
       std::string("\xef\x9e\x80\xef\x9f\xbf"
                   "A"sv),
       "x-user-defined"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding iso-8859-8-i", "[charset]") {
  const std::vector<Case> cases = {
      // shares ISO-8859-8's table
      {"text/plain; charset=iso-8859-8-i"sv, std::string("\xe0"sv), std::string("א"sv), "iso-8859-8-i"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding iso-2022-kr", "[charset]") {
  const std::vector<Case> cases = {
      // replacement encoding: one U+FFFD for the whole body
      {"text/plain; charset=iso-2022-kr"sv, std::string("anything at all"sv), std::string("\xef\xbf\xbd"sv),
       "replacement"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: decoding utf-8", "[charset]") {
  const std::vector<Case> cases = {
      // maximal subparts: E0 80 is two errors, a truncated 4-byte sequence one
      {"text/plain; charset=utf-8"sv, std::string("\xe0\x80|\xf0\x9f\x98"sv),
       std::string("\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd"sv), "utf-8"sv},
      // surrogate encodings are errors
      {"text/plain; charset=utf-8"sv, std::string("\xed\xa0\x80"sv),
       std::string("\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"sv), "utf-8"sv},
  };
  check_cases(cases);
}

TEST_CASE("to_utf8: valid text decodes as Node's TextDecoder does", "[charset][textdecoder]") {
  // Expected outputs are TextDecoder(label, {ignoreBOM: true}).decode(body),
  // which agrees with Go on these inputs (not on errors; see above).
  const std::vector<Case> cases = {
      {"text/plain; charset=shift_jis"sv,
       std::string("\x93\xfa\x96{\x8c\xea\xb1"
                   "A"sv),
       std::string("日本語ｱA"sv), "shift_jis"sv},
      {"text/plain; charset=shift_jis"sv, std::string("\x84P\x84\x82\x84y\x84r\x84u\x84\x84"sv),
       std::string("Привет"sv), "shift_jis"sv},
      {"text/plain; charset=euc-jp"sv, std::string("\xc6\xfc\xcb\xdc\xb8\xec\x8f\xb0\xa1\x8e\xb1"sv),
       std::string("日本語丂ｱ"sv), "euc-jp"sv},
      {"text/plain; charset=iso-2022-jp"sv, std::string("\x1b$BF|K\\8l\x1b(B!"sv), std::string("日本語!"sv),
       "iso-2022-jp"sv},
      {"text/plain; charset=iso-2022-jp"sv, std::string("\x1b(I1\x1b(B"sv), std::string("ｱ"sv),
       "iso-2022-jp"sv},
      {"text/plain; charset=gbk"sv, std::string("\xd6\xd0\xce\xc4\x80"sv), std::string("中文€"sv), "gbk"sv},
      {"text/plain; charset=gb18030"sv,
       std::string("\x81"
                   "0\x8c"
                   "1\x94"
                   "9\xfc"
                   "6"sv),
       std::string("Ą😀"sv), "gb18030"sv},
      {"text/plain; charset=gb18030"sv, std::string("\x81@"sv), std::string("丂"sv), "gb18030"sv},
      {"text/plain; charset=big5"sv, std::string("\xa4\xa4\xa4\xe5"sv), std::string("中文"sv), "big5"sv},
      {"text/plain; charset=euc-kr"sv, std::string("\xc7\xd1\xb1\xb9\xbe\xee"sv), std::string("한국어"sv),
       "euc-kr"sv},
      {"text/plain; charset=utf-16le"sv,
       std::string("=\xd8\x00\xde"
                   "A\x00"sv),
       std::string("😀A"sv), "utf-16le"sv},
      {"text/plain; charset=utf-16be"sv,
       std::string("\xd8=\xde\x00\x00"
                   "A"sv),
       std::string("😀A"sv), "utf-16be"sv},
      {"text/plain; charset=utf-16"sv, std::string("A\x00"sv), std::string("A"sv), "utf-16le"sv},
      {"text/plain; charset=windows-1251"sv, std::string("\xcf\xf0\xe8\xe2\xe5\xf2"sv),
       std::string("Привет"sv), "windows-1251"sv},
      {"text/plain; charset=koi8-r"sv, std::string("\xf0\xd2\xc9\xd7\xc5\xd4"sv), std::string("Привет"sv),
       "koi8-r"sv},
      {"text/plain; charset=iso-8859-2"sv, std::string("\xa1"sv), std::string("Ą"sv), "iso-8859-2"sv},
      {"text/plain; charset=iso-8859-8-i"sv, std::string("\xe0"sv), std::string("א"sv), "iso-8859-8-i"sv},
  };
  check_cases(cases);
}

TEST_CASE("determine_encoding: reports where the decision came from", "[charset]") {
  using tlsc::charset::Source;
  const auto d = [](std::string_view body, std::string_view ct) {
    return tlsc::charset::determine_encoding(body, ct);
  };
  CHECK(d("\xef\xbb\xbfx"sv, "").source == Source::bom);
  CHECK_FALSE(d("\xef\xbb\xbfx"sv, "").passthrough);
  CHECK(d("x", "text/html; charset=gbk").source == Source::content_type);
  CHECK(d("<meta charset=gbk>", "").source == Source::meta);
  CHECK(d("<meta charset=gbk>", "").encoding == Encoding::gbk);
  const auto utf16_meta = d("<meta charset=UTF-16BE>", "");
  CHECK(utf16_meta.source == Source::meta);
  CHECK(utf16_meta.passthrough);
  CHECK(utf16_meta.encoding == Encoding::utf8);
  const auto sniffed = d("\xc3\xa9x", "");
  CHECK(sniffed.source == Source::utf8_sniff);
  CHECK(sniffed.passthrough);
  CHECK(d("plain", "").source == Source::fallback);
  CHECK(d("plain", "").encoding == Encoding::windows1252);
}

TEST_CASE("determine_encoding: only the first 1024 bytes count", "[charset]") {
  // Invalid UTF-8 at byte 1024 is outside the preview: still passthrough.
  std::string body = "\xc3\xa9" + std::string(1022, 'a') + "\xff";
  CHECK(tlsc::charset::determine_encoding(body, "").passthrough);
  CHECK(tlsc::charset::to_utf8(body, "") == body);
  // As the last preview byte it counts as a cut-off rune and is dropped.
  body = "\xc3\xa9" + std::string(1021, 'a') + "\xff";
  CHECK(tlsc::charset::determine_encoding(body, "").passthrough);
  // Anywhere earlier it makes the body windows-1252.
  body = "\xc3\xa9" + std::string(1020, 'a') +
         "\xff"
         "b";
  CHECK(tlsc::charset::determine_encoding(body, "").encoding == Encoding::windows1252);
  // A rune cut by the 1024-byte boundary is ignored, not held against UTF-8.
  body = std::string(1023, 'a') + "\xc3\xa9";
  CHECK(tlsc::charset::determine_encoding(body + "\xc3\xa9", "").encoding == Encoding::windows1252);
  body = "\xc3\xa9" + std::string(1021, 'a') + "\xe6\x97\xa5";
  CHECK(tlsc::charset::determine_encoding(body, "").passthrough);
}

TEST_CASE("to_utf8: long bodies decode the same across any split", "[charset]") {
  // x/text decodes in 4 KiB chunks; a character straddling a chunk boundary
  // must come out whole, as it does in Go.
  std::string body;
  std::string expected;
  for (int i = 0; i < 3000; ++i) {
    body += "a\x93\xfa";  // "a日" in Shift_JIS, odd length so pairs move around
    expected += "a日";
  }
  CHECK(tlsc::charset::to_utf8(body, "text/plain; charset=sjis") == expected);
}

TEST_CASE("to_utf8: an empty body stays empty", "[charset]") {
  CHECK(tlsc::charset::to_utf8("", "text/html; charset=iso-2022-kr").empty());
  CHECK(tlsc::charset::to_utf8("", "").empty());
}

TEST_CASE("lookup_label: every WHATWG label htmlindex knows", "[charset]") {
  using tlsc::charset::lookup_label;
  CHECK(lookup_label("utf8") == Encoding::utf8);
  CHECK(lookup_label("unicode11utf8") == Encoding::utf8);
  CHECK(lookup_label("866") == Encoding::ibm866);
  CHECK(lookup_label("latin1") == Encoding::windows1252);
  CHECK(lookup_label("iso-8859-9") == Encoding::windows1254);
  CHECK(lookup_label("iso-8859-11") == Encoding::windows874);
  CHECK(lookup_label("logical") == Encoding::iso8859_8i);
  CHECK(lookup_label("x-mac-ukrainian") == Encoding::x_mac_cyrillic);
  CHECK(lookup_label("gb2312") == Encoding::gbk);
  CHECK(lookup_label("big5-hkscs") == Encoding::big5);
  CHECK(lookup_label("windows-31j") == Encoding::shift_jis);
  CHECK(lookup_label("windows-949") == Encoding::euc_kr);
  CHECK(lookup_label("hz-gb-2312") == Encoding::replacement);
  CHECK(lookup_label("replacement") == Encoding::replacement);
  CHECK(lookup_label("ucs-2") == Encoding::utf16le);
  CHECK(lookup_label("unicodefffe") == Encoding::utf16be);
  CHECK(lookup_label("x-user-defined") == Encoding::x_user_defined);
  // Case-insensitive, white space trimmed (Unicode's too), Go's lowercasing.
  CHECK(lookup_label(" \tShift_JIS\n") == Encoding::shift_jis);
  CHECK(lookup_label("\xe3\x80\x80utf-8\xc2\x85") == Encoding::utf8);
  CHECK(lookup_label("\xc4\xb0so-8859-2") == Encoding::iso8859_2);  // U+0130
  CHECK_FALSE(lookup_label("utf-7"));
  CHECK_FALSE(lookup_label(""));
  CHECK_FALSE(lookup_label("utf-8\xe2\x80\x8b"));  // ZWSP is not white space
  CHECK(tlsc::charset::canonical_name(Encoding::iso8859_8i) == "iso-8859-8-i");
}

TEST_CASE("charset_param: mime.ParseMediaType rules", "[charset]") {
  using tlsc::charset::charset_param;
  CHECK(charset_param("text/html; charset=UTF-8") == "UTF-8");
  CHECK(charset_param("text/html;charset=\"a\\\"b\"") == "a\"b");
  CHECK(charset_param("text/html; charset=\"C:\\dir\"") == "C:\\dir");  // MSIE paths
  CHECK(charset_param("TEXT/HTML ; CHARSET = x") == "x");
  CHECK(charset_param("text; charset=x") == "x");  // a bare type is valid
  CHECK(charset_param("text/html; charset=\"\"") == "");
  CHECK(charset_param("text/html; charset*=us-ascii'en'a%2Db") == "a-b");
  CHECK(charset_param("text/html; charset*=latin1''x") == std::nullopt);
  CHECK(charset_param("text/html; charset=x; charset*=utf-8''y") == "y");
  CHECK(charset_param("text/html; charset=x; charset*=bogus") == "x");
  CHECK(charset_param("text/html; other=1") == std::nullopt);
  CHECK(charset_param("") == std::nullopt);
  CHECK(charset_param("text/html/x; charset=x") == std::nullopt);
  CHECK(charset_param("text/html; charset") == std::nullopt);
  CHECK(charset_param("text/html; charset=\"open") == std::nullopt);
  CHECK(charset_param("text/html; charset=\"a\r\nb\"") == std::nullopt);
  CHECK(charset_param("text/html; charset=x;;") == std::nullopt);
}

TEST_CASE("prescan_meta: Go's meta rules", "[charset]") {
  using tlsc::charset::prescan_meta;
  const auto enc = [](std::string_view html) -> std::optional<Encoding> {
    const auto m = prescan_meta(html);
    if (!m) return std::nullopt;
    return m->encoding;
  };
  CHECK(enc("<META CHARSET=EUC-KR>") == Encoding::euc_kr);
  CHECK(enc("<meta charset=euc-kr/>") == std::nullopt);  // "euc-kr/" is no label
  CHECK(enc("<meta charset=euc-kr />") == Encoding::euc_kr);
  CHECK(enc("<meta content='charset=gbk' http-equiv='CONTENT-TYPE'>") == Encoding::gbk);
  CHECK(enc("<meta http-equiv=refresh content='charset=gbk'>") == std::nullopt);
  CHECK(enc("<meta charset=bogus><meta charset=gbk>") == Encoding::gbk);
  CHECK(enc("<!DOCTYPE html><?pi <meta charset=big5>?><meta charset=gbk>") == Encoding::gbk);
  CHECK(enc("<style><meta charset=big5></style><meta charset=gbk>") == Encoding::gbk);
  CHECK(enc("<textarea><meta charset=big5></TEXTAREA ><meta charset=gbk>") == Encoding::gbk);
  CHECK(enc("<plaintext><meta charset=big5>") == std::nullopt);
  // A quoted '>' inside an end tag does not end it.
  CHECK(enc("</p title='><meta charset=big5>'><meta charset=gbk>") == Encoding::gbk);
  // Escaped script data: "<!--<script>" hides the next "</script>".
  CHECK(enc("<script><!--<script></script><meta charset=big5></script><meta charset=gbk>") == Encoding::gbk);
  CHECK(enc("<meta charset=&quot;gbk&quot;>") == std::nullopt);
  CHECK(enc("<meta charset=\"&NewLine;gbk&Tab;\">") == Encoding::gbk);
  CHECK(enc("<meta charset=gbk&>") == std::nullopt);
  CHECK(enc("<meta =charset=gbk>") == std::nullopt);  // the attribute is "=charset"
  CHECK(tlsc::charset::charset_from_meta_content("text/html; charset = 'x y'; z") == "x y");
  CHECK(tlsc::charset::charset_from_meta_content("charset;charset=x") == "x");
  CHECK(tlsc::charset::charset_from_meta_content("charset='x") == "");
  CHECK(tlsc::charset::charset_from_meta_content("charset=x;y") == "x");
}

TEST_CASE("to_utf8: an owned body that converts to itself comes back without a copy", "[charset]") {
  auto same_buffer = [](std::string body, std::string_view content_type) {
    const std::string copy = body;
    // Long enough to live on the heap, so that a move keeps its buffer.
    const char* before = body.data();
    std::string out = tlsc::charset::to_utf8_owned(std::move(body), content_type);
    CHECK(out == tlsc::charset::to_utf8(std::string_view(copy), content_type));
    return out.data() == before;
  };
  const std::string ascii(4096, 'a');
  const std::string utf8 = std::string(2000, 'b') + "\xC3\xA9\xE2\x82\xAC" + std::string(2000, 'c');
  const std::string latin1 = std::string(2000, 'd') + "\xE9" + std::string(2000, 'e');
  CHECK(same_buffer(ascii, "text/html"));                  // windows-1252, ASCII
  CHECK(same_buffer(ascii, "text/html; charset=koi8-r"));  // single-byte, ASCII
  CHECK(same_buffer(utf8, "text/html; charset=utf-8"));    // valid UTF-8
  const std::string utf8_early = "\xC3\xA9" + utf8;        // non-ASCII in Go's 1024-byte preview
  CHECK(same_buffer(utf8_early, "text/html"));             // sniffed UTF-8: passed through
  CHECK_FALSE(same_buffer(utf8, "text/html"));  // ASCII preview: windows-1252, and the é converted
  CHECK_FALSE(same_buffer(latin1, "text/html; charset=utf-8"));         // invalid: U+FFFD
  CHECK_FALSE(same_buffer(latin1, "text/html; charset=windows-1252"));  // converted
  CHECK_FALSE(same_buffer(ascii, "text/html; charset=utf-16le"));       // not ASCII-compatible
  CHECK_FALSE(same_buffer(ascii, "text/html; charset=shift_jis"));      // no fast path
}

TEST_CASE("to_utf8: a body in parts converts to itself exactly when the joined body does", "[charset]") {
  // converts_to_itself(parts) must say what to_utf8_owned says of the joined
  // body (the same buffer back), wherever the parts are cut: through a
  // character, through Go's 1024-byte preview, after an ill-formed byte.
  auto kept_whole = [](const std::string& body, std::string_view content_type) {
    std::string owned = body;
    const char* before = owned.data();
    return tlsc::charset::to_utf8_owned(std::move(owned), content_type).data() == before;
  };
  const std::string utf8 =
      std::string(1500, 'b') + "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80" + std::string(1500, 'c');
  const std::vector<std::string> bodies = {
      std::string(3000, 'a'),
      utf8,
      "\xC3\xA9" + utf8,                                   // sniffed as UTF-8: passed through
      "\xC3\xA9" + utf8 + "\xFF" + std::string(600, 'x'),  // passed through, ill-formed late
      std::string(1500, 'd') + "\xE9" + std::string(1500, 'e'),
      std::string(1500, 'd') + "\xF0\x9F\x98" + std::string(1500, 'e'),  // cut short
      std::string(1500, 'd') + "\xF0\x9F\x98",                           // cut short at the end
      std::string(1500, 'd') + "\xED\xA0\x80" + std::string(10, 'e'),    // a surrogate
  };
  const std::vector<std::string_view> types = {"text/html", "text/html; charset=utf-8",
                                               "text/html; charset=koi8-r", "text/html; charset=shift_jis"};
  for (const std::string& body : bodies) {
    for (std::string_view type : types) {
      const bool whole = kept_whole(body, type);
      CHECK(tlsc::charset::converts_to_itself(std::vector<std::string>{body}, type) == whole);
      for (size_t cut : {size_t{1}, size_t{2}, size_t{700}, size_t{1023}, size_t{1024}, size_t{1501},
                         size_t{1502}, size_t{1503}, size_t{1504}, size_t{1505}, size_t{1506}, size_t{1507},
                         size_t{1508}, body.size() - 1}) {
        if (cut > body.size()) continue;
        INFO("body of " << body.size() << " bytes, " << type << ", cut at " << cut);
        const std::vector<std::string> two = {body.substr(0, cut), body.substr(cut)};
        CHECK(tlsc::charset::converts_to_itself(two, type) == whole);
        const std::vector<std::string> three = {body.substr(0, cut / 2), body.substr(cut / 2, cut - cut / 2),
                                                body.substr(cut)};
        CHECK(tlsc::charset::converts_to_itself(three, type) == whole);
      }
    }
  }
  CHECK(tlsc::charset::converts_to_itself(std::vector<std::string>{}, "text/html"));
  CHECK(tlsc::charset::converts_to_itself(std::vector<std::string>{"", ""}, "text/html"));
}
