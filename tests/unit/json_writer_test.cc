#include "abi/json_writer.h"

#include <set>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "core/base64.h"

TEST_CASE("json: strings escaped as Go's encoder escapes them", "[json]") {
  std::string out;
  tlsc::append_json_string(out, std::string("a\"b\\c\n\t<>&\x01\xe2\x80\xa8 \xff\xc3\xa9\b\f\x7f", 21));
  CHECK(out == "\"a\\\"b\\\\c\\n\\t\\u003c\\u003e\\u0026\\u0001\\u2028 \\ufffd\xc3\xa9\\b\\f\x7f\"");
}

TEST_CASE("json: json_string_size is the size append_json_string writes", "[json]") {
  // Every byte value, alone and in runs and mixes at several lengths (the
  // wide scans' edges), and the sequences with their own rules.
  std::vector<std::string> inputs = {"",         "\xe2\x80\xa8",     "\xe2\x80\xa9",
                                     "\xe2\x80", "\xf0\x9f\x98\x80", "\xed\xa0\x80",
                                     "\xc0\xaf", "\xf4\x90\x80\x80"};
  for (int b = 0; b < 256; ++b) {
    inputs.push_back(std::string(1, static_cast<char>(b)));
    for (size_t n : {15u, 16u, 17u, 63u, 64u, 65u}) {
      inputs.push_back(std::string(n, static_cast<char>(b)));
      std::string mixed(n, 'a');
      mixed.push_back(static_cast<char>(b));
      mixed.append(n, 'z');
      inputs.push_back(std::move(mixed));
    }
  }
  uint32_t x = 12345;
  for (int k = 0; k < 200; ++k) {
    std::string s;
    for (int i = 0; i < 300; ++i) {
      x = x * 1103515245 + 12345;
      s.push_back(
          static_cast<char>(k % 2 ? (x >> 16) & 0xFF : "ab<\"\xc3\xa9\xe2\x80\xa8\n"[(x >> 16) % 10]));
    }
    inputs.push_back(s);
  }
  for (const auto& in : inputs) {
    std::string out;
    tlsc::append_json_string(out, in);
    INFO(in.size());
    REQUIRE(tlsc::json_string_size(in) == out.size());
  }
}

TEST_CASE("json: a response in upstream's field order", "[json]") {
  tlsc::Response r;
  r.id = "i";
  r.session_id = "s";
  r.status = 200;
  r.target = "http://x/";
  r.body = "b";
  r.used_protocol = "HTTP/1.1";
  r.headers.emplace();
  r.headers->push_back({"A", {"1", "2"}});
  r.cookies.emplace();
  r.cookies->push_back({"c", "d"});
  CHECK(
      tlsc::response_to_json(r) ==
      R"({"cookies":{"c":"d"},"headers":{"A":["1","2"]},"id":"i","body":"b","sessionId":"s","target":"http://x/","usedProtocol":"HTTP/1.1","status":200})");
  auto e = tlsc::error_response("i", std::nullopt, tlsc::make_error(tlsc::ErrorCode::tls_verify, "bad"));
  CHECK(
      tlsc::response_to_json(e) ==
      R"({"cookies":null,"headers":null,"id":"i","body":"bad","target":"","usedProtocol":"","status":0,"errorCode":"tls_verify"})");
}

TEST_CASE("error codes: every code has its own stable name", "[json]") {
  std::set<std::string_view> names;
  for (int c = 0; c <= static_cast<int>(tlsc::ErrorCode::internal); ++c) {
    names.insert(tlsc::error_code_name(static_cast<tlsc::ErrorCode>(c)));
  }
  CHECK(names.size() == static_cast<size_t>(tlsc::ErrorCode::internal) + 1);
  CHECK(tlsc::error_code_name(tlsc::ErrorCode::session_closed) == "session_closed");
}

TEST_CASE("base64: Go's StdEncoding, strict", "[base64]") {
  CHECK(tlsc::base64_encode("") == "");
  CHECK(tlsc::base64_encode("f") == "Zg==");
  CHECK(tlsc::base64_encode("fo") == "Zm8=");
  CHECK(tlsc::base64_encode("foobar") == "Zm9vYmFy");
  CHECK(*tlsc::base64_decode("Zm9vYmFy") == "foobar");
  CHECK(*tlsc::base64_decode("Zm8=") == "fo");
  CHECK(*tlsc::base64_decode("Zm9v\r\nYmFy") == "foobar");
  CHECK(tlsc::base64_decode("Zm8").error().message == "illegal base64 data at input byte 0");
  CHECK(tlsc::base64_decode("Zm9v!mFy").error().message == "illegal base64 data at input byte 4");
  CHECK(tlsc::base64_decode("Zg==Zg==").error().message == "illegal base64 data at input byte 4");
}
