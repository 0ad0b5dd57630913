#include "charset/meta_prescan.h"

#include <set>
#include <string>

#include "charset/attr_unescape.h"
#include "charset/html_tokenizer.h"

namespace tlsc::charset {
namespace {

constexpr std::string_view kMetaSpace = " \t\n\f\r";

std::string_view trim_left_meta_space(std::string_view s) {
  const std::size_t i = s.find_first_not_of(kMetaSpace);
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}

void ascii_lower_in_place(std::string& s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 0x20);
  }
}

}  // namespace

std::string_view charset_from_meta_content(std::string_view s) {
  constexpr std::string_view kCharset = "charset";
  while (!s.empty()) {
    const std::size_t at = s.find(kCharset);
    if (at == std::string_view::npos) return {};
    s = trim_left_meta_space(s.substr(at + kCharset.size()));
    if (s.empty() || s.front() != '=') continue;
    s = trim_left_meta_space(s.substr(1));
    if (s.empty()) return {};
    if (const char q = s.front(); q == '"' || q == '\'') {
      s.remove_prefix(1);
      const std::size_t close = s.find(q);
      if (close == std::string_view::npos) return {};
      return s.substr(0, close);
    }
    return s.substr(0, s.find_first_of("; \t\n\f\r"));
  }
  return {};
}

std::optional<MetaDeclaration> prescan_meta(std::string_view preview) {
  HtmlTokenizer tokenizer(preview);
  HtmlStartTag tag;
  while (tokenizer.next_start_tag(tag)) {
    if (tag.name != "meta") continue;
    enum class Pragma { dont_know, need, dont_need };
    Pragma need_pragma = Pragma::dont_know;
    bool got_pragma = false;
    std::optional<Encoding> enc;
    std::set<std::string, std::less<>> seen;
    for (const HtmlAttribute& attr : tag.attributes) {
      if (!seen.insert(attr.key).second) continue;
      std::string value = unescape_attribute(attr.value);
      ascii_lower_in_place(value);
      if (attr.key == "http-equiv") {
        if (value == "content-type") got_pragma = true;
      } else if (attr.key == "content") {
        // Only a content attribute seen before any usable charset counts.
        if (!enc) {
          const std::string_view name = charset_from_meta_content(value);
          if (!name.empty()) {
            enc = lookup_label(name);
            if (enc) need_pragma = Pragma::need;
          }
        }
      } else if (attr.key == "charset") {
        // Overrides anything found so far, even with an unknown label.
        enc = lookup_label(value);
        need_pragma = Pragma::dont_need;
      }
    }
    if (need_pragma == Pragma::dont_know) continue;
    if (need_pragma == Pragma::need && !got_pragma) continue;
    if (enc == Encoding::utf16be || enc == Encoding::utf16le) {
      return MetaDeclaration{Encoding::utf8, true};
    }
    if (enc) return MetaDeclaration{*enc, false};
  }
  return std::nullopt;
}

}  // namespace tlsc::charset
