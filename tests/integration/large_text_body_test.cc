// Text bodies of more than one 4 MiB block (src/http/body_buffer.h): one
// that converts to itself stays in its blocks and its JSON is written from
// them (src/abi/json_string_parts.h); any other is joined and converted.
// Characters cut by a block's end, U+2028 among them, and ill-formed bytes
// there, must come out as from the joined text. tests/servers/h1_server.js's
// /reflect answers with the request's own bytes, chunked, so the test
// chooses every byte and where the blocks end.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support.h"

using itest::h1_servers;
using itest::json;
using itest::lib;

namespace {

constexpr size_t kBlock = size_t{4} << 20;  // BodyBuffer::kBlock

// What goes across a block's end, and what Go's JSON encoder makes of it
// (the response JSON read back: U+2028 as itself, each ill-formed byte as
// U+FFFD).
struct Straddle {
  std::string bytes;
  std::string read_back;
  size_t cut;  // how many of its bytes are in the block before the end
};

// About 8 MiB of plain text: the first Straddle across the first block's
// end, the second across the second's. `start` opens the body (what Go's
// charset sniffing sees).
std::string body_across(const std::string& start, const Straddle& first, const Straddle& second) {
  std::string body = start;
  body.resize(kBlock - first.cut, 'a');
  body += first.bytes;
  body.resize(2 * kBlock - second.cut, 'b');
  body += second.bytes;
  body += "<end & done>";
  return body;
}

std::string read_back(const std::string& body, const Straddle& first, const Straddle& second) {
  std::string want = body;
  want.replace(2 * kBlock - second.cut, second.bytes.size(), second.read_back);
  want.replace(kBlock - first.cut, first.bytes.size(), first.read_back);
  return want;
}

json reflect_input(const std::string& body, const std::string& content_type) {
  return {{"requestUrl", h1_servers().http + "/reflect?type=" + content_type},
          {"requestMethod", "POST"},
          {"requestBody", itest::base64_encode(body)},
          {"isByteRequest", true},
          {"timeoutSeconds", 60}};
}

std::string reflected(const std::string& body, const std::string& content_type) {
  json r = itest::call(reflect_input(body, content_type));
  REQUIRE(r["status"] == 200);
  return r["body"].get<std::string>();
}

const std::string kFffd = "\xEF\xBF\xBD";

}  // namespace

TEST_CASE("a large UTF-8 body keeps every character cut by a block's end", "[h1][large_body]") {
  const std::string smile = "\xF0\x9F\x98\x80";  // U+1F600
  const std::string line = "\xE2\x80\xA8";       // U+2028: escaped, and cut here
  const std::string e_acute = "\xC3\xA9";
  const std::vector<std::pair<Straddle, Straddle>> cases = {
      {{smile, smile, 1}, {line, line, 1}},
      {{smile, smile, 2}, {line, line, 2}},
      {{smile, smile, 3}, {e_acute, e_acute, 1}},
      {{"\"<\\>", "\"<\\>", 2}, {"\x01\x1f", "\x01\x1f", 1}},
  };
  for (const auto& [first, second] : cases) {
    INFO("cuts " << first.cut << " and " << second.cut);
    const std::string body = body_across("<p>caf\xC3\xA9</p>", first, second);
    CHECK(reflected(body, "text/plain;%20charset=utf-8") == read_back(body, first, second));
  }
}

TEST_CASE("a large body sniffed as UTF-8 passes through, ill-formed bytes at a block's end included",
          "[h1][large_body]") {
  // Go passes a body whose start looks like UTF-8 through unchanged; its
  // JSON encoder then writes each ill-formed byte as U+FFFD.
  const std::string start = "<p>caf\xC3\xA9 na\xC3\xAFve</p>";
  const std::vector<std::pair<Straddle, Straddle>> cases = {
      // a 4-byte character's first three bytes, then plain text
      {{"\xF0\x9F\x98", kFffd + kFffd + kFffd, 1}, {"\xF0\x9F\x98", kFffd + kFffd + kFffd, 3}},
      // continuation bytes with no lead, on both sides of the end
      {{"\x80\x80\x80\x80", kFffd + kFffd + kFffd + kFffd, 2}, {"\xE2\x80", kFffd + kFffd, 1}},
      // a lead that no sequence starts with, and a surrogate's encoding
      {{"\xFF\xC3\xA9", kFffd + "\xC3\xA9", 2}, {"\xED\xA0\x80", kFffd + kFffd + kFffd, 2}},
  };
  for (const auto& [first, second] : cases) {
    INFO("cuts " << first.cut << " and " << second.cut);
    const std::string body = body_across(start, first, second);
    CHECK(reflected(body, "text/plain") == read_back(body, first, second));
  }
}

TEST_CASE("a large body that does not convert to itself is joined and converted", "[h1][large_body]") {
  // windows-1252: 0xE9 is U+00E9, on both sides of the first block's end.
  const Straddle first{"\xE9\xE9", "\xC3\xA9\xC3\xA9", 1};
  const Straddle second{"plain", "plain", 2};
  const std::string body = body_across("<p>plain</p>", first, second);
  CHECK(reflected(body, "text/plain;%20charset=windows-1252") == read_back(body, first, second));
  // Declared UTF-8 with an ill-formed byte: decoded (U+FFFD) before the JSON.
  const Straddle bad{"\xC3(", kFffd + "(", 1};
  const std::string utf8 = body_across("<p>plain</p>", bad, second);
  CHECK(reflected(utf8, "text/plain;%20charset=utf-8") == read_back(utf8, bad, second));
}

TEST_CASE("a large body in parts through requestAsync and waitNext", "[async][large_body]") {
  const Straddle first{"\xE2\x80\xA9", "\xE2\x80\xA9", 2};  // U+2029
  const Straddle second{"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80", 3};
  const std::string body = body_across("<p>caf\xC3\xA9</p>", first, second);
  std::string input = reflect_input(body, "text/html").dump();
  json started = json::parse(lib().requestAsync(input.data()));
  REQUIRE(started.contains("id"));
  json answer;
  for (int waits = 0; waits < 60 && answer.is_null(); ++waits) {
    for (json& r : json::parse(lib().waitNext(1000))) {
      if (r["id"] == started["id"]) answer = std::move(r);
    }
  }
  REQUIRE(answer.is_object());
  itest::check_response_shape(answer);
  REQUIRE(answer["status"] == 200);
  CHECK(answer["body"].get<std::string>() == read_back(body, first, second));
}
