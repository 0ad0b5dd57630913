#include "http/h2/h2_response_block.h"

#include <array>
#include <limits>

#include "wire/header_canon.h"

namespace tlsc {
namespace {

// The pseudo-headers fhttp's checkPseudos knows; any other is an error.
constexpr std::array<std::string_view, 6> kPseudo = {":method",    ":path",     ":scheme",
                                                     ":authority", ":protocol", ":status"};
constexpr uint32_t kStatusBit = 1u << 5;
constexpr uint32_t kRequestBits = kStatusBit - 1;

// http2's validWireHeaderFieldName: tchars, none of them upper case.
bool valid_wire_name(std::string_view name) {
  if (name.empty()) return false;
  for (char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (!is_token_byte(c) || (c >= 'A' && c <= 'Z')) return false;
  }
  return true;
}

// httpguts.ValidHeaderFieldValue.
bool valid_value(std::string_view value) {
  for (char ch : value) {
    if (!is_valid_received_value_byte(static_cast<unsigned char>(ch))) return false;
  }
  return true;
}

// strconv.Atoi: an optional sign, then decimal digits, within range
// (int here; Go's is 64 bits, a difference only for absurd codes).
std::optional<int> go_atoi(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  long long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
    if (v > std::numeric_limits<int>::max()) return std::nullopt;
  }
  return static_cast<int>(negative ? -v : v);
}

}  // namespace

bool H2ResponseBlock::add(std::string_view name, std::string_view value) {
  if (invalid_ || truncated_) return false;
  // readMetaFrame: the value first; a name's own complaint wins over it.
  if (!valid_value(value)) invalid_ = "invalid header field value " + go_quote(value);
  const bool pseudo = name.starts_with(":");
  if (pseudo) {
    if (saw_regular_) invalid_ = "pseudo header field after regular";
  } else {
    saw_regular_ = true;
    if (!valid_wire_name(name)) invalid_ = "invalid header field name " + go_quote(name);
  }
  if (invalid_) return false;
  const size_t size = name.size() + value.size() + 32;
  if (size > remaining_) {
    truncated_ = true;
    return false;
  }
  remaining_ -= size;
  if (pseudo && !pseudo_error_) {
    // checkPseudos, one field at a time: its first complaint in field
    // order is the one it returns.
    size_t i = 0;
    while (i < kPseudo.size() && kPseudo[i] != name) ++i;
    if (i == kPseudo.size()) {
      pseudo_error_ = "invalid pseudo-header " + go_quote(name);
    } else if (pseudo_seen_ & (1u << i)) {
      pseudo_error_ = "duplicate pseudo-header " + go_quote(name);
    } else {
      pseudo_seen_ |= 1u << i;
      if (name == ":status") status_ = std::string(value);
    }
  }
  return true;
}

std::optional<std::string> H2ResponseBlock::stream_error_cause() const {
  if (invalid_) return invalid_;
  if (pseudo_error_) return pseudo_error_;
  if ((pseudo_seen_ & kStatusBit) && (pseudo_seen_ & kRequestBits)) {
    return std::string("mix of request and response pseudo headers");
  }
  return std::nullopt;
}

Result<int> H2ResponseBlock::status() const {
  if (truncated_) {
    return make_error(ErrorCode::h2_protocol, "http2: response header list larger than advertised limit");
  }
  if (!status_ || status_->empty()) {
    return make_error(ErrorCode::h2_protocol, "malformed response from server: missing status pseudo header");
  }
  auto code = go_atoi(*status_);
  if (!code) {
    return make_error(ErrorCode::h2_protocol,
                      "malformed response from server: malformed non-numeric status pseudo header");
  }
  return *code;
}

}  // namespace tlsc
