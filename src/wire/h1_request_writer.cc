#include "wire/h1_request_writer.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>

#include "wire/header_canon.h"
#include "wire/header_order.h"

namespace tlsc {
namespace {

constexpr std::string_view kDefaultUserAgent = "Go-http-client/1.1";

// httpguts.ValidHeaderFieldValue: CTLs other than HTAB are refused.
bool valid_field_value(std::string_view v) {
  for (char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t') || c == 0x7F) return false;
  }
  return true;
}

bool contains_ctl(std::string_view v) {
  for (char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7F) return true;
  }
  return false;
}

bool is_token_boundary(char c) { return c == ' ' || c == ',' || c == '\t'; }

// fhttp's hasToken(v, "close"): a case-insensitive match bounded by
// space, comma or tab. Only ASCII can match a 5-byte window of "close".
bool has_close_token(std::string_view v) {
  constexpr std::string_view token = "close";
  if (v.size() < token.size()) return false;
  for (size_t sp = 0; sp + token.size() <= v.size(); ++sp) {
    if (sp > 0 && !is_token_boundary(v[sp - 1])) continue;
    const size_t end = sp + token.size();
    if (end != v.size() && !is_token_boundary(v[end])) continue;
    if (compare_ascii_icase(v.substr(sp, token.size()), token) == 0) return true;
  }
  return false;
}

// Go writes values through headerNewlineToSpace and textproto.TrimString;
// trimming CR/LF before replacing them gives the same bytes without a copy.
void append_field(std::string& out, std::string_view key, std::string_view value) {
  auto is_trim = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  size_t b = 0;
  size_t e = value.size();
  while (b < e && is_trim(value[b])) ++b;
  while (e > b && is_trim(value[e - 1])) --e;
  out.append(key);
  out.append(": ");
  for (size_t i = b; i < e; ++i) {
    const char c = value[i];
    out.push_back((c == '\r' || c == '\n') ? ' ' : c);
  }
  out.append("\r\n");
}

// httpguts.ValidHostHeader's bytes (RFC 3986's reg-name, IP literal and
// port characters). Bytes from 0x80 are let through: Go turns a name in
// Unicode into punycode before it checks.
bool valid_host_header(std::string_view host) {
  // The writer trims spaces and tabs off a value's ends, as Header.write
  // does; what is between them counts (CR and LF count everywhere).
  while (!host.empty() && (host.front() == ' ' || host.front() == '\t')) host.remove_prefix(1);
  while (!host.empty() && (host.back() == ' ' || host.back() == '\t')) host.remove_suffix(1);
  for (unsigned char c : host) {
    if (c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if (std::string_view("!$%&'()*+,-.:;=[]_~").find(static_cast<char>(c)) == std::string_view::npos)
      return false;
  }
  return true;
}

std::optional<Error> validate(const H1Request& req, std::string_view method) {
  // A Host (requestHostOverride) with CR, LF or NUL would put lines of its
  // own on the wire, or a bad :authority in HTTP/2; Go refuses it.
  if (!valid_host_header(req.host)) return make_error(ErrorCode::invalid_input, "http: invalid Host header");
  for (const auto& [key, value] : req.headers) {
    if (!is_valid_token(key)) {
      return make_error(ErrorCode::invalid_input, "net/http: invalid header field name " + go_quote(key));
    }
    if (!valid_field_value(value)) {
      return make_error(ErrorCode::invalid_input,
                        "net/http: invalid header field value " + go_quote(value) + " for Key " + key);
    }
  }
  if (!is_valid_token(method)) {
    return make_error(ErrorCode::invalid_input, "net/http: invalid method " + go_quote(method));
  }
  if (contains_ctl(req.request_target)) {
    return make_error(ErrorCode::invalid_input, "net/http: can't write control character in Request.URL");
  }
  return std::nullopt;
}

bool has_exact_key(const H1Request& req, std::string_view a, std::string_view b) {
  for (const auto& h : req.headers) {
    if (h.first == a || h.first == b) return true;
  }
  return false;
}

Result<std::string> write_impl(const H1Request& req, bool with_body) {
  if (auto err = check_h1_request(req)) return *err;
  const std::string_view method = req.method.empty() ? std::string_view("GET") : req.method;
  const bool has_host = has_exact_key(req, "Host", "host");

  const std::string_view body = req.body ? std::string_view(*req.body) : std::string_view();

  // Header.get("Connection") reads only the canonical key's first value.
  bool connection_has_close = false;
  for (const auto& h : req.headers) {
    if (h.first == "Connection") {
      connection_has_close = has_close_token(h.second);
      break;
    }
  }

  char length_buf[24];
  std::string_view length_text;
  const bool send_length = !body.empty() || method == "POST" || method == "PUT" || method == "PATCH";
  if (send_length) {
    auto [ptr, ec] = std::to_chars(std::begin(length_buf), std::end(length_buf), body.size());
    (void)ec;  // 24 bytes always hold a size_t
    length_text = std::string_view(length_buf, static_cast<size_t>(ptr - length_buf));
  }

  std::vector<HeaderField> fields;
  fields.reserve(req.headers.size() + 4);
  for (const auto& [key, value] : req.headers) fields.push_back({key, value});
  // The Host/User-Agent defaults and the transfer headers join the caller's
  // map before sorting, so header_order positions them too.
  if (!has_host) fields.push_back({"Host", req.host});
  if (!has_exact_key(req, "User-Agent", "user-agent")) fields.push_back({"User-Agent", kDefaultUserAgent});
  if (req.close && !connection_has_close) fields.push_back({"Connection", "close"});
  if (send_length) fields.push_back({"Content-Length", length_text});
  sort_like_fhttp(fields, req.header_order);

  std::vector<HeaderField> extras;
  extras.reserve(req.extra_headers.size());
  for (const auto& [key, value] : req.extra_headers) extras.push_back({key, value});
  sort_like_fhttp(extras, {});

  size_t estimate = method.size() + req.request_target.size() + 16;
  for (const auto& f : fields) estimate += f.key.size() + f.value.size() + 4;
  for (const auto& f : extras) estimate += f.key.size() + f.value.size() + 4;
  if (with_body) estimate += body.size();

  std::string out;
  out.reserve(estimate);
  out.append(method);
  out.push_back(' ');
  out.append(req.request_target);
  out.append(" HTTP/1.1\r\n");
  for (const auto& f : fields) append_field(out, f.key, f.value);
  for (const auto& f : extras) append_field(out, f.key, f.value);
  out.append("\r\n");
  if (with_body) out.append(body);
  return out;
}

}  // namespace

std::optional<Error> check_h1_request(const H1Request& req) {
  const std::string_view method = req.method.empty() ? std::string_view("GET") : req.method;
  if (auto err = validate(req, method)) return err;
  if (!has_exact_key(req, "Host", "host") && req.host.empty()) {
    return make_error(ErrorCode::invalid_input, "http: no Host in request URL");
  }
  return std::nullopt;
}

Result<std::string> write_h1_request(const H1Request& req) { return write_impl(req, true); }

Result<std::string> write_h1_request_head(const H1Request& req) { return write_impl(req, false); }

}  // namespace tlsc
