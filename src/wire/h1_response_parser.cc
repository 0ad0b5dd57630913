#include "wire/h1_response_parser.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "core/ascii.h"
#include "wire/header_canon.h"

namespace tlsc {
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

// fhttp's chunked reader refuses a size line of this many bytes with its LF.
constexpr size_t kMaxChunkLineLength = 4096;
// bufio.NewReaderSize never goes below this.
constexpr size_t kMinReadBufferSize = 16;
constexpr int kMax1xxResponses = 5;
// textproto reads the offending "initial line" with an 80-byte limit.
constexpr size_t kInitialLineErrorLimit = 80;

Error parse_error(std::string message) { return make_error(ErrorCode::http_protocol, std::move(message)); }

// The connection ended before the message did: not malformed, cut short.
Error closed_early(std::string message) {
  return make_error(ErrorCode::connection_closed, std::move(message));
}

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// textproto.TrimString
std::string_view trim_ascii_space(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

// textproto's trim(): spaces and tabs only.
std::string_view trim_sp_ht(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool parse_digits(std::string_view s, uint64_t& out) {
  if (s.empty()) return false;
  const char* first = s.data();
  const char* last = first + s.size();
  auto [ptr, ec] = std::from_chars(first, last, out);
  return ec == std::errc() && ptr == last;
}

// strconv.Atoi: optional sign, decimal digits, int64 range.
bool go_atoi(std::string_view s, int64_t& out) {
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  uint64_t v = 0;
  if (!parse_digits(s, v)) return false;
  constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (negative) {
    if (v > kMax + 1) return false;
    out = v == kMax + 1 ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(v);
  } else {
    if (v > kMax) return false;
    out = static_cast<int64_t>(v);
  }
  return true;
}

// fhttp's ParseHTTPVersion (the permissive pre-Go-1.19 variant).
bool parse_http_version(std::string_view vers, int& major, int& minor) {
  if (vers == "HTTP/1.1") {
    major = 1;
    minor = 1;
    return true;
  }
  if (vers == "HTTP/1.0") {
    major = 1;
    minor = 0;
    return true;
  }
  constexpr std::string_view prefix = "HTTP/";
  if (vers.substr(0, prefix.size()) != prefix) return false;
  const size_t dot = vers.find('.');
  if (dot == std::string_view::npos) return false;
  constexpr int64_t kBig = 1000000;
  int64_t ma = 0;
  int64_t mi = 0;
  if (!go_atoi(vers.substr(prefix.size(), dot - prefix.size()), ma) || ma < 0 || ma > kBig) {
    return false;
  }
  if (!go_atoi(vers.substr(dot + 1), mi) || mi < 0 || mi > kBig) return false;
  major = static_cast<int>(ma);
  minor = static_cast<int>(mi);
  return true;
}

// strconv.ParseUint(s, 10, 63)
bool parse_content_length(std::string_view s, int64_t& out) {
  uint64_t v = 0;
  if (!parse_digits(s, v)) return false;
  if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
  out = static_cast<int64_t>(v);
  return true;
}

// Go's %q of a []string.
std::string go_quote_list(const std::vector<std::string_view>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out.push_back(' ');
    out += go_quote(items[i]);
  }
  out.push_back(']');
  return out;
}

// strings.ToLower(v) == "chunked". Unicode lowercasing maps KELVIN SIGN
// (U+212A) to 'k', so Go accepts that spelling too.
bool lowers_to_chunked(std::string_view v) {
  constexpr std::string_view target = "chunked";
  constexpr std::string_view kelvin = "\xE2\x84\xAA";
  size_t t = 0;
  size_t i = 0;
  while (i < v.size()) {
    if (t == target.size()) return false;
    if (v.substr(i, kelvin.size()) == kelvin) {
      if (target[t] != 'k') return false;
      i += kelvin.size();
    } else {
      if (ascii_lower(v[i]) != target[t]) return false;
      ++i;
    }
    ++t;
  }
  return t == target.size();
}

// httpguts.HeaderValuesContainsToken: comma-separated, OWS-trimmed,
// ASCII-only case-insensitive.
bool value_contains_token(std::string_view v, std::string_view token) {
  while (true) {
    const size_t comma = v.find(',');
    const std::string_view part = trim_sp_ht(v.substr(0, comma));
    if (part.size() == token.size()) {
      bool equal = true;
      for (size_t i = 0; i < part.size() && equal; ++i) {
        const auto c = static_cast<unsigned char>(part[i]);
        equal = c < 0x80 && ascii_lower(part[i]) == ascii_lower(token[i]);
      }
      if (equal) return true;
    }
    if (comma == std::string_view::npos) return false;
    v.remove_prefix(comma + 1);
  }
}

bool any_value_contains_token(const Headers& h, std::string_view key, std::string_view token) {
  for (const auto& [k, v] : h) {
    if (k == key && value_contains_token(v, token)) return true;
  }
  return false;
}

const std::string* first_value(const Headers& h, std::string_view key) {
  for (const auto& kv : h) {
    if (kv.first == key) return &kv.second;
  }
  return nullptr;
}

void erase_key(Headers& h, std::string_view key) {
  std::erase_if(h, [&](const auto& kv) { return kv.first == key; });
}

bool body_allowed_for_status(int status) {
  if (status >= 100 && status <= 199) return false;
  return status != 204 && status != 304;
}

// textproto's per-field checks once a field (with continuations) is whole.
std::optional<Error> flush_field(std::string& pending, bool& have_pending, Headers& out) {
  if (!have_pending) return std::nullopt;
  have_pending = false;
  const std::string_view kv = pending;
  const size_t colon = kv.find(':');  // guaranteed by the first-line check
  std::string key(kv.substr(0, colon));
  if (!canonicalize_received_header_key(key)) {
    return parse_error("malformed MIME header line: " + pending);
  }
  const std::string_view raw_value = kv.substr(colon + 1);
  for (char c : raw_value) {
    if (!is_valid_received_value_byte(static_cast<unsigned char>(c))) {
      return parse_error("malformed MIME header line: " + pending);
    }
  }
  std::string_view value = raw_value;
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  out.emplace_back(std::move(key), std::string(value));
  return std::nullopt;
}

// One line of a MIME header block (readMIMEHeader's loop); `done` on the
// blank line that ends it.
template <class Assembler>
std::optional<Error> mime_line(Assembler& fa, std::string_view line, Headers& out, bool& done) {
  done = false;
  if (line.empty()) {
    if (auto e = flush_field(fa.pending, fa.have_pending, out)) return e;
    done = true;
    return std::nullopt;
  }
  if (line.front() == ' ' || line.front() == '\t') {
    if (fa.at_start) {
      if (line.size() > kInitialLineErrorLimit) return parse_error("message too large");
      return parse_error("malformed MIME header initial line: " + std::string(line));
    }
    fa.pending.push_back(' ');
    fa.pending.append(trim_sp_ht(line));
    return std::nullopt;
  }
  if (auto e = flush_field(fa.pending, fa.have_pending, out)) return e;
  fa.at_start = false;
  if (line.find(':') == std::string_view::npos) {
    return parse_error("malformed MIME header: missing colon: " + go_quote(line));
  }
  fa.pending.assign(trim_sp_ht(line));
  fa.have_pending = true;
  return std::nullopt;
}

// Takes input up to and including the next LF, but no more than `budget`
// bytes. A line split across feeds is gathered in `partial`; one that
// arrives whole is viewed in place. The line excludes the LF and one CR
// before it (bufio.Reader.ReadLine).
size_t take_line(std::string_view in, size_t budget, std::string& partial, std::string_view& line,
                 bool& complete) {
  const std::string_view window = in.substr(0, budget);
  const size_t lf = window.find('\n');
  if (lf == std::string_view::npos) {
    partial.append(window);
    complete = false;
    return window.size();
  }
  if (partial.empty()) {
    line = window.substr(0, lf);
  } else {
    partial.append(window.substr(0, lf));
    line = partial;
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  complete = true;
  return lf + 1;
}

std::string exceeded_message(size_t limit) {
  return "net/http: server response headers exceeded " + std::to_string(limit) + " bytes; aborted";
}

constexpr uint32_t kCrlfCrlf = 0x0D0A0D0Au;

}  // namespace

H1ResponseParser::H1ResponseParser(std::string_view request_method, size_t max_header_bytes,
                                   size_t read_buffer_size)
    : head_limit_(max_header_bytes == 0 ? kDefaultMaxHeaderBytes : max_header_bytes),
      read_buffer_size_(read_buffer_size == 0 ? kDefaultReadBufferSize
                                              : std::max(read_buffer_size, kMinReadBufferSize)),
      chunk_line_max_(std::min(read_buffer_size_, kMaxChunkLineLength - 1)) {
  reset(request_method);
}

void H1ResponseParser::reset(std::string_view request_method) {
  head_request_ = request_method == "HEAD";
  state_ = State::status_line;
  line_.clear();
  bytes_seen_ = 0;
  informational_count_ = 0;
  start_head();
  keep_alive_ = false;
  chunked_ = false;
  content_length_ = -1;
  remaining_ = 0;
  crlf_have_first_ = false;
  trailer_bytes_ = 0;
  trailer_tail_ = 0;
  trailer_error_.reset();
  trailers_.clear();
  error_.reset();
}

void H1ResponseParser::start_head() {
  head_bytes_ = 0;
  fields_.clear();
  head_.status = 0;
  head_.proto.clear();
  head_.reason.clear();
  head_.status_text.clear();
  head_.headers.clear();
  head_complete_ = false;
  proto_major_ = 0;
  proto_minor_ = 0;
}

Error H1ResponseParser::fail(Error e) {
  state_ = State::failed;
  error_ = e;
  return e;
}

Result<size_t> H1ResponseParser::feed(std::string_view in, std::string& body_out) {
  if (state_ == State::failed) return *error_;
  size_t pos = 0;
  while (pos < in.size() && state_ != State::complete) {
    const std::string_view rest = in.substr(pos);
    switch (state_) {
      case State::status_line:
      case State::header_lines: {
        // Never take more than the head budget: Go's persistConn does not
        // read past it either. The check below keeps this non-zero.
        const size_t budget = head_limit_ - head_bytes_;
        std::string_view line;
        bool complete = false;
        const size_t n = take_line(rest, budget, line_, line, complete);
        pos += n;
        head_bytes_ += n;
        bytes_seen_ += n;
        if (complete) {
          auto err = state_ == State::status_line ? on_status_line(line) : on_header_line(line);
          line_.clear();
          if (err) return fail(std::move(*err));
        }
        // With the budget spent Go's next read fails at once, so an
        // unfinished head is over the limit without waiting for more bytes.
        if ((state_ == State::status_line || state_ == State::header_lines) && head_bytes_ >= head_limit_) {
          return fail(parse_error(exceeded_message(head_limit_)));
        }
        break;
      }
      case State::body_length: {
        const size_t n = static_cast<size_t>(std::min<uint64_t>(remaining_, rest.size()));
        body_out.append(rest.substr(0, n));
        pos += n;
        remaining_ -= n;
        if (remaining_ == 0) state_ = State::complete;
        break;
      }
      case State::body_close:
        body_out.append(rest);
        pos = in.size();
        break;
      case State::chunk_size: {
        // readChunkLine fails on a line that fills the bufio buffer (at
        // once, without more input) or reaches maxLineLength with its LF.
        const size_t budget = chunk_line_max_ - line_.size();
        if (budget == 0) return fail(parse_error("header line too long"));
        std::string_view line;
        bool complete = false;
        pos += take_line(rest, budget, line_, line, complete);
        if (!complete) {
          if (line_.size() >= read_buffer_size_) return fail(parse_error("header line too long"));
          break;
        }
        auto err = on_chunk_size_line(line);
        line_.clear();
        if (err) return fail(std::move(*err));
        break;
      }
      case State::chunk_data: {
        const size_t n = static_cast<size_t>(std::min<uint64_t>(remaining_, rest.size()));
        body_out.append(rest.substr(0, n));
        pos += n;
        remaining_ -= n;
        if (remaining_ == 0) {
          state_ = State::chunk_crlf;
          crlf_have_first_ = false;
        }
        break;
      }
      case State::chunk_crlf: {
        // Go reads both bytes before judging them, so a bad first byte
        // followed by EOF is "unexpected EOF", not a framing error.
        if (!crlf_have_first_) {
          crlf_first_ = rest.front();
          crlf_have_first_ = true;
          pos += 1;
          break;
        }
        const char second = rest.front();
        pos += 1;
        if (crlf_first_ != '\r' || second != '\n') {
          return fail(parse_error("malformed chunked encoding"));
        }
        state_ = State::chunk_size;
        break;
      }
      case State::trailer: {
        const size_t budget = read_buffer_size_ - trailer_bytes_;
        std::string_view line;
        bool complete = false;
        const size_t n = take_line(rest, budget, line_, line, complete);
        const std::string_view taken = rest.substr(0, n);
        for (size_t i = taken.size() > 4 ? taken.size() - 4 : 0; i < taken.size(); ++i) {
          trailer_tail_ = (trailer_tail_ << 8) | static_cast<unsigned char>(taken[i]);
        }
        pos += n;
        trailer_bytes_ += n;
        if (complete) {
          auto err = on_trailer_line(line);
          line_.clear();
          if (err) return fail(std::move(*err));
        }
        // A full bufio window without the terminator ends Go's search.
        if (state_ == State::trailer && trailer_bytes_ >= read_buffer_size_) {
          return fail(parse_error("http: suspiciously long trailer after chunked body"));
        }
        break;
      }
      case State::complete:
      case State::failed:
        break;
    }
  }
  return pos;
}

std::optional<Error> H1ResponseParser::on_status_line(std::string_view line) {
  const size_t sp = line.find(' ');
  if (sp == std::string_view::npos) {
    return parse_error("malformed HTTP response " + go_quote(line));
  }
  const std::string_view proto = line.substr(0, sp);
  std::string_view status = line.substr(sp + 1);
  while (!status.empty() && status.front() == ' ') status.remove_prefix(1);
  const std::string_view code = status.substr(0, status.find(' '));
  int64_t code_value = 0;
  if (code.size() != 3 || !go_atoi(code, code_value) || code_value < 0) {
    return parse_error("malformed HTTP status code " + go_quote(code));
  }
  if (!parse_http_version(proto, proto_major_, proto_minor_)) {
    return parse_error("malformed HTTP version " + go_quote(proto));
  }
  head_.status = static_cast<int>(code_value);
  head_.proto.assign(proto);
  head_.status_text.assign(status);
  head_.reason.assign(code.size() < status.size() ? status.substr(code.size() + 1) : std::string_view());
  state_ = State::header_lines;
  return std::nullopt;
}

std::optional<Error> H1ResponseParser::on_header_line(std::string_view line) {
  bool done = false;
  if (auto e = mime_line(fields_, line, head_.headers, done)) return e;
  if (!done) return std::nullopt;
  return finish_head();
}

// ReadResponse's post-processing (fixPragmaCacheControl, readTransfer) and
// the Transport's 1xx loop.
std::optional<Error> H1ResponseParser::finish_head() {
  Headers& h = head_.headers;
  const int status = head_.status;

  if (const std::string* pragma = first_value(h, "Pragma");
      pragma != nullptr && *pragma == "no-cache" && first_value(h, "Cache-Control") == nullptr) {
    h.emplace_back("Cache-Control", "no-cache");
  }

  // shouldClose runs before the "0.0 means 1.1" default below.
  bool close = false;
  if (proto_major_ < 1) {
    close = true;
  } else {
    const bool has_close = any_value_contains_token(h, "Connection", "close");
    if (proto_major_ == 1 && proto_minor_ == 0) {
      close = has_close || !any_value_contains_token(h, "Connection", "keep-alive");
    } else {
      if (has_close) erase_key(h, "Connection");
      close = has_close;
    }
  }
  int major = proto_major_;
  int minor = proto_minor_;
  if (major == 0 && minor == 0) {
    major = 1;
    minor = 1;
  }
  const bool at_least_11 = major > 1 || (major == 1 && minor >= 1);

  bool chunked = false;
  {
    std::vector<std::string_view> te;
    for (const auto& [k, v] : h) {
      if (k == "Transfer-Encoding") te.push_back(v);
    }
    if (!te.empty()) {
      if (at_least_11) {
        if (te.size() != 1) return parse_error("too many transfer encodings: " + go_quote_list(te));
        if (!lowers_to_chunked(trim_ascii_space(te.front()))) {
          return parse_error("unsupported transfer encoding: " + go_quote(te.front()));
        }
        chunked = true;
      }
      erase_key(h, "Transfer-Encoding");
      if (chunked) erase_key(h, "Content-Length");
    }
  }

  // fixLength
  int64_t real_length = -1;
  {
    std::vector<std::string_view> cls;
    for (const auto& [k, v] : h) {
      if (k == "Content-Length") cls.push_back(v);
    }
    if (cls.size() > 1) {
      const std::string_view first = trim_ascii_space(cls.front());
      for (size_t i = 1; i < cls.size(); ++i) {
        if (trim_ascii_space(cls[i]) != first) {
          return parse_error("http: message cannot contain multiple Content-Length headers; got " +
                             go_quote_list(cls));
        }
      }
      std::string kept(first);
      bool seen = false;
      std::erase_if(h, [&](const auto& kv) {
        if (kv.first != "Content-Length") return false;
        if (seen) return true;
        seen = true;
        return false;
      });
      for (auto& kv : h) {
        if (kv.first == "Content-Length") kv.second = std::move(kept);
      }
    }
    if (head_request_ || status / 100 == 1 || status == 204 || status == 304) {
      real_length = 0;
    } else if (chunked) {
      real_length = -1;
    } else {
      const std::string* cl = first_value(h, "Content-Length");
      const std::string_view trimmed = cl ? trim_ascii_space(*cl) : std::string_view();
      if (!trimmed.empty()) {
        if (!parse_content_length(trimmed, real_length)) {
          return parse_error("bad Content-Length " + go_quote(trimmed));
        }
      } else {
        erase_key(h, "Content-Length");
        real_length = -1;
      }
    }
  }

  int64_t content_length = real_length;
  if (head_request_) {
    const std::string* cl = first_value(h, "Content-Length");
    const std::string_view trimmed = cl ? trim_ascii_space(*cl) : std::string_view();
    content_length = -1;
    if (!trimmed.empty() && !parse_content_length(trimmed, content_length)) {
      return parse_error("bad Content-Length " + go_quote(trimmed));
    }
  }

  // fixTrailer
  if (chunked && first_value(h, "Trailer") != nullptr) {
    for (const auto& [k, v] : h) {
      if (k != "Trailer") continue;
      std::string_view rest = trim_ascii_space(v);
      while (!rest.empty()) {
        const size_t comma = rest.find(',');
        const std::string_view element = trim_ascii_space(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        if (element.empty()) continue;
        const std::string key = canonical_header_key(element);
        if (key == "Transfer-Encoding" || key == "Trailer" || key == "Content-Length") {
          return parse_error("bad trailer Key " + go_quote(key));
        }
      }
    }
    erase_key(h, "Trailer");
  }

  if (real_length == -1 && !chunked && body_allowed_for_status(status)) close = true;

  if (status >= 100 && status <= 199 && status != 101) {
    if (++informational_count_ > kMax1xxResponses) {
      return parse_error("net/http: too many 1xx informational responses");
    }
    start_head();
    state_ = State::status_line;
    return std::nullopt;
  }

  head_complete_ = true;
  chunked_ = chunked;
  content_length_ = content_length;
  keep_alive_ = !close && status >= 200;
  if (chunked) {
    state_ = (head_request_ || !body_allowed_for_status(status)) ? State::complete : State::chunk_size;
  } else if (real_length == 0) {
    state_ = State::complete;
  } else if (real_length > 0) {
    remaining_ = static_cast<uint64_t>(real_length);
    state_ = State::body_length;
  } else {
    state_ = close ? State::body_close : State::complete;
  }
  return std::nullopt;
}

// fhttp internal.readChunkLine + parseHexUint.
std::optional<Error> H1ResponseParser::on_chunk_size_line(std::string_view line) {
  while (!line.empty() && is_ascii_space(line.back())) line.remove_suffix(1);
  line = line.substr(0, line.find(';'));
  uint64_t n = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char b = line[i];
    uint64_t d = 0;
    if (b >= '0' && b <= '9') {
      d = static_cast<uint64_t>(b - '0');
    } else if (b >= 'a' && b <= 'f') {
      d = static_cast<uint64_t>(b - 'a' + 10);
    } else if (b >= 'A' && b <= 'F') {
      d = static_cast<uint64_t>(b - 'A' + 10);
    } else {
      return parse_error("invalid byte in chunk length");
    }
    if (i == 16) return parse_error("http chunk length too large");
    n = (n << 4) | d;
  }
  if (n == 0) {
    // An empty size line counts as the last chunk too, as in fhttp.
    state_ = State::trailer;
    trailer_bytes_ = 0;
    trailer_tail_ = 0;
    trailer_error_.reset();
    fields_.clear();
    return std::nullopt;
  }
  remaining_ = n;
  state_ = State::chunk_data;
  return std::nullopt;
}

// body.readTrailer: Go first insists on a CRLFCRLF within the bufio window
// and only then parses, so a malformed trailer is reported only once that
// terminator shows up; until then it is held in trailer_error_.
std::optional<Error> H1ResponseParser::on_trailer_line(std::string_view line) {
  const bool saw_terminator = trailer_tail_ == kCrlfCrlf;
  if (!trailer_error_) {
    bool done = false;
    auto err = mime_line(fields_, line, trailers_, done);
    if (!err) {
      if (done) state_ = State::complete;
      return std::nullopt;
    }
    trailer_error_ = std::move(err);
  }
  if (saw_terminator) return trailer_error_;
  return std::nullopt;
}

std::optional<Error> H1ResponseParser::on_eof() {
  switch (state_) {
    case State::failed:
      return error_;
    case State::complete:
      return std::nullopt;
    case State::body_close:
      state_ = State::complete;
      return std::nullopt;
    case State::status_line:
    case State::header_lines: {
      if (bytes_seen_ == 0) return fail(eof_error(ErrorCode::connection_closed));
      if (head_bytes_ >= head_limit_) return fail(parse_error(exceeded_message(head_limit_)));
      // bufio.ReadLine hands back an unterminated last line as a line, so Go
      // judges it (and the field it completes) before noticing the EOF.
      if (!line_.empty()) {
        const std::string partial = std::move(line_);
        line_.clear();
        auto err = state_ == State::status_line ? on_status_line(partial) : on_header_line(partial);
        if (err) return fail(std::move(*err));
      }
      if (state_ == State::header_lines) {
        if (auto e = flush_field(fields_.pending, fields_.have_pending, head_.headers)) {
          return fail(std::move(*e));
        }
      }
      return fail(closed_early("unexpected EOF"));
    }
    case State::body_length:
    case State::chunk_size:
      return fail(closed_early("unexpected EOF"));
    case State::chunk_data:
      // fhttp's chunked reader passes a mid-chunk io.EOF through, and the
      // trailer reader then finds nothing.
      return fail(closed_early("http: unexpected EOF reading trailer"));
    case State::chunk_crlf:
      return fail(closed_early(crlf_have_first_ ? "unexpected EOF" : "http: unexpected EOF reading trailer"));
    case State::trailer:
      return fail(trailer_bytes_ < 2 ? closed_early("http: unexpected EOF reading trailer")
                                     : parse_error("http: suspiciously long trailer after chunked body"));
  }
  return std::nullopt;
}

}  // namespace tlsc
