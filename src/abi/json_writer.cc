#include "abi/json_writer.h"

#include "core/byte_scan.h"

namespace tlsc {
namespace {

// Length of a valid UTF-8 sequence at s[i], or 0 if invalid.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  auto b0 = static_cast<unsigned char>(s[i]);
  auto cont = [&](size_t k) {
    return i + k < s.size() && (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
  };
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b0 == 0xE0 && b1 < 0xA0) return 0;  // overlong
    if (b0 == 0xED && b1 > 0x9F) return 0;  // surrogate
    return 3;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b0 == 0xF0 && b1 < 0x90) return 0;
    if (b0 == 0xF4 && b1 > 0x8F) return 0;
    return 4;
  }
  return 0;
}

// Stands in for the output string where only the size is wanted.
struct SizeCounter {
  size_t size = 0;
  void push_back(char) { ++size; }
  void append(const char*, size_t n) { size += n; }
  template <size_t N>
  void append(const char (&)[N]) {
    size += N - 1;
  }
};

// The escape a byte below 0x80 needs (Go's HTML-safe encodeState.string),
// appended; count_json_plain_prefix has already passed over the others.
template <typename Out>
void append_ascii_escape(Out& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (c) {
    case '"':
      out.append("\\\"");
      return;
    case '\\':
      out.append("\\\\");
      return;
    case '\n':
      out.append("\\n");
      return;
    case '\r':
      out.append("\\r");
      return;
    case '\t':
      out.append("\\t");
      return;
    default: {
      // '<', '>', '&' and the other control bytes.
      const char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      out.append(u, sizeof u);
    }
  }
}

// append_json_string, written into `out` (a string, or a SizeCounter).
template <typename Out>
void write_json_string(Out& out, std::string_view s) {
  out.push_back('"');
  // Bytes that go out as they are (plain ASCII and well-formed UTF-8 other
  // than U+2028/9) are copied in runs; a run ends only where an escape goes.
  size_t run = 0;
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    // The scan only where a plain run starts (not in escape-dense or
    // binary stretches, where it would stop at once).
    if (is_json_plain_byte(c)) {
      i += count_json_plain_prefix(s.data() + i, s.size() - i);
      if (i == s.size()) break;
      c = static_cast<unsigned char>(s[i]);
    }
    size_t n = c < 0x80 ? 0 : utf8_sequence_length(s, i);
    // U+2028 and U+2029 break JavaScript string literals; Go escapes them.
    const bool line_separator = n == 3 && c == 0xE2 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
                                (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xA8;
    if (n != 0 && !line_separator) {
      i += n;
      continue;
    }
    out.append(s.data() + run, i - run);
    if (c < 0x80) {
      append_ascii_escape(out, c);
      i += 1;
    } else if (line_separator) {
      out.append(static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029");
      i += 3;
    } else {
      out.append("\\ufffd");
      i += 1;
    }
    run = i;
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) { write_json_string(out, s); }

std::string readable_event_json(std::string_view id_field, std::string_view id) {
  std::string out = "{\"event\":\"readable\",";
  append_json_string(out, id_field);
  out.push_back(':');
  append_json_string(out, id);
  out.push_back('}');
  return out;
}

size_t json_string_size(std::string_view s) {
  SizeCounter counter;
  write_json_string(counter, s);
  return counter.size;
}

std::string response_to_json(const Response& r) {
  std::string out;
  // Sized once: for a large body the JSON is written into its final buffer
  // (no regrowth, no copy when it is handed to the caller). The scan that
  // sizes the body costs a fraction of writing it.
  size_t fields = 256;
  if (r.headers) {
    for (const auto& [k, values] : *r.headers) {
      fields += k.size() + 8;
      for (const auto& v : values) fields += v.size() + 8;
    }
  }
  if (r.cookies) {
    for (const auto& [k, v] : *r.cookies) fields += k.size() + v.size() + 8;
  }
  // Header and cookie text escapes at most 6 bytes per byte; the guess is
  // exact for plain text and the string grows on its own otherwise.
  out.reserve(json_string_size(r.body) + fields + r.target.size() + r.id.size());
  out.append("{\"cookies\":");
  if (r.cookies) {
    out.push_back('{');
    bool first = true;
    for (const auto& [k, v] : *r.cookies) {
      if (!first) out.push_back(',');
      first = false;
      append_json_string(out, k);
      out.push_back(':');
      append_json_string(out, v);
    }
    out.push_back('}');
  } else {
    out.append("null");
  }
  out.append(",\"headers\":");
  if (r.headers) {
    out.push_back('{');
    bool first = true;
    for (const auto& [k, values] : *r.headers) {
      if (!first) out.push_back(',');
      first = false;
      append_json_string(out, k);
      out.append(":[");
      for (size_t i = 0; i < values.size(); ++i) {
        if (i) out.push_back(',');
        append_json_string(out, values[i]);
      }
      out.push_back(']');
    }
    out.push_back('}');
  } else {
    out.append("null");
  }
  out.append(",\"id\":");
  append_json_string(out, r.id);
  out.append(",\"body\":");
  append_json_string(out, r.body);
  if (r.session_id && !r.session_id->empty()) {
    out.append(",\"sessionId\":");
    append_json_string(out, *r.session_id);
  }
  out.append(",\"target\":");
  append_json_string(out, r.target);
  out.append(",\"usedProtocol\":");
  append_json_string(out, r.used_protocol);
  out.append(",\"status\":");
  out.append(std::to_string(r.status));
  if (r.status == 0) {
    // Not upstream's: a failure's kind, for callers that branch on it.
    out.append(",\"errorCode\":");
    append_json_string(out, error_code_name(r.error_code.value_or(ErrorCode::internal)));
    if (r.error_state) {
      out.append(",\"errorState\":");
      append_json_string(out, *r.error_state);
    }
  }
  out.push_back('}');
  return out;
}

void append_cookie_json(std::string& out, const Cookie& c) {
  out.append("{\"expires\":");
  // fhttp's jar reports a session cookie's expiry as the end of year 9999.
  constexpr int64_t kSessionCookieExpiry = 253402300799;
  out.append(std::to_string(c.expires.value_or(kSessionCookieExpiry)));
  out.append(",\"domain\":");
  append_json_string(out, c.domain);
  out.append(",\"name\":");
  append_json_string(out, c.name);
  out.append(",\"path\":");
  append_json_string(out, c.path);
  out.append(",\"value\":");
  append_json_string(out, c.value);
  out.append(",\"maxAge\":");
  out.append(std::to_string(c.max_age));
  out.append(",\"secure\":");
  out.append(c.secure ? "true" : "false");
  out.append(",\"httpOnly\":");
  out.append(c.http_only ? "true" : "false");
  out.push_back('}');
}

}  // namespace tlsc
