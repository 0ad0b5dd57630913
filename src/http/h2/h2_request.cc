#include "http/h2/h2_request.h"

#include "wire/header_canon.h"
#include "wire/header_order.h"

namespace tlsc {
namespace {

// fhttp's http2 defaultUserAgent.
constexpr std::string_view kDefaultUserAgent = "Go-http-client/2.0";

// httpguts.ValidHeaderFieldValue: CTLs other than HTAB are refused.
bool valid_field_value(std::string_view v) {
  for (char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t') || c == 0x7F) return false;
  }
  return true;
}

bool has_exact_key(const H2Request& req, std::string_view key) {
  for (const auto& h : req.headers) {
    if (h.first == key) return true;
  }
  return false;
}

// Go's shouldSendReqContentLength.
bool sends_content_length(std::string_view method, size_t length) {
  if (length > 0) return true;
  return method == "POST" || method == "PUT" || method == "PATCH";
}

bool connection_specific(std::string_view key) {
  return equal_ascii_icase(key, "connection") || equal_ascii_icase(key, "proxy-connection") ||
         equal_ascii_icase(key, "transfer-encoding") || equal_ascii_icase(key, "upgrade") ||
         equal_ascii_icase(key, "keep-alive");
}

}  // namespace

Result<H2HeaderBlock> h2_header_block(const H2Request& req) {
  const std::string_view method = req.method.empty() ? std::string_view("GET") : req.method;
  // The checks and texts of Go's Transport.roundTrip, which runs first.
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
  if (req.path.empty() || (req.path[0] != '/' && req.path != "*")) {
    return make_error(ErrorCode::invalid_input, "invalid request :path " + go_quote(req.path));
  }

  H2HeaderBlock out;
  out.reserve(req.headers.size() + 8);
  static const std::vector<std::string> kGoOrder = {":authority", ":method", ":path", ":scheme"};
  const auto& pseudo = req.pseudo_header_order.empty() ? kGoOrder : req.pseudo_header_order;
  for (const auto& p : pseudo) {
    if (p == ":authority")
      out.emplace_back(":authority", req.authority);
    else if (p == ":method")
      out.emplace_back(":method", std::string(method));
    else if (p == ":path" && method != "CONNECT")
      out.emplace_back(":path", req.path);
    else if (p == ":scheme" && method != "CONNECT")
      out.emplace_back(":scheme", req.scheme);
  }

  const size_t body_size = req.body ? req.body->size() : 0;
  std::string length_text = std::to_string(body_size);
  std::vector<HeaderField> fields;
  fields.reserve(req.headers.size() + 2);
  for (const auto& [key, value] : req.headers) fields.push_back({key, value});
  // fhttp adds these under lowercase keys, so they sort as lowercase.
  if (!has_exact_key(req, "content-length") && sends_content_length(method, body_size)) {
    fields.push_back({"content-length", length_text});
  }
  if (req.add_accept_encoding && !has_exact_key(req, "accept-encoding")) {
    fields.push_back({"accept-encoding", "gzip, deflate, br"});
  }
  sort_like_fhttp(fields, req.header_order);

  bool did_user_agent = false;
  std::string_view last_user_agent_key;
  for (const auto& f : fields) {
    if (equal_ascii_icase(f.key, "host") || connection_specific(f.key)) continue;
    if (equal_ascii_icase(f.key, "cookie")) {
      // Split into one field per cookie-pair, as RFC 9113 8.2.3 allows and
      // fhttp does.
      std::string_view v = f.value;
      for (;;) {
        size_t p = v.find(';');
        if (p == std::string_view::npos) break;
        out.emplace_back("cookie", std::string(v.substr(0, p)));
        ++p;
        while (p < v.size() && v[p] == ' ') ++p;
        v.remove_prefix(p);
      }
      if (!v.empty()) out.emplace_back("cookie", std::string(v));
      continue;
    }
    if (equal_ascii_icase(f.key, "user-agent")) {
      // At most one User-Agent (the first value of the first such key);
      // an empty one means none.
      if (did_user_agent && f.key == last_user_agent_key) continue;
      did_user_agent = true;
      last_user_agent_key = f.key;
      if (f.value.empty()) continue;
    }
    out.emplace_back(ascii_lowercase(f.key), std::string(f.value));
  }
  if (!did_user_agent) out.emplace_back("user-agent", std::string(kDefaultUserAgent));
  return out;
}

}  // namespace tlsc
