// A profile: one tls-client identifier's ClientHello spec and its HTTP/2
// (and HTTP/3) settings, as profiles/SCHEMA.md describes the file. The TLS
// half is parsed into a ClientHelloSpec and the HTTP/2 half into an
// H2Fingerprint; the HTTP/3 half stays JSON, checked against the schema,
// but for its QUIC block, read into a QuicFingerprint and, for the QUIC
// ClientHello, a second ClientHelloSpec.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "http/h2/h2_fingerprint.h"
#include "http/h3/h3_fingerprint.h"
#include "tls/client_hello_spec.h"
#include "wire/quic_fingerprint.h"

namespace tlsc {

struct Profile {
  std::string name;
  std::vector<std::string> aliases;
  ClientHelloSpec tls;
  nlohmann::json http2 = nlohmann::json::object();  // schema-checked; {} = fhttp's defaults
  // http2 as the connection shows it (profiles/h2_block.h), worked out once
  // when the file is read rather than for every request.
  H2Fingerprint h2;
  nlohmann::json http3;  // null when the profile has none
  // http3 above QUIC (profiles/h3_block.h); none when the block is absent.
  std::optional<H3Fingerprint> h3;
  // http3.quic read (profiles/quic_block.h); none when the block has none.
  std::optional<QuicFingerprint> quic;
  // http3.quic.tls: the ClientHello a QUIC connection sends in its Initial
  // packets (its own extension set, 57 among them, TLS 1.3 alone); none
  // when the block has none.
  std::optional<ClientHelloSpec> quic_tls;
  bool allow_http = false;
  // The browser's own headers in its order (captured profiles); data for
  // callers and tests, not added to requests (upstream adds none).
  std::vector<std::pair<std::string, std::string>> default_headers;
  // The Sec-WebSocket-Extensions the browser offers in a WebSocket upgrade
  // ("permessage-deflate; client_max_window_bits" for Chrome); "" offers
  // none, as upstream's client.
  std::string websocket_extensions;
};

// Parses and checks one profile file. The error message names the field
// and the reason ("tls.extensions: 17613 listed twice"). The same parser
// checks the built-in files at build time (profiles/tools/profile_compiler)
// and reads them, and users' files, at run time.
Result<Profile> parse_profile(std::string_view json_text);

// The identifier syntax profile names and aliases follow.
bool valid_profile_identifier(std::string_view s);

}  // namespace tlsc
