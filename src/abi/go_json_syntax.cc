#include "abi/go_json_syntax.h"

#include <cstdio>
#include <vector>

namespace tlsc {
namespace {

// Go's strconv.Quote of the byte taken as a rune (U+0000..U+00FF), in single
// quotes, as its scanner's quoteChar writes it.
std::string quote_char(unsigned char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  std::string inner;
  switch (c) {
    case '\a':
      inner = "\\a";
      break;
    case '\b':
      inner = "\\b";
      break;
    case '\f':
      inner = "\\f";
      break;
    case '\n':
      inner = "\\n";
      break;
    case '\r':
      inner = "\\r";
      break;
    case '\t':
      inner = "\\t";
      break;
    case '\v':
      inner = "\\v";
      break;
    case '\\':
      inner = "\\\\";
      break;
    default: {
      char buf[8];
      if (c < 0x20 || c == 0x7f) {
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        inner = buf;
      } else if (c < 0x80) {
        inner = std::string(1, static_cast<char>(c));
      } else if (c < 0xa1 || c == 0xad) {  // C1 controls, NBSP, soft hyphen: not printable
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        inner = buf;
      } else {  // printable Latin-1, written in UTF-8
        inner = {static_cast<char>(0xc0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3f))};
      }
    }
  }
  return "'" + inner + "'";
}

bool space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool hex(unsigned char c) { return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// The scanner's states, named after Go's step functions.
enum class State {
  begin_value,
  begin_value_or_empty,
  begin_string_or_empty,
  begin_string,
  end_value,
  end_top,
  in_string,
  in_string_esc,
  in_string_esc_u,
  in_string_esc_u1,
  in_string_esc_u12,
  in_string_esc_u123,
  neg,
  one,   // in the integer part after a non-zero digit
  zero,  // after the integer part
  dot,
  dot0,
  e,
  e_sign,
  e0,
  literal,  // in true, false or null: expecting literal_[literal_pos_]
};

enum class Parse { object_key, object_value, array_value };

class Scanner {
 public:
  // Feeds one byte; false once an error is set.
  bool step(unsigned char c) {
    for (;;) {
      switch (state_) {
        case State::begin_value_or_empty:
          if (space(c)) return true;
          if (c == ']') {
            state_ = State::end_value;
            continue;
          }
          state_ = State::begin_value;
          continue;
        case State::begin_value:
          if (space(c)) return true;
          switch (c) {
            case '{':
              return push(c, Parse::object_key, State::begin_string_or_empty);
            case '[':
              return push(c, Parse::array_value, State::begin_value_or_empty);
            case '"':
              state_ = State::in_string;
              return true;
            case '-':
              state_ = State::neg;
              return true;
            case '0':
              state_ = State::zero;
              return true;
            case 't':
              return start_literal("true");
            case 'f':
              return start_literal("false");
            case 'n':
              return start_literal("null");
            default:
              if (c >= '1' && c <= '9') {
                state_ = State::one;
                return true;
              }
              return fail(c, "looking for beginning of value");
          }
        case State::begin_string_or_empty:
          if (space(c)) return true;
          if (c == '}') {
            stack_.back() = Parse::object_value;
            state_ = State::end_value;
            continue;
          }
          state_ = State::begin_string;
          continue;
        case State::begin_string:
          if (space(c)) return true;
          if (c == '"') {
            state_ = State::in_string;
            return true;
          }
          return fail(c, "looking for beginning of object key string");
        case State::end_value:
          if (stack_.empty()) {
            state_ = State::end_top;
            end_top_ = true;
            continue;
          }
          if (space(c)) return true;
          switch (stack_.back()) {
            case Parse::object_key:
              if (c == ':') {
                stack_.back() = Parse::object_value;
                state_ = State::begin_value;
                return true;
              }
              return fail(c, "after object key");
            case Parse::object_value:
              if (c == ',') {
                stack_.back() = Parse::object_key;
                state_ = State::begin_string;
                return true;
              }
              if (c == '}') return pop();
              return fail(c, "after object key:value pair");
            case Parse::array_value:
              if (c == ',') {
                state_ = State::begin_value;
                return true;
              }
              if (c == ']') return pop();
              return fail(c, "after array element");
          }
          return true;
        case State::end_top:
          if (!space(c)) return fail(c, "after top-level value");
          return true;
        case State::in_string:
          if (c == '"') {
            state_ = State::end_value;
            return true;
          }
          if (c == '\\') {
            state_ = State::in_string_esc;
            return true;
          }
          if (c < 0x20) return fail(c, "in string literal");
          return true;
        case State::in_string_esc:
          switch (c) {
            case 'b':
            case 'f':
            case 'n':
            case 'r':
            case 't':
            case '\\':
            case '/':
            case '"':
              state_ = State::in_string;
              return true;
            case 'u':
              state_ = State::in_string_esc_u;
              return true;
            default:
              return fail(c, "in string escape code");
          }
        case State::in_string_esc_u:
        case State::in_string_esc_u1:
        case State::in_string_esc_u12:
        case State::in_string_esc_u123:
          if (!hex(c)) return fail(c, "in \\u hexadecimal character escape");
          state_ = state_ == State::in_string_esc_u     ? State::in_string_esc_u1
                   : state_ == State::in_string_esc_u1  ? State::in_string_esc_u12
                   : state_ == State::in_string_esc_u12 ? State::in_string_esc_u123
                                                        : State::in_string;
          return true;
        case State::neg:
          if (c == '0') {
            state_ = State::zero;
            return true;
          }
          if (c >= '1' && c <= '9') {
            state_ = State::one;
            return true;
          }
          return fail(c, "in numeric literal");
        case State::one:
          if (digit(c)) return true;
          state_ = State::zero;
          continue;
        case State::zero:
          if (c == '.') {
            state_ = State::dot;
            return true;
          }
          if (c == 'e' || c == 'E') {
            state_ = State::e;
            return true;
          }
          state_ = State::end_value;
          continue;
        case State::dot:
          if (digit(c)) {
            state_ = State::dot0;
            return true;
          }
          return fail(c, "after decimal point in numeric literal");
        case State::dot0:
          if (digit(c)) return true;
          if (c == 'e' || c == 'E') {
            state_ = State::e;
            return true;
          }
          state_ = State::end_value;
          continue;
        case State::e:
          if (c == '+' || c == '-') {
            state_ = State::e_sign;
            return true;
          }
          state_ = State::e_sign;
          continue;
        case State::e_sign:
          if (digit(c)) {
            state_ = State::e0;
            return true;
          }
          return fail(c, "in exponent of numeric literal");
        case State::e0:
          if (digit(c)) return true;
          state_ = State::end_value;
          continue;
        case State::literal: {
          const char want = literal_[literal_pos_];
          if (c != want) {
            return fail(
                c, "in literal " + std::string(literal_) + " (expecting '" + std::string(1, want) + "')");
          }
          if (literal_[++literal_pos_] == '\0') state_ = State::end_value;
          return true;
        }
      }
    }
  }

  // Go's eof(): a value that ends the input is complete after one more
  // space; anything else is "unexpected end of JSON input".
  std::optional<std::string> finish() {
    if (error_) return error_;
    if (end_top_) return std::nullopt;
    step(' ');
    if (end_top_) return std::nullopt;
    if (!error_) error_ = "unexpected end of JSON input";
    return error_;
  }

 private:
  bool fail(unsigned char c, const std::string& context) {
    error_ = "invalid character " + quote_char(c) + " " + context;
    return false;
  }
  bool push(unsigned char c, Parse p, State next) {
    stack_.push_back(p);
    if (stack_.size() > kGoMaxNestingDepth) return fail(c, "exceeded max depth");
    state_ = next;
    return true;
  }
  bool pop() {
    stack_.pop_back();
    if (stack_.empty()) end_top_ = true;
    state_ = stack_.empty() ? State::end_top : State::end_value;
    return true;
  }
  bool start_literal(const char* word) {
    literal_ = word;
    literal_pos_ = 1;
    state_ = State::literal;
    return true;
  }

  State state_ = State::begin_value;
  std::vector<Parse> stack_;
  bool end_top_ = false;
  const char* literal_ = "";
  size_t literal_pos_ = 0;
  std::optional<std::string> error_;
};

}  // namespace

std::optional<std::string> go_json_syntax_error(std::string_view text) {
  Scanner s;
  for (char c : text) {
    if (!s.step(static_cast<unsigned char>(c))) return s.finish();
  }
  return s.finish();
}

}  // namespace tlsc
