// The caller's JSON, as tls-client's cffi_src/types.go defines it. Every
// field upstream accepts is accepted here; fields that later work uses
// (TLS, HTTP/2, proxies) are stored as given.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/headers.h"

namespace tlsc {

struct CookieInput {
  std::optional<int64_t> expires;  // unix seconds; null/absent/0: none
  std::string domain, name, path, value;
  int64_t max_age = 0;
  bool secure = false;
  bool http_only = false;
};

struct PriorityParamInput {
  uint32_t stream_dep = 0;
  bool exclusive = false;
  uint32_t weight = 0;
};

struct PriorityFrameInput {
  PriorityParamInput priority_param;
  uint32_t stream_id = 0;
};

struct CandidateCipherSuiteInput {
  std::string kdf_id, aead_id;
};

struct CustomTlsClientInput {
  std::vector<std::pair<std::string, uint32_t>> h2_settings;
  std::vector<std::string> h2_settings_order;
  std::vector<std::pair<std::string, uint64_t>> h3_settings;
  std::vector<std::string> h3_settings_order;
  std::vector<std::string> h3_pseudo_header_order;
  std::optional<PriorityParamInput> header_priority;
  std::vector<std::string> cert_compression_algos;
  std::string ja3_string;
  std::vector<std::string> key_share_curves;
  std::vector<std::string> alpn_protocols;
  std::vector<std::string> alps_protocols;
  std::vector<uint16_t> ech_candidate_payloads;
  std::vector<CandidateCipherSuiteInput> ech_candidate_cipher_suites;
  std::vector<PriorityFrameInput> priority_frames;
  std::vector<std::string> pseudo_header_order;
  std::vector<std::string> supported_delegated_credentials_algorithms;
  std::vector<std::string> supported_signature_algorithms;
  std::vector<std::string> supported_versions;
  uint32_t connection_flow = 0;
  uint16_t record_size_limit = 0;
  uint32_t stream_id = 0;
  uint32_t h3_priority_param = 0;
  bool h3_send_grease_frames = false;
  bool allow_http = false;
};

struct TransportOptionsInput {
  std::optional<int64_t> idle_conn_timeout_ns;  // Go time.Duration
  int64_t max_idle_conns = 0;
  int64_t max_idle_conns_per_host = 0;
  int64_t max_conns_per_host = 0;
  int64_t max_response_header_bytes = 0;
  int64_t write_buffer_size = 0;
  int64_t read_buffer_size = 0;
  bool disable_keep_alives = false;
  bool disable_compression = false;
};

struct RequestInput {
  std::map<std::string, std::vector<std::string>> certificate_pinning_hosts;
  std::optional<CustomTlsClientInput> custom_tls_client;
  std::optional<TransportOptionsInput> transport_options;
  HeaderList headers;  // JSON object order; keys as the caller wrote them
  MultiHeaderMap default_headers;
  MultiHeaderMap connect_headers;
  std::optional<std::string> local_address;
  std::optional<std::string> server_name_overwrite;
  std::optional<std::string> proxy_url;
  std::optional<std::string> request_body;
  std::optional<std::string> request_host_override;
  std::optional<std::string> session_id;
  std::optional<int64_t> stream_output_block_size;
  // Ours, not upstream's: the limit on a response body held in memory
  // (absent or 0: the default; < 0: none).
  std::optional<int64_t> max_response_body_bytes;
  // Ours: requestStream tells the caller through waitNext/setNotify when
  // readStream would not wait (abi/CONTRACT.md).
  bool notify_on_data = false;
  std::optional<std::string> stream_output_eof_symbol;
  std::optional<std::string> stream_output_path;
  std::string request_method;
  std::string request_url;
  std::string tls_client_identifier;
  std::vector<std::string> header_order;
  std::vector<CookieInput> request_cookies;
  int64_t timeout_milliseconds = 0;
  int64_t timeout_seconds = 0;
  bool catch_panics = false;
  bool follow_redirects = false;
  bool force_http1 = false;
  bool disable_http3 = false;
  bool with_protocol_racing = false;
  bool with_alt_svc = false;  // ours: HTTP/3 once the origin advertised it (Alt-Svc)
  bool insecure_skip_verify = false;
  bool is_byte_request = false;
  bool is_byte_response = false;
  bool is_rotating_proxy = false;
  bool disable_ipv6 = false;
  bool disable_ipv4 = false;
  bool with_debug = false;
  bool with_custom_cookie_jar = false;
  bool without_cookie_jar = false;
  bool with_random_tls_extension_order = false;
};

struct SessionInput {  // destroySession, getCookiesFromSession
  std::string session_id;
  std::string url;
};

struct AddCookiesInput {
  std::string session_id;
  std::string url;
  std::vector<CookieInput> cookies;
};

struct StreamInput {  // readStream, readStreamAll, cancelStream
  std::string stream_id;
  int64_t timeout_ms = 0;  // readStream: < 0 waits, 0 polls, > 0 waits that long
};

struct CancelRequestInput {  // cancelRequest
  std::string id;
};

// upstream's WsConnectInput, WsReadInput, WsWriteInput, WsCloseInput (PR #251).
struct WsConnectInput {
  std::optional<std::string> session_id;
  std::optional<CustomTlsClientInput> custom_tls_client;
  std::optional<std::string> proxy_url;
  std::string url;
  std::string tls_client_identifier;
  HeaderList headers;  // Go's map[string]string: exact keys
  std::vector<std::string> header_order;
  int64_t handshake_timeout_ms = 0;
  int64_t read_buffer_size = 0;
  int64_t write_buffer_size = 0;
  bool insecure_skip_verify = false;
  bool with_random_tls_extension_order = false;
  bool notify_on_data = false;  // ours: as RequestInput's, for wsRead
};

struct WsCallInput {  // wsRead, wsWrite, wsClose
  std::string connection_id;
  int64_t timeout_ms = 0;    // wsRead
  std::string data;          // wsWrite: text, or base64 for binary
  int64_t message_type = 0;  // wsWrite
};

// Decoding follows Go's encoding/json: keys match fields case-insensitively,
// unknown keys are ignored, null leaves a field at its zero value, and a
// value of the wrong type is an error worded as Go words it.
Result<RequestInput> parse_request_input(std::string_view json_text);
Result<SessionInput> parse_session_input(std::string_view json_text);
Result<AddCookiesInput> parse_add_cookies_input(std::string_view json_text);
// go_type: "ReadStreamInput", "ReadStreamAllInput" or "CancelStreamInput",
// upstream's struct for that function (its name is in Go's error texts).
Result<StreamInput> parse_stream_input(std::string_view json_text, std::string_view go_type);
Result<CancelRequestInput> parse_cancel_request_input(std::string_view json_text);
Result<WsConnectInput> parse_ws_connect_input(std::string_view json_text);
// go_type: "WsReadInput", "WsWriteInput" or "WsCloseInput".
Result<WsCallInput> parse_ws_call_input(std::string_view json_text, std::string_view go_type);

}  // namespace tlsc
