#include "conn/proxy/http_connect.h"

#include "core/base64.h"
#include "wire/h1_request_writer.h"
#include "wire/header_canon.h"

namespace tlsc {
namespace {

Error proxy_error(std::string message) { return make_error(ErrorCode::proxy, std::move(message)); }

// strconv.Atoi for the three status digits: an optional sign, then digits.
bool status_code_value(std::string_view code, int& out) {
  if (code.size() != 3) return false;
  bool negative = code.front() == '-';
  std::string_view digits = (code.front() == '+' || negative) ? code.substr(1) : code;
  int v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (negative) return v == 0 ? (out = 0, true) : false;
  out = v;
  return true;
}

// fhttp's permissive ParseHTTPVersion: "HTTP/<major>.<minor>", each at
// most 1000000.
bool valid_http_version(std::string_view vers) {
  if (vers == "HTTP/1.1" || vers == "HTTP/1.0") return true;
  if (!vers.starts_with("HTTP/")) return false;
  vers.remove_prefix(5);
  size_t dot = vers.find('.');
  if (dot == std::string_view::npos) return false;
  auto number_ok = [](std::string_view s) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty() || s.size() > 7) return false;
    long v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    return v <= 1000000;
  };
  return number_ok(vers.substr(0, dot)) && number_ok(vers.substr(dot + 1));
}

}  // namespace

Result<std::string> write_connect_request(const ConnectRequest& req) {
  H1Request r;
  r.method = "CONNECT";
  r.request_target = req.authority;
  r.host = req.authority;
  for (const auto& [key, values] : req.headers) {
    // Header.Set canonicalises the key, so only that exact key is replaced.
    if (req.credentials && !req.credentials->username.empty() && key == "Proxy-Authorization") {
      continue;
    }
    for (const auto& v : values) r.headers.emplace_back(key, v);
  }
  if (req.credentials && !req.credentials->username.empty()) {
    r.headers.emplace_back("Proxy-Authorization", "Basic " + base64_encode(req.credentials->username + ":" +
                                                                           req.credentials->password));
  }
  return write_h1_request(r);
}

HttpConnectHandshake::HttpConnectHandshake(ConnectRequest req, size_t max_head_bytes)
    : req_(std::move(req)), max_head_bytes_(max_head_bytes) {}

Result<std::string> HttpConnectHandshake::start() {
  auto bytes = write_connect_request(req_);
  if (!bytes) return make_error(ErrorCode::proxy, bytes.error().message);
  return bytes;
}

std::optional<Error> HttpConnectHandshake::fail(Error e) {
  error_ = e;
  return e;
}

std::optional<Error> HttpConnectHandshake::on_status_line(std::string_view line) {
  // ReadResponse: "<proto> <status>", leading spaces of the status dropped.
  size_t sp = line.find(' ');
  if (sp == std::string_view::npos) {
    return proxy_error("malformed HTTP response " + go_quote(line));
  }
  std::string_view proto = line.substr(0, sp);
  std::string_view status = line.substr(sp + 1);
  while (!status.empty() && status.front() == ' ') status.remove_prefix(1);
  std::string_view code = status.substr(0, status.find(' '));
  int value = 0;
  if (!status_code_value(code, value)) {
    return proxy_error("malformed HTTP status code " + go_quote(code));
  }
  if (!valid_http_version(proto)) {
    return proxy_error("malformed HTTP version " + go_quote(proto));
  }
  status_ = value;
  status_text_.assign(status);
  have_status_ = true;
  return std::nullopt;
}

std::optional<Error> HttpConnectHandshake::feed(std::string_view in, std::string& /*out*/) {
  if (error_) return error_;
  if (done_) {
    leftover_.append(in);
    return std::nullopt;
  }
  while (!in.empty()) {
    // Lines end at LF; a CR before it is dropped (textproto.ReadLine).
    size_t lf = in.find('\n');
    size_t take = lf == std::string_view::npos ? in.size() : lf + 1;
    if (head_bytes_ + take > max_head_bytes_) {
      return fail(proxy_error("proxy CONNECT response head exceeded " + std::to_string(max_head_bytes_) +
                              " bytes; aborted"));
    }
    head_bytes_ += take;
    buffer_.append(in.substr(0, take));
    in.remove_prefix(take);
    if (lf == std::string_view::npos) break;
    std::string_view line(buffer_);
    line.remove_suffix(1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!have_status_) {
      if (auto e = on_status_line(line)) return fail(*e);
    } else if (line.empty()) {
      // The head is complete. Upstream accepts exactly 200.
      if (status_ != 200) {
        // 407: the proxy wants (other) credentials.
        Error e = proxy_error("Proxy responded with non 200 code: " + status_text_);
        if (status_ == 407) e.code = ErrorCode::proxy_auth;
        return fail(std::move(e));
      }
      done_ = true;
      leftover_.assign(in);
      return std::nullopt;
    }
    buffer_.clear();
  }
  return std::nullopt;
}

Error HttpConnectHandshake::on_eof() {
  if (error_) return *error_;
  // bufio's ReadLine hands back a last line without its newline at EOF, so
  // a truncated status line is still judged before "unexpected EOF".
  if (!have_status_ && !buffer_.empty()) {
    if (auto e = on_status_line(buffer_)) return *fail(*e);
  }
  return *fail(proxy_error("unexpected EOF"));
}

}  // namespace tlsc
