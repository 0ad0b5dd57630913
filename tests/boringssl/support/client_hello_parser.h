// A small, bounds-checked parser for what a TLS client writes: records,
// handshake messages, the ClientHello and the bodies of the extensions the
// ClientHello spec tests look at. Every read checks its length first and a
// malformed input throws ParseError, so a test fails with a message instead
// of reading out of bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace bssltest {

using Bytes = std::vector<uint8_t>;

struct ParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Reader reads big-endian integers and length-prefixed fields from a byte
// range it does not own.
class Reader {
 public:
  Reader(const uint8_t* data, size_t len) : p_(data), end_(data + len) {}
  explicit Reader(const Bytes& b) : Reader(b.data(), b.size()) {}

  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  bool empty() const { return p_ == end_; }

  uint8_t u8();
  uint16_t u16();
  uint32_t u24();
  uint32_t u32();
  Bytes bytes(size_t n);
  // A field with an n-byte length prefix (n = 1, 2 or 3).
  Bytes prefixed(int prefix_len);
  Reader prefixed_reader(int prefix_len);
  void expect_empty(const char* what) const;

 private:
  void need(size_t n) const;
  const uint8_t* p_;
  const uint8_t* end_;
};

struct Record {
  uint8_t type = 0;
  uint16_t version = 0;
  Bytes body;
};

// Splits a byte stream into TLS records. Throws on a truncated record.
std::vector<Record> parse_records(const Bytes& stream);

struct HandshakeMessage {
  uint8_t type = 0;
  Bytes body;
};

// Concatenates the bodies of the plaintext handshake records (type 22) of
// |stream| and splits them into handshake messages. Other records (alerts,
// ChangeCipherSpec, encrypted ones) are skipped.
std::vector<HandshakeMessage> parse_plaintext_handshake(const Bytes& stream);

struct Extension {
  uint16_t type = 0;
  Bytes body;
};

struct ClientHello {
  uint16_t legacy_version = 0;
  Bytes random;
  Bytes session_id;
  std::vector<uint16_t> cipher_suites;
  Bytes compression_methods;
  std::vector<Extension> extensions;
  size_t body_length = 0;  // length of the handshake message body

  std::vector<uint16_t> extension_types() const;
  const Extension* find(uint16_t type) const;
  // The body of extension |type|; throws if it is absent.
  const Bytes& body(uint16_t type) const;
};

// Parses a ClientHello handshake message body (after the 4-byte header).
ClientHello parse_client_hello_body(const Bytes& body);

// Finds and parses the first ClientHello in a client's byte stream.
ClientHello parse_first_client_hello(const Bytes& stream);
// All ClientHellos in the stream (the second one follows a HelloRetryRequest).
// Each must be one whole plaintext record; other records are skipped.
std::vector<ClientHello> parse_client_hellos(const Bytes& stream);

// Extension bodies.
std::vector<uint16_t> u16_list(const Bytes& body);          // u16 length, u16s
std::vector<uint16_t> u16_list_u8len(const Bytes& body);    // u8 length, u16s
std::vector<std::string> protocol_list(const Bytes& body);  // ALPN / ALPS

struct KeyShareEntry {
  uint16_t group = 0;
  Bytes key_exchange;
};
std::vector<KeyShareEntry> key_shares(const Bytes& body);
std::string server_name(const Bytes& body);

bool is_grease(uint16_t v);

}  // namespace bssltest
