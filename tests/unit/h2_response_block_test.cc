// H2ResponseBlock: fhttp's verdicts on response header blocks, each text as
// upstream's library gives it (run against tests/servers/h2_rogue_server.py,
// whose integration test checks the same texts end to end).
#include "http/h2/h2_response_block.h"

#include <catch2/catch.hpp>

using namespace tlsc;

namespace {

struct Field {
  std::string name, value;
};

H2ResponseBlock block_of(std::initializer_list<Field> fields, size_t max = 1 << 20) {
  H2ResponseBlock b(max);
  for (const auto& f : fields) b.add(f.name, f.value);
  return b;
}

}  // namespace

TEST_CASE("h2 response block: what Go takes", "[h2][h2-block]") {
  // nghttp2's own checks refused each of these; Go takes them.
  auto b = block_of({{":status", "200"},
                     {"connection", "keep-alive"},
                     {"keep-alive", "timeout=5"},
                     {"transfer-encoding", "chunked"},
                     {"x-space", " padded "},
                     {"x-tab", "a\tb"},
                     {"x-utf8", "caf\xc3\xa9"},
                     {"content-length", "not a number"}});
  CHECK_FALSE(b.stream_error_cause());
  REQUIRE(b.status().ok());
  CHECK(*b.status() == 200);
  // strconv.Atoi's forms.
  CHECK(*block_of({{":status", "+204"}}).status() == 204);
  CHECK(*block_of({{":status", "0200"}}).status() == 200);
  CHECK(*block_of({{":status", "103"}}).status() == 103);
}

TEST_CASE("h2 response block: readMetaFrame's field rules, first invalid field wins", "[h2][h2-block]") {
  CHECK(block_of({{":status", "200"}, {"X-Upper", "1"}}).stream_error_cause() ==
        "invalid header field name \"X-Upper\"");
  CHECK(block_of({{":status", "200"}, {"x@y", "1"}}).stream_error_cause() ==
        "invalid header field name \"x@y\"");
  CHECK(block_of({{":status", "200"}, {"", "1"}}).stream_error_cause() == "invalid header field name \"\"");
  CHECK(block_of({{":status", "200"}, {"x-bad", std::string("a\0b", 3)}}).stream_error_cause() ==
        "invalid header field value \"a\\x00b\"");
  CHECK(block_of({{":status", "200"},
                  {"x-ctl",
                   "a\x01"
                   "b"}})
            .stream_error_cause() == "invalid header field value \"a\\x01b\"");
  CHECK(block_of({{":status", "200"}, {"x-del", "a\x7f"}}).stream_error_cause() ==
        "invalid header field value \"a\\x7f\"");
  CHECK(block_of({{"x-a", "1"}, {":status", "200"}}).stream_error_cause() ==
        "pseudo header field after regular");
  // One field with a bad name and a bad value: the name's complaint.
  CHECK(block_of({{":status", "200"}, {"X", "\r"}}).stream_error_cause() ==
        "invalid header field name \"X\"");
  // A pseudo field after a regular one, with a bad value: that order.
  CHECK(block_of({{"x", "1"}, {":status", "\r"}}).stream_error_cause() ==
        "pseudo header field after regular");
  // The first invalid field is the one reported; nothing after it is kept.
  H2ResponseBlock b(1 << 20);
  CHECK(b.add(":status", "200"));
  CHECK_FALSE(b.add("x@y", "1"));
  CHECK_FALSE(b.add("X-Upper", "1"));
  CHECK_FALSE(b.add("fine", "1"));
  CHECK(b.stream_error_cause() == "invalid header field name \"x@y\"");
}

TEST_CASE("h2 response block: checkPseudos", "[h2][h2-block]") {
  CHECK(block_of({{":status", "200"}, {":foo", "bar"}}).stream_error_cause() ==
        "invalid pseudo-header \":foo\"");
  CHECK(block_of({{":status", "200"}, {":status", "204"}}).stream_error_cause() ==
        "duplicate pseudo-header \":status\"");
  CHECK(block_of({{":status", "200"}, {":path", "/"}}).stream_error_cause() ==
        "mix of request and response pseudo headers");
  // In field order: the duplicate comes before the unknown one.
  CHECK(block_of({{":status", "200"}, {":status", "1"}, {":x", "1"}}).stream_error_cause() ==
        "duplicate pseudo-header \":status\"");
  // A field rule wins over checkPseudos.
  CHECK(block_of({{":foo", "1"}, {"X", "1"}}).stream_error_cause() == "invalid header field name \"X\"");
}

TEST_CASE("h2 response block: handleResponse's :status and the list bound", "[h2][h2-block]") {
  CHECK(block_of({{"x-a", "1"}}).status().error().message ==
        "malformed response from server: missing status pseudo header");
  CHECK(block_of({{":status", ""}}).status().error().message ==
        "malformed response from server: missing status pseudo header");
  for (const char* bad : {"abc", "20x", "-", "+", " 200", "99999999999"}) {
    INFO(bad);
    CHECK(block_of({{":status", bad}}).status().error().message ==
          "malformed response from server: malformed non-numeric status pseudo header");
  }
  // name + value + 32 per field, as hpack counts: 7 + 3 + 32 = 42.
  auto at = block_of({{":status", "200"}}, 42);
  CHECK_FALSE(at.truncated());
  CHECK(at.status().ok());
  H2ResponseBlock exactly(42 + 41);
  CHECK(exactly.add(":status", "200"));
  CHECK(exactly.add("a", "12345678"));  // 1 + 8 + 32 = 41: exactly what is left
  CHECK_FALSE(exactly.truncated());
  H2ResponseBlock past(42 + 40);
  CHECK(past.add(":status", "200"));
  CHECK_FALSE(past.add("a", "12345678"));
  CHECK(past.truncated());
  CHECK_FALSE(past.stream_error_cause());
  CHECK(past.status().error().message == "http2: response header list larger than advertised limit");
  // Past the bound nothing more is checked, as Go stops decoding into fields.
  CHECK_FALSE(past.add("X-Upper", "1"));
  CHECK_FALSE(past.stream_error_cause());
}
