#include "wire/header_canon.h"

#include <catch2/catch.hpp>

using tlsc::canonical_header_key;

TEST_CASE("canonical_header_key matches textproto.CanonicalMIMEHeaderKey", "[header_canon]") {
  CHECK(canonical_header_key("accept-encoding") == "Accept-Encoding");
  CHECK(canonical_header_key("ACCEPT-ENCODING") == "Accept-Encoding");
  CHECK(canonical_header_key("Content-Length") == "Content-Length");
  CHECK(canonical_header_key("x-forwarded-for") == "X-Forwarded-For");
  CHECK(canonical_header_key("user-agent") == "User-Agent");
  CHECK(canonical_header_key("etag") == "Etag");  // not "ETag"
  CHECK(canonical_header_key("www-authenticate") == "Www-Authenticate");
  CHECK(canonical_header_key("foo-") == "Foo-");
  CHECK(canonical_header_key("-foo") == "-Foo");
  CHECK(canonical_header_key("foo--bar") == "Foo--Bar");
  CHECK(canonical_header_key("a1b-2c") == "A1b-2c");
  CHECK(canonical_header_key("x_y") == "X_y");
  CHECK(canonical_header_key("sec-ch-ua") == "Sec-Ch-Ua");
  CHECK(canonical_header_key("") == "");
}

TEST_CASE("canonical_header_key leaves invalid keys unchanged", "[header_canon]") {
  CHECK(canonical_header_key("foo bar") == "foo bar");
  CHECK(canonical_header_key("content-length ") == "content-length ");
  CHECK(canonical_header_key("fOO:bar") == "fOO:bar");
  CHECK(canonical_header_key("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(canonical_header_key("a\tb") == "a\tb");
  CHECK(canonical_header_key(std::string("a\0b", 3)) == std::string("a\0b", 3));
  CHECK(canonical_header_key(":path") == ":path");
}

TEST_CASE("canonicalize_received_header_key follows the reader's rules", "[header_canon]") {
  std::string k = "content-TYPE";
  CHECK(tlsc::canonicalize_received_header_key(k));
  CHECK(k == "Content-Type");

  k = "my key";  // accepted, not canonicalised (go.dev/issue/34540)
  CHECK(tlsc::canonicalize_received_header_key(k));
  CHECK(k == "my key");

  k = "";
  CHECK_FALSE(tlsc::canonicalize_received_header_key(k));
  k = "bad\tkey";
  CHECK_FALSE(tlsc::canonicalize_received_header_key(k));
  k = "bad@key";
  CHECK_FALSE(tlsc::canonicalize_received_header_key(k));
}

TEST_CASE("token and value byte classes", "[header_canon]") {
  CHECK(tlsc::is_valid_token("GET"));
  CHECK(tlsc::is_valid_token("X-Custom_1.2~!#$%&'*+^`|"));
  CHECK_FALSE(tlsc::is_valid_token(""));
  CHECK_FALSE(tlsc::is_valid_token("a b"));
  CHECK_FALSE(tlsc::is_valid_token("a:b"));
  CHECK_FALSE(tlsc::is_valid_token("a\"b"));
  CHECK_FALSE(tlsc::is_valid_token("\xC3\xA9"));
  CHECK(tlsc::is_valid_received_value_byte('\t'));
  CHECK(tlsc::is_valid_received_value_byte(' '));
  CHECK(tlsc::is_valid_received_value_byte(0x80));
  CHECK_FALSE(tlsc::is_valid_received_value_byte('\r'));
  CHECK_FALSE(tlsc::is_valid_received_value_byte(0x7F));
  CHECK_FALSE(tlsc::is_valid_received_value_byte(0));
}

TEST_CASE("go_quote matches strconv.Quote for common input", "[header_canon]") {
  CHECK(tlsc::go_quote("abc") == "\"abc\"");
  CHECK(tlsc::go_quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(tlsc::go_quote("\r\n\t") == "\"\\r\\n\\t\"");
  CHECK(tlsc::go_quote(std::string("\x01\x7f", 2)) == "\"\\x01\\x7f\"");
  CHECK(tlsc::go_quote("caf\xC3\xA9") == "\"caf\xC3\xA9\"");
  CHECK(tlsc::go_quote("\xff") == "\"\\xff\"");
  CHECK(tlsc::go_quote("\xC2\x85") == "\"\\u0085\"");
  CHECK(tlsc::go_quote("") == "\"\"");
}
