#include "http/response_builder.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "core/base64.h"
#include "charset/charset.h"
#include "sniff/sniff.h"

namespace tlsc {
namespace {

const std::string* header_value(const ResponseHead& head, std::string_view canonical) {
  for (const auto& [k, v] : head.headers) {
    if (k == canonical) return &v;
  }
  return nullptr;
}

// Upstream writes the converted body into the file (appending) in blocks of
// the caller's size, then the EOF symbol, and returns an empty body.
std::optional<Error> append_to_file(const BodyDelivery& d, std::string_view text) {
  const std::string& path = *d.stream_output_path;
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (f == nullptr) return make_error(ErrorCode::file, "open " + path + ": " + std::strerror(errno));
  size_t block = d.stream_block_size > 0 ? d.stream_block_size : 1024;
  bool ok = true;
  for (size_t off = 0; ok && off < text.size(); off += block) {
    size_t n = std::min(block, text.size() - off);
    ok = std::fwrite(text.data() + off, 1, n, f) == n;
  }
  if (ok && d.stream_eof_symbol) {
    ok = std::fwrite(d.stream_eof_symbol->data(), 1, d.stream_eof_symbol->size(), f) ==
         d.stream_eof_symbol->size();
  }
  int saved = errno;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) return make_error(ErrorCode::file, "write " + path + ": " + std::strerror(saved ? saved : errno));
  return std::nullopt;
}

}  // namespace

Result<Response> build_response(Response r, const ResponseHead& head, const Url& final_url,
                                std::string body, bool transport_decompressed,
                                std::optional<std::vector<Cookie>> jar_cookies,
                                const BodyDelivery& delivery) {
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

  if (delivery.is_byte_response) {
    r.body = "data:" + detect_content_type(body) + ";base64," + base64_encode(body);
    return r;
  }
  if (body.empty()) return r;
  const std::string* ct = header_value(head, "Content-Type");
  std::string text = charset::to_utf8(body, ct ? *ct : std::string_view());
  if (delivery.stream_output_path) {
    if (auto e = append_to_file(delivery, text)) return *e;
  } else {
    r.body = std::move(text);
  }
  return r;
}

}  // namespace tlsc
