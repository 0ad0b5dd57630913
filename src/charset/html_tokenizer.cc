#include "charset/html_tokenizer.h"

#include <algorithm>
#include <array>

#include "charset/go_text.h"

namespace tlsc::charset {
namespace {

bool is_html_space(int c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f'; }

bool is_ascii_letter(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 0x20);
  }
  return out;
}

// Start tags after which Go's tokenizer reads raw text up to the matching
// end tag instead of tokenizing.
bool is_raw_text_element(std::string_view lowered) {
  static constexpr std::array<std::string_view, 10> kRaw = {"iframe",    "noembed", "noframes", "noscript",
                                                            "plaintext", "script",  "style",    "textarea",
                                                            "title",     "xmp"};
  return std::ranges::find(kRaw, lowered) != kRaw.end();
}

}  // namespace

int HtmlTokenizer::read_byte() {
  if (pos_ >= in_.size()) {
    eof_ = true;
    return -1;
  }
  return detail::byte_at(in_, pos_++);
}

void HtmlTokenizer::skip_white_space() {
  if (eof_) return;
  for (;;) {
    const int c = read_byte();
    if (eof_) return;
    if (!is_html_space(c)) {
      unread();
      return;
    }
  }
}

bool HtmlTokenizer::read_raw_end_tag() {
  for (const char want : raw_tag_) {
    const int c = read_byte();
    if (eof_) return false;
    if (c != want && c != want - ('a' - 'A')) {
      unread();
      return false;
    }
  }
  const int c = read_byte();
  if (eof_) return false;
  if (is_html_space(c) || c == '/' || c == '>') {
    pos_ -= 3 + raw_tag_.size();  // back to the '<' so the end tag re-lexes
    return true;
  }
  unread();
  return false;
}

void HtmlTokenizer::read_raw_or_rcdata() {
  if (raw_tag_ == "script") {
    read_script();
    raw_tag_.clear();
    return;
  }
  for (;;) {
    int c = read_byte();
    if (eof_) break;
    if (c != '<') continue;
    c = read_byte();
    if (eof_) break;
    if (c != '/') {
      unread();
      continue;
    }
    if (read_raw_end_tag() || eof_) break;
  }
  data_end_ = pos_;
  raw_tag_.clear();
}

// The HTML script-data states, including the escaped and double-escaped
// ones, exactly as x/net/html walks them to find the closing </script>.
void HtmlTokenizer::read_script() {
  enum class S {
    data,
    less_than,
    end_tag_open,
    escape_start,
    escape_start_dash,
    escaped,
    escaped_dash,
    escaped_dash_dash,
    escaped_less_than,
    escaped_end_tag_open,
    double_escape_start,
    double_escaped,
    double_escaped_dash,
    double_escaped_dash_dash,
    double_escaped_less_than,
    double_escape_end,
  };
  S s = S::data;
  for (;;) {
    int c = 0;
    switch (s) {
      case S::data:
        c = read_byte();
        if (eof_) break;
        s = c == '<' ? S::less_than : S::data;
        continue;
      case S::less_than:
        c = read_byte();
        if (eof_) break;
        if (c == '/') {
          s = S::end_tag_open;
        } else if (c == '!') {
          s = S::escape_start;
        } else {
          unread();
          s = S::data;
        }
        continue;
      case S::end_tag_open:
        if (read_raw_end_tag() || eof_) break;
        s = S::data;
        continue;
      case S::escape_start:
        c = read_byte();
        if (eof_) break;
        if (c == '-') {
          s = S::escape_start_dash;
        } else {
          unread();
          s = S::data;
        }
        continue;
      case S::escape_start_dash:
        c = read_byte();
        if (eof_) break;
        if (c == '-') {
          s = S::escaped_dash_dash;
        } else {
          unread();
          s = S::data;
        }
        continue;
      case S::escaped:
        c = read_byte();
        if (eof_) break;
        s = c == '-' ? S::escaped_dash : c == '<' ? S::escaped_less_than : S::escaped;
        continue;
      case S::escaped_dash:
        c = read_byte();
        if (eof_) break;
        s = c == '-' ? S::escaped_dash_dash : c == '<' ? S::escaped_less_than : S::escaped;
        continue;
      case S::escaped_dash_dash:
        c = read_byte();
        if (eof_) break;
        s = c == '-'   ? S::escaped_dash_dash
            : c == '<' ? S::escaped_less_than
            : c == '>' ? S::data
                       : S::escaped;
        continue;
      case S::escaped_less_than:
        c = read_byte();
        if (eof_) break;
        if (c == '/') {
          s = S::escaped_end_tag_open;
        } else if (is_ascii_letter(c)) {
          s = S::double_escape_start;
        } else {
          unread();
          s = S::data;
        }
        continue;
      case S::escaped_end_tag_open:
        if (read_raw_end_tag() || eof_) break;
        s = S::escaped;
        continue;
      case S::double_escape_start: {
        unread();
        constexpr std::string_view kScript = "script";
        bool matched = true;
        for (const char want : kScript) {
          c = read_byte();
          if (eof_) break;
          if (c != want && c != want - ('a' - 'A')) {
            unread();
            matched = false;
            break;
          }
        }
        if (eof_) break;
        if (!matched) {
          s = S::escaped;
          continue;
        }
        c = read_byte();
        if (eof_) break;
        if (is_html_space(c) || c == '/' || c == '>') {
          s = S::double_escaped;
        } else {
          unread();
          s = S::escaped;
        }
        continue;
      }
      case S::double_escaped:
        c = read_byte();
        if (eof_) break;
        s = c == '-' ? S::double_escaped_dash : c == '<' ? S::double_escaped_less_than : S::double_escaped;
        continue;
      case S::double_escaped_dash:
        c = read_byte();
        if (eof_) break;
        s = c == '-'   ? S::double_escaped_dash_dash
            : c == '<' ? S::double_escaped_less_than
                       : S::double_escaped;
        continue;
      case S::double_escaped_dash_dash:
        c = read_byte();
        if (eof_) break;
        s = c == '-'   ? S::double_escaped_dash_dash
            : c == '<' ? S::double_escaped_less_than
            : c == '>' ? S::data
                       : S::double_escaped;
        continue;
      case S::double_escaped_less_than:
        c = read_byte();
        if (eof_) break;
        if (c == '/') {
          s = S::double_escape_end;
        } else {
          unread();
          s = S::double_escaped;
        }
        continue;
      case S::double_escape_end:
        if (read_raw_end_tag()) {
          pos_ += std::string_view("</script>").size();
          s = S::escaped;
          continue;
        }
        if (eof_) break;
        s = S::double_escaped;
        continue;
    }
    break;
  }
  data_end_ = pos_;
}

void HtmlTokenizer::read_comment() {
  int dashes = 0;
  bool beginning = true;
  for (;;) {
    int c = read_byte();
    if (eof_) return;
    if (c == '-') {
      ++dashes;
      continue;
    }
    if (c == '>' && (dashes >= 2 || beginning)) return;
    if (c == '!' && dashes >= 2) {
      c = read_byte();
      if (eof_ || c == '>') return;
      if (c == '-') {
        dashes = 1;
        beginning = false;
        continue;
      }
    }
    dashes = 0;
    beginning = false;
  }
}

void HtmlTokenizer::read_until_close_angle() {
  for (;;) {
    const int c = read_byte();
    if (eof_ || c == '>') return;
  }
}

bool HtmlTokenizer::read_doctype() {
  constexpr std::string_view kDoctype = "DOCTYPE";
  for (const char want : kDoctype) {
    const int c = read_byte();
    if (eof_) return false;
    if (c != want && c != want + ('a' - 'A')) {
      pos_ = data_start_;
      return false;
    }
  }
  skip_white_space();
  if (eof_) return true;
  read_until_close_angle();
  return true;
}

HtmlTokenizer::Token HtmlTokenizer::read_markup_declaration() {
  data_start_ = pos_;
  std::array<int, 2> c{};
  for (int& b : c) {
    b = read_byte();
    if (eof_) return Token::comment;
  }
  if (c[0] == '-' && c[1] == '-') {
    read_comment();
    return Token::comment;
  }
  pos_ -= 2;
  if (read_doctype()) return Token::doctype;
  // Not a doctype: a bogus comment (CDATA is not enabled in Go's prescan).
  read_until_close_angle();
  return Token::comment;
}

void HtmlTokenizer::read_tag_name() {
  data_start_ = pos_ - 1;
  for (;;) {
    const int c = read_byte();
    if (eof_) {
      data_end_ = pos_;
      return;
    }
    if (is_html_space(c)) {
      data_end_ = pos_ - 1;
      return;
    }
    if (c == '/' || c == '>') {
      unread();
      data_end_ = pos_;
      return;
    }
  }
}

void HtmlTokenizer::read_tag_attr_key() {
  key_start_ = pos_;
  for (;;) {
    const int c = read_byte();
    if (eof_) {
      key_end_ = pos_;
      return;
    }
    // A leading '=' is part of the name (WHATWG "before attribute name").
    if (c == '=' && key_start_ + 1 == pos_) continue;
    if (c == '=' || is_html_space(c) || c == '/' || c == '>') {
      unread();
      key_end_ = pos_;
      return;
    }
  }
}

void HtmlTokenizer::read_tag_attr_val() {
  val_start_ = val_end_ = pos_;
  skip_white_space();
  if (eof_) return;
  int c = read_byte();
  if (eof_ || c == '/') return;
  if (c != '=') {
    unread();
    return;
  }
  skip_white_space();
  if (eof_) return;
  const int quote = read_byte();
  if (eof_) return;
  if (quote == '>') {
    unread();
    return;
  }
  if (quote == '\'' || quote == '"') {
    val_start_ = pos_;
    for (;;) {
      c = read_byte();
      if (eof_) {
        val_end_ = pos_;
        return;
      }
      if (c == quote) {
        val_end_ = pos_ - 1;
        return;
      }
    }
  }
  val_start_ = pos_ - 1;
  for (;;) {
    c = read_byte();
    if (eof_) {
      val_end_ = pos_;
      return;
    }
    if (is_html_space(c)) {
      val_end_ = pos_ - 1;
      return;
    }
    if (c == '>') {
      unread();
      val_end_ = pos_;
      return;
    }
  }
}

void HtmlTokenizer::read_tag(bool save_attributes) {
  tag_.attributes.clear();
  read_tag_name();
  tag_.name = ascii_lower(in_.substr(data_start_, data_end_ - data_start_));
  skip_white_space();
  if (eof_) return;
  for (;;) {
    const int c = read_byte();
    if (eof_ || c == '>') break;
    unread();
    read_tag_attr_key();
    read_tag_attr_val();
    if (save_attributes && key_end_ > key_start_) {
      std::string key = ascii_lower(in_.substr(key_start_, key_end_ - key_start_));
      const bool seen =
          std::ranges::any_of(tag_.attributes, [&](const HtmlAttribute& a) { return a.key == key; });
      if (!seen) {
        tag_.attributes.push_back(
            {std::move(key), std::string(in_.substr(val_start_, val_end_ - val_start_))});
      }
    }
    skip_white_space();
    if (eof_) break;
  }
}

HtmlTokenizer::Token HtmlTokenizer::read_start_tag() {
  read_tag(true);
  if (eof_) return Token::error;
  if (is_raw_text_element(tag_.name)) raw_tag_ = tag_.name;
  return Token::start_tag;
}

HtmlTokenizer::Token HtmlTokenizer::next() {
  raw_start_ = pos_;
  data_start_ = data_end_ = pos_;
  if (eof_) return Token::error;
  if (!raw_tag_.empty()) {
    if (raw_tag_ == "plaintext") {
      while (!eof_) read_byte();
      data_end_ = pos_;
    } else {
      read_raw_or_rcdata();
    }
    raw_tag_.clear();
    if (data_end_ > data_start_) return Token::text;
  }
  for (;;) {
    int c = read_byte();
    if (eof_) break;
    if (c != '<') continue;
    c = read_byte();
    if (eof_) break;
    Token type = Token::text;
    if (is_ascii_letter(c)) {
      type = Token::start_tag;
    } else if (c == '/') {
      type = Token::end_tag;
    } else if (c == '!' || c == '?') {
      type = Token::comment;
    } else {
      unread();
      continue;
    }
    // Text before the tag is a token of its own; the tag is re-read next.
    if (const std::size_t x = pos_ - 2; raw_start_ < x) {
      pos_ = x;
      return Token::text;
    }
    if (type == Token::start_tag) return read_start_tag();
    if (type == Token::end_tag) {
      c = read_byte();
      if (eof_) break;
      if (c == '>') return Token::comment;  // "</>" is dropped
      if (is_ascii_letter(c)) {
        read_tag(false);
        return eof_ ? Token::error : Token::end_tag;
      }
      unread();
      read_until_close_angle();
      return Token::comment;
    }
    if (c == '!') return read_markup_declaration();
    unread();
    read_until_close_angle();
    return Token::comment;
  }
  return raw_start_ < pos_ ? Token::text : Token::error;
}

bool HtmlTokenizer::next_start_tag(HtmlStartTag& tag) {
  for (;;) {
    const Token t = next();
    if (t == Token::error) return false;
    if (t == Token::start_tag) {
      tag = std::move(tag_);
      tag_ = HtmlStartTag{};
      return true;
    }
  }
}

}  // namespace tlsc::charset
