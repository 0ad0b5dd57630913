// The caller's JSON: parse it, and when it parses, turn it into client
// options the way a request would. Nothing here may crash or hang.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "abi/client_options_input.h"
#include "abi/request_input.h"
#include "core/base64.h"
#include "core/url.h"
#include "http/ws/ws_upgrade.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto in = tlsc::parse_request_input(text);
  if (in) {
    (void)tlsc::client_options_from_input(*in);
    auto url = tlsc::parse_url(in->request_url);
    if (url) (void)url->to_string();
    if (in->request_body) (void)tlsc::base64_decode(*in->request_body);
  }
  (void)tlsc::parse_session_input(text);
  (void)tlsc::parse_add_cookies_input(text);
  (void)tlsc::parse_stream_input(text, "ReadStreamInput");
  (void)tlsc::parse_stream_input(text, "CancelStreamInput");
  (void)tlsc::parse_cancel_request_input(text);
  (void)tlsc::parse_ws_call_input(text, "WsReadInput");
  (void)tlsc::parse_ws_call_input(text, "WsWriteInput");
  if (auto ws = tlsc::parse_ws_connect_input(text)) {
    // The upgrade request is built from the caller's URL and headers.
    (void)tlsc::make_ws_upgrade({ws->url, ws->headers, ws->header_order});
  }
  auto u = tlsc::parse_url(text);
  if (u) {
    auto base = tlsc::parse_url("http://a/b/c?d");
    (void)tlsc::resolve_reference(*base, *u).to_string();
  }
  return 0;
}
