// Go's words for a failed TLS connection. Callers of tls-client match on
// the error texts of Go's crypto/tls (as forked by utls), so a failure that
// BoringSSL reports by its own reason code is reworded here as the Go
// client words the same situation: an alert from the server is
// "remote error: tls: <alert>", a server that picks what was not offered
// gets utls's specific text, and anything without a Go counterpart keeps
// BoringSSL's reason behind Go's wording of the alert we sent.
//
// The table of reasons lives in handshake_error_text.cc; abi/COMPAT.md says
// where the texts still differ from upstream. Loop thread only (a
// TlsTrace belongs to one connection).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <openssl/ssl.h>

namespace tlsc {

// What one connection's handshake showed on the wire, gathered for the
// error text: BoringSSL's message callback (hellos, alerts) and the first
// bytes the server sent.
struct TlsTrace {
  int alert_sent = -1;  // description of the last alert we sent, -1 if none
  // The last ServerHello (HelloRetryRequests included).
  int server_hellos = 0;
  int hello_retry_requests = 0;
  bool last_hello_was_hrr = false;
  uint16_t server_version = 0;  // from supported_versions, else legacy_version
  bool server_sent_supported_versions = false;
  uint16_t server_cipher = 0;
  uint16_t server_group = 0;  // key_share: the server's share, or the HRR's request
  uint16_t hrr_cipher = 0;
  // The groups of the first ClientHello's key shares.
  std::vector<uint16_t> client_key_shares;
  bool client_hello_seen = false;
  // The first record header the server sent (Go judges it on its own).
  std::array<uint8_t, 5> first_record{};
  size_t first_record_have = 0;
};

// Installs BoringSSL's message callback on `ssl`, writing into `trace`.
// `trace` must outlive every SSL call on `ssl` (the owner of both declares
// the trace first, so that it is destroyed last).
void tls_trace_attach(SSL* ssl, TlsTrace* trace);
// Bytes received from the server, in order: keeps the first record header.
void tls_trace_received(TlsTrace& trace, std::string_view bytes);
// One message as BoringSSL's message callback reports it (content_type
// SSL3_RT_HANDSHAKE with its 4-byte header, SSL3_RT_ALERT with its two
// bytes). Exposed for tests.
void tls_trace_message(TlsTrace& trace, bool is_write, int content_type, std::span<const uint8_t> msg);

// One entry of BoringSSL's error queue.
struct TlsErrorEntry {
  int lib = 0;
  int reason = 0;
  std::string data;  // ERR_add_error_data text, if any
};

struct TlsFailure {
  std::vector<TlsErrorEntry> errors;      // oldest first
  uint16_t peer_signature_algorithm = 0;  // the one the server signed with, if known
  TlsTrace trace;
};

// Go's text for the failure (the part after "Get \"url\": ").
std::string go_tls_error_text(const TlsFailure& failure);

// Go's alert.String(): "tls: handshake failure", "tls: alert(N)" for a
// description Go has no name for.
std::string go_alert_text(uint8_t description);

// The error queue of this thread, drained.
std::vector<TlsErrorEntry> drain_tls_errors();

}  // namespace tlsc
