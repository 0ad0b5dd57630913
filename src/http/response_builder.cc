#include "http/response_builder.h"

#include <map>

#include "charset/charset.h"
#include "core/base64.h"
#include "sniff/sniff.h"

namespace tlsc {
namespace {

const std::string* header_value(const ResponseHead& head, std::string_view canonical) {
  for (const auto& [k, v] : head.headers) {
    if (k == canonical) return &v;
  }
  return nullptr;
}

}  // namespace

std::string convert_body(std::string body, std::string_view content_type, bool is_byte_response) {
  if (is_byte_response) return "data:" + detect_content_type(body) + ";base64," + base64_encode(body);
  if (body.empty()) return body;
  return charset::to_utf8_owned(std::move(body), content_type);
}

Response build_response(Response r, const ResponseHead& head, const Url& final_url, BodyBuffer body,
                        bool transport_decompressed, std::optional<std::vector<Cookie>> jar_cookies,
                        bool is_byte_response) {
  r.status = head.status;
  r.used_protocol = head.proto;
  r.target = final_url.to_string();

  std::map<std::string, std::vector<std::string>> headers;
  for (const auto& [k, v] : head.headers) headers[k].push_back(v);
  if (transport_decompressed) {
    headers.erase("Content-Encoding");
    headers.erase("Content-Length");
  }
  r.headers.emplace(headers.begin(), headers.end());

  // Go's map: for two cookies of one name, the later one in jar order wins.
  std::map<std::string, std::string> by_name;
  if (jar_cookies) {
    for (auto& c : *jar_cookies) by_name[c.name] = c.value;
  }
  r.cookies.emplace(by_name.begin(), by_name.end());

  const std::string* ct = header_value(head, "Content-Type");
  const std::string_view content_type = ct ? std::string_view(*ct) : std::string_view();
  if (!is_byte_response && body.blocks().size() > 1 &&
      charset::converts_to_itself(body.blocks(), content_type)) {
    r.body_parts = std::move(body).take_blocks();
    return r;
  }
  r.body = convert_body(std::move(body).join(), content_type, is_byte_response);
  return r;
}

}  // namespace tlsc
