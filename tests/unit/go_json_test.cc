// Go's encoding/json on the caller's bytes: the syntax check's messages and
// the replacement of what is not UTF-8 inside strings. Every expected text
// here is what upstream's own library answered for the same input
// (../shared/reference, through request()).
#include <catch2/catch.hpp>

#include "abi/go_json_strings.h"
#include "abi/go_json_syntax.h"

using tlsc::go_json_syntax_error;
using tlsc::with_go_replacement_characters;

TEST_CASE("go json syntax: the first error in Go's words", "[json]") {
  struct Case {
    std::string in;
    const char* want;
  };
  const std::vector<Case> cases = {
      {R"({"requestUrl":"http://x/", nope})",
       "invalid character 'n' looking for beginning of object key string"},
      {R"({"requestUrl" "x"})", "invalid character '\"' after object key"},
      {"[1,2", "unexpected end of JSON input"},
      {"", "unexpected end of JSON input"},
      {" ", "unexpected end of JSON input"},
      {"{", "unexpected end of JSON input"},
      {R"({"a":1,})", "invalid character '}' looking for beginning of object key string"},
      {"[1,]", "invalid character ']' looking for beginning of value"},
      {R"({"a" 1})", "invalid character '1' after object key"},
      {"tru", "invalid character ' ' in literal true (expecting 'e')"},
      {"trux", "invalid character 'x' in literal true (expecting 'e')"},
      {"nul", "invalid character ' ' in literal null (expecting 'l')"},
      {"fals", "invalid character ' ' in literal false (expecting 'e')"},
      {"-", "invalid character ' ' in numeric literal"},
      {"-a", "invalid character 'a' in numeric literal"},
      {"01", "invalid character '1' after top-level value"},
      {"1.", "invalid character ' ' after decimal point in numeric literal"},
      {"1.e5", "invalid character 'e' after decimal point in numeric literal"},
      {"1e+", "invalid character ' ' in exponent of numeric literal"},
      {"1ex", "invalid character 'x' in exponent of numeric literal"},
      {"\"abc", "unexpected end of JSON input"},
      {R"("a\x")", "invalid character 'x' in string escape code"},
      {R"("\u12g4")", "invalid character 'g' in \\u hexadecimal character escape"},
      {std::string("\"a\x01"
                   "b\""),
       "invalid character '\\x01' in string literal"},
      {R"({"a":1}x)", "invalid character 'x' after top-level value"},
      {R"({"a":1}})", "invalid character '}' after top-level value"},
      {"'", "invalid character '\\'' looking for beginning of value"},
      {"\xe9", "invalid character '\xc3\xa9' looking for beginning of value"},  // 'é'
      {"\x7f", "invalid character '\\x7f' looking for beginning of value"},
      {"\xa0", "invalid character '\\u00a0' looking for beginning of value"},
      {"\xad", "invalid character '\\u00ad' looking for beginning of value"},
      {"\\", "invalid character '\\\\' looking for beginning of value"},
      {R"({"a"})", "invalid character '}' after object key"},
      {R"({"a":[1 2]})", "invalid character '2' after array element"},
      {R"({"a":{"b":1 "c":2}})", "invalid character '\"' after object key:value pair"},
      {"{1:2}", "invalid character '1' looking for beginning of object key string"},
      {std::string(10001, '['), "invalid character '[' exceeded max depth"},
      {std::string(10000, '['), "unexpected end of JSON input"},
      {"\xef\xbb\xbf{}",
       "invalid character '\xc3\xaf' looking for beginning of value"},  // a BOM is no JSON to Go
  };
  for (const auto& c : cases) {
    INFO(c.in.substr(0, 60));
    auto got = go_json_syntax_error(c.in);
    REQUIRE(got.has_value());
    CHECK(*got == c.want);
  }
  const std::vector<std::string> valid = {
      "{}",     "[]",           "null",
      "1",      "-0.5e+3",      R"({"a":[1,{"b":null}],"c":"\u00e9\n"})",
      " true ", "\"\xff\xfe\"", std::string(10000, '[') + std::string(10000, ']')};
  for (const std::string& ok : valid) {
    INFO(ok.substr(0, 60));
    CHECK_FALSE(go_json_syntax_error(ok).has_value());
  }
}

TEST_CASE("go json strings: what is not UTF-8 becomes U+FFFD, as Go decodes it", "[json]") {
  CHECK_FALSE(with_go_replacement_characters(R"({"a":"\u00e9 \ud83d\ude00 ok"})").has_value());
  CHECK(*with_go_replacement_characters("{\"a\":\"x\xe9\xff\"}") == "{\"a\":\"x\xef\xbf\xbd\xef\xbf\xbd\"}");
  // An encoded surrogate and a truncated sequence: one U+FFFD per byte.
  CHECK(*with_go_replacement_characters("\"\xed\xa0\x80\"") == "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
  CHECK(*with_go_replacement_characters("\"\xf0\x9f\x98\"") == "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
  CHECK(*with_go_replacement_characters("\"\xc0\xaf\"") == "\"\xef\xbf\xbd\xef\xbf\xbd\"");
  // Lone surrogate escapes; the escape after a lone high one is read anew.
  CHECK(*with_go_replacement_characters(R"("\ud800x")") == R"("\ufffdx")");
  CHECK(*with_go_replacement_characters(R"("\ud800\u0041")") == R"("\ufffd\u0041")");
  CHECK(*with_go_replacement_characters(R"("\udc00\ud800\udc00")") == R"("\ufffd\ud800\udc00")");
  // Outside strings nothing changes (the syntax check refused such bytes already).
  CHECK(*with_go_replacement_characters("[\"\xff\", 1]") == "[\"\xef\xbf\xbd\", 1]");
  // An escaped backslash before the closing quote does not keep the string open.
  CHECK(*with_go_replacement_characters("[\"\\\\\", \"\xff\"]") == "[\"\\\\\", \"\xef\xbf\xbd\"]");
}
