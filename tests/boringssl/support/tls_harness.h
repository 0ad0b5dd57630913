// In-memory TLS for the ClientHello spec tests: BoringSSL client and server
// SSL objects on memory BIOs (no sockets), a pump that moves bytes between
// them and records every flight the client writes, a throwaway test PKI, and
// builders for scripted server messages (a fake ServerHello or
// HelloRetryRequest) to feed a client.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <openssl/ssl.h>

#include "client_hello_parser.h"

namespace bssltest {

constexpr const char* kTestHost = "example.test";

enum class KeyType { kEcdsaP256, kRsa2048 };

// A self-signed certificate for kTestHost with a key of |type|, made once per
// process.
struct TestCert {
  bssl::UniquePtr<X509> cert;
  bssl::UniquePtr<EVP_PKEY> key;
};
const TestCert& test_cert(KeyType type);

// A client context that verifies the server against the test certificates
// (both key types) with a host name check.
bssl::UniquePtr<SSL_CTX> make_client_ctx();
// A server context serving test_cert(type).
bssl::UniquePtr<SSL_CTX> make_server_ctx(KeyType type = KeyType::kEcdsaP256);

// Makes a server context pick the first protocol the client offers that is
// "h2" or "http/1.1".
void set_server_alpn(SSL_CTX* ctx);

// One endpoint on memory BIOs.
struct MemConn {
  bssl::UniquePtr<SSL> ssl;
  BIO* in = nullptr;   // what the peer sent, read by |ssl| (owned by |ssl|)
  BIO* out = nullptr;  // what |ssl| wrote (owned by |ssl|)
  Bytes written;       // everything |ssl| has written so far

  // Drains what |ssl| wrote since the last call (also appended to written).
  Bytes take_output();
  void feed(const Bytes& bytes);
};

// A client (with SNI and host name check for kTestHost) or a server.
MemConn make_client(SSL_CTX* ctx);
MemConn make_server(SSL_CTX* ctx);

// The errors on this thread's queue, oldest first; the queue is emptied.
struct ErrorInfo {
  std::vector<uint32_t> codes;
  std::string text;  // one line per error, with its data
  bool has_reason(int reason) const;
};
ErrorInfo drain_errors();

// Runs SSL_do_handshake on the client until it waits for the server and
// returns what it wrote (the ClientHello flight). Throws if it fails.
Bytes client_first_flight(MemConn& client);

struct HandshakeResult {
  bool ok = false;
  ErrorInfo client_error, server_error;
  std::vector<Bytes> client_flights;  // each batch the client wrote
  std::string describe() const;
};

// Pumps bytes between |client| and |server| until both finish the handshake
// or one fails.
HandshakeResult run_handshake(MemConn& client, MemConn& server);

// Sends |n| bytes each way through an established connection and checks they
// arrive; returns false (and why, in |why|) if not.
bool exchange_data(MemConn& client, MemConn& server, size_t n, std::string* why);

// Drives the client with one scripted server record (after its first flight,
// which the caller has already taken) and returns the error it fails with;
// ok is true if it did not fail.
struct ScriptResult {
  bool failed = false;
  ErrorInfo error;
  Bytes client_output;  // what the client wrote in response (alerts, ...)
};
ScriptResult feed_client(MemConn& client, const Bytes& server_bytes);

// A plaintext handshake record holding one handshake message.
Bytes handshake_record(uint8_t msg_type, const Bytes& body);

// The HelloRetryRequest random of RFC 8446, section 4.1.3.
extern const uint8_t kHelloRetryRequestRandom[32];

// A ServerHello (or, with hrr, a HelloRetryRequest) answering |ch|, as a
// record: legacy_version 0x0303, random 32 bytes of 0x42 (or the HRR value),
// |cipher|, no compression, |extensions| in order. The session ID is |ch|'s
// (as TLS 1.3 requires) unless |fresh_session_id|, which a TLS 1.2 server
// that does not resume sends.
Bytes server_hello_record(const ClientHello& ch, uint16_t cipher, const std::vector<Extension>& extensions,
                          bool hrr = false, bool fresh_session_id = false);

Extension ext_u16(uint16_t type, uint16_t value);

}  // namespace bssltest
