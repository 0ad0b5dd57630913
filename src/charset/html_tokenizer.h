// The part of golang.org/x/net/html's Tokenizer (v0.48.0) that Go's meta
// prescan observes: where start tags begin and end and what their
// attributes are. Comments, doctypes, end tags and the raw-text elements
// (script, style, title, textarea, ...) are skipped exactly as that
// tokenizer skips them, because a <meta> inside any of them is invisible to
// Go and must stay invisible here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tlsc::charset {

struct HtmlAttribute {
  std::string key;    // ASCII-lowercased, first occurrence only
  std::string value;  // raw bytes, not yet unescaped
};

struct HtmlStartTag {
  std::string name;  // ASCII-lowercased
  std::vector<HtmlAttribute> attributes;
};

class HtmlTokenizer {
 public:
  explicit HtmlTokenizer(std::string_view input) : in_(input) {}

  // Advances to the next start tag (self-closing or not). False once Go's
  // tokenizer would have returned ErrorToken, which includes a start tag cut
  // off by the end of input.
  bool next_start_tag(HtmlStartTag& tag);

 private:
  enum class Token { error, text, start_tag, end_tag, comment, doctype };

  Token next();
  int read_byte();
  void unread() { --pos_; }
  void skip_white_space();
  void read_raw_or_rcdata();
  bool read_raw_end_tag();
  void read_script();
  void read_comment();
  void read_until_close_angle();
  Token read_markup_declaration();
  bool read_doctype();
  Token read_start_tag();
  void read_tag(bool save_attributes);
  void read_tag_name();
  void read_tag_attr_key();
  void read_tag_attr_val();

  std::string_view in_;
  std::size_t pos_ = 0;        // Go's raw.end
  std::size_t raw_start_ = 0;  // Go's raw.start
  bool eof_ = false;           // Go's z.err (only io.EOF can happen here)
  std::string raw_tag_;        // element whose end tag closes raw text
  std::size_t data_start_ = 0;
  std::size_t data_end_ = 0;
  std::size_t key_start_ = 0;
  std::size_t key_end_ = 0;
  std::size_t val_start_ = 0;
  std::size_t val_end_ = 0;
  HtmlStartTag tag_;
};

}  // namespace tlsc::charset
