// What a fingerprinting server can read of a QUIC client without answering
// it: the client's Initial packets. Their keys derive from the client's own
// Destination Connection ID (RFC 9001 section 5.2), so the header
// protection and the AEAD can be removed, the frames read, and the CRYPTO
// stream put back together into the TLS ClientHello, whose extension 57
// carries the QUIC transport parameters (RFC 9000 section 18).
//
// Bytes in, a record out; every read is bounds-checked (BoringSSL's CBS) and
// a bad input is an error string, never a crash: tests/fuzz/quic_initial_fuzz.cc
// feeds it arbitrary datagrams. QUIC version 1 only; other versions are
// reported by number and not decrypted.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <openssl/aead.h>
#include <openssl/aes.h>
#include <openssl/bytestring.h>
#include <openssl/digest.h>
#include <openssl/hkdf.h>

namespace quic_initial {

using Bytes = std::vector<uint8_t>;

constexpr uint32_t kVersion1 = 0x00000001;
// A ClientHello that needs more than this many CRYPTO bytes is refused: a
// browser's is under 2 KiB even with post-quantum key shares.
constexpr uint64_t kMaxCryptoBytes = 64 * 1024;

// A QUIC variable-length integer (RFC 9000 section 16).
inline bool get_varint(CBS* in, uint64_t* out) {
  uint8_t first;
  if (!CBS_get_u8(in, &first)) return false;
  const size_t len = size_t{1} << (first >> 6);
  uint64_t v = first & 0x3f;
  for (size_t i = 1; i < len; ++i) {
    uint8_t b;
    if (!CBS_get_u8(in, &b)) return false;
    v = (v << 8) | b;
  }
  *out = v;
  return true;
}

// The client's Initial keys for version 1 (RFC 9001 sections 5.1, 5.2).
struct InitialKeys {
  uint8_t key[16], iv[12], hp[16];
};

inline bool expand_label(const uint8_t* secret, size_t secret_len, const char* label, uint8_t* out,
                         size_t out_len) {
  const std::string full = std::string("tls13 ") + label;
  Bytes info = {static_cast<uint8_t>(out_len >> 8), static_cast<uint8_t>(out_len),
                static_cast<uint8_t>(full.size())};
  info.insert(info.end(), full.begin(), full.end());
  info.push_back(0);  // empty context
  return HKDF_expand(out, out_len, EVP_sha256(), secret, secret_len, info.data(), info.size()) == 1;
}

inline bool client_initial_keys(const Bytes& dcid, InitialKeys* keys) {
  static const uint8_t kSaltV1[] = {0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
                                    0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a};
  uint8_t initial[32], client[32];
  size_t initial_len = 0;
  return HKDF_extract(initial, &initial_len, EVP_sha256(), dcid.data(), dcid.size(), kSaltV1,
                      sizeof kSaltV1) == 1 &&
         expand_label(initial, initial_len, "client in", client, sizeof client) &&
         expand_label(client, sizeof client, "quic key", keys->key, sizeof keys->key) &&
         expand_label(client, sizeof client, "quic iv", keys->iv, sizeof keys->iv) &&
         expand_label(client, sizeof client, "quic hp", keys->hp, sizeof keys->hp);
}

struct Frame {
  uint64_t type = 0;
  uint64_t offset = 0, length = 0;  // CRYPTO: the data's place in the stream; PADDING: a run's bytes
};

struct Packet {
  uint32_t version = 0;
  uint8_t type = 0;  // 0 Initial, 1 0-RTT, 2 Handshake, 3 Retry (version 1's long-header types)
  Bytes dcid, scid, token;
  size_t size = 0;  // the whole packet, header and tag included
  uint64_t packet_number = 0;
  size_t packet_number_length = 0;
  std::vector<Frame> frames;  // Initial packets only, once decrypted
};

struct Datagram {
  size_t size = 0;
  std::vector<Packet> packets;  // in datagram order (coalesced packets)
  std::string error;            // empty, or why reading stopped
};

// Reads a client's datagrams, in arrival order, and gathers the CRYPTO
// stream of its Initial packets until the ClientHello is whole.
class ClientInitialReader {
 public:
  Datagram read(const uint8_t* data, size_t len) {
    Datagram d;
    d.size = len;
    CBS in;
    CBS_init(&in, data, len);
    while (CBS_len(&in) > 0) {
      Packet p;
      if (!read_packet(&in, &p, &d.error)) break;
      d.packets.push_back(std::move(p));
    }
    return d;
  }

  // The ClientHello handshake message (type, 24-bit length, body) once
  // the CRYPTO data from offset 0 covers it.
  std::optional<Bytes> client_hello() const {
    Bytes prefix;
    for (const auto& [off, data] : crypto_) {
      if (off > prefix.size()) break;
      if (off + data.size() > prefix.size())
        prefix.insert(prefix.end(), data.begin() + static_cast<ptrdiff_t>(prefix.size() - off), data.end());
    }
    if (prefix.size() < 4 || prefix[0] != 1) return std::nullopt;
    const size_t body = (size_t{prefix[1]} << 16) | (size_t{prefix[2]} << 8) | prefix[3];
    if (prefix.size() < 4 + body) return std::nullopt;
    prefix.resize(4 + body);
    return prefix;
  }

  const Bytes& first_dcid() const { return first_dcid_; }

  // An Initial packet's decrypted payload: its frames into p->frames and
  // its CRYPTO data into the stream (public for the fuzz target).
  bool read_frames(const Bytes& plain, Packet* p, std::string* error) {
    CBS in;
    CBS_init(&in, plain.data(), plain.size());
    while (CBS_len(&in) > 0) {
      Frame f;
      if (!get_varint(&in, &f.type)) return fail(error, "truncated frame type");
      if (f.type == 0x00) {  // PADDING: one frame per run of zero bytes
        f.length = 1;
        while (CBS_len(&in) > 0 && CBS_data(&in)[0] == 0) {
          CBS_skip(&in, 1);
          ++f.length;
        }
      } else if (f.type == 0x01) {  // PING
      } else if (f.type == 0x06) {  // CRYPTO
        CBS data;
        if (!get_varint(&in, &f.offset) || !get_varint(&in, &f.length) ||
            !CBS_get_bytes(&in, &data, f.length))
          return fail(error, "truncated CRYPTO frame");
        if (f.offset + f.length > kMaxCryptoBytes) return fail(error, "CRYPTO data past 64 KiB");
        auto& slot = crypto_[f.offset];
        if (CBS_len(&data) > slot.size()) {
          // Retransmissions may repeat data, but not without end.
          crypto_bytes_ += CBS_len(&data) - slot.size();
          if (crypto_bytes_ > 4 * kMaxCryptoBytes) return fail(error, "too much CRYPTO data");
          slot.assign(CBS_data(&data), CBS_data(&data) + CBS_len(&data));
        }
      } else if (f.type == 0x02 || f.type == 0x03) {  // ACK: skip its fields
        uint64_t v, ranges;
        if (!get_varint(&in, &v) || !get_varint(&in, &v) || !get_varint(&in, &ranges) ||
            !get_varint(&in, &v) || ranges > CBS_len(&in))
          return fail(error, "truncated ACK frame");
        for (uint64_t i = 0; i < 2 * ranges; ++i)
          if (!get_varint(&in, &v)) return fail(error, "truncated ACK frame");
        if (f.type == 0x03)
          for (int i = 0; i < 3; ++i)
            if (!get_varint(&in, &v)) return fail(error, "truncated ACK frame");
      } else if (f.type == 0x1c) {  // CONNECTION_CLOSE
        uint64_t v;
        CBS reason;
        if (!get_varint(&in, &v) || !get_varint(&in, &v) || !get_varint(&in, &v) ||
            !CBS_get_bytes(&in, &reason, v))
          return fail(error, "truncated CONNECTION_CLOSE frame");
      } else {
        return fail(error, "frame type " + std::to_string(f.type) + " is not allowed in an Initial packet");
      }
      p->frames.push_back(f);
    }
    return true;
  }

 private:
  bool read_packet(CBS* in, Packet* p, std::string* error) {
    const uint8_t* start = CBS_data(in);
    uint8_t first;
    if (!CBS_get_u8(in, &first)) return fail(error, "empty packet");
    if (!(first & 0x80)) return fail(error, "short header packet");
    CBS dcid, scid;
    if (!CBS_get_u32(in, &p->version) || !CBS_get_u8_length_prefixed(in, &dcid) ||
        !CBS_get_u8_length_prefixed(in, &scid))
      return fail(error, "truncated long header");
    if (CBS_len(&dcid) > 20 || CBS_len(&scid) > 20) return fail(error, "connection ID over 20 bytes");
    p->dcid.assign(CBS_data(&dcid), CBS_data(&dcid) + CBS_len(&dcid));
    p->scid.assign(CBS_data(&scid), CBS_data(&scid) + CBS_len(&scid));
    if (p->version != kVersion1) {
      p->size = CBS_len(in) + static_cast<size_t>(CBS_data(in) - start);
      CBS_skip(in, CBS_len(in));
      return fail(error, p->version == 0 ? "version negotiation packet" : "not QUIC version 1");
    }
    p->type = (first >> 4) & 3;
    if (p->type == 3) return fail(error, "retry packet from a client");
    uint64_t token_len = 0, length = 0;
    if (p->type == 0) {
      CBS token;
      if (!get_varint(in, &token_len) || !CBS_get_bytes(in, &token, token_len))
        return fail(error, "truncated token");
      p->token.assign(CBS_data(&token), CBS_data(&token) + CBS_len(&token));
    }
    if (!get_varint(in, &length) || length > CBS_len(in)) return fail(error, "length past the datagram");
    const size_t header_len = static_cast<size_t>(CBS_data(in) - start);
    p->size = header_len + length;
    CBS body;
    CBS_get_bytes(in, &body, length);
    if (p->type != 0) return true;  // Handshake and 0-RTT keys are not the client's to derive
    if (first_dcid_.empty()) first_dcid_ = p->dcid;
    // Every Initial of a connection is protected with keys from the first
    // Initial's DCID, until the server's first packet changes it.
    InitialKeys keys;
    if (!client_initial_keys(first_dcid_, &keys)) return fail(error, "key derivation failed");
    return unprotect(start, header_len, length, first, keys, p, error);
  }

  bool unprotect(const uint8_t* start, size_t header_len, uint64_t length, uint8_t first,
                 const InitialKeys& keys, Packet* p, std::string* error) {
    // The sample starts 4 bytes after the packet number's first byte.
    if (length < 4 + 16) return fail(error, "packet too short for the header-protection sample");
    AES_KEY hp;
    AES_set_encrypt_key(keys.hp, 128, &hp);
    uint8_t mask[16];
    AES_encrypt(start + header_len + 4, mask, &hp);
    Bytes header(start, start + header_len);
    header[0] = static_cast<uint8_t>(first ^ (mask[0] & 0x0f));
    p->packet_number_length = (header[0] & 3) + 1;
    for (size_t i = 0; i < p->packet_number_length; ++i) {
      const uint8_t b = start[header_len + i] ^ mask[1 + i];
      header.push_back(b);
      p->packet_number = (p->packet_number << 8) | b;
    }
    const uint8_t* sealed = start + header.size();
    const size_t sealed_len = static_cast<size_t>(length) - p->packet_number_length;
    uint8_t nonce[12];
    std::memcpy(nonce, keys.iv, sizeof nonce);
    for (size_t i = 0; i < 8; ++i) nonce[11 - i] ^= static_cast<uint8_t>(p->packet_number >> (8 * i));
    EVP_AEAD_CTX ctx;
    if (!EVP_AEAD_CTX_init(&ctx, EVP_aead_aes_128_gcm(), keys.key, sizeof keys.key, 16, nullptr))
      return fail(error, "AEAD init failed");
    Bytes plain(sealed_len);
    size_t plain_len = 0;
    const int opened = EVP_AEAD_CTX_open(&ctx, plain.data(), &plain_len, plain.size(), nonce, sizeof nonce,
                                         sealed, sealed_len, header.data(), header.size());
    EVP_AEAD_CTX_cleanup(&ctx);
    if (!opened) return fail(error, "Initial packet does not decrypt");
    plain.resize(plain_len);
    return read_frames(plain, p, error);
  }

  static bool fail(std::string* error, std::string why) {
    *error = std::move(why);
    return false;
  }

  Bytes first_dcid_;
  std::map<uint64_t, Bytes> crypto_;  // CRYPTO data by offset
  size_t crypto_bytes_ = 0;
};

struct TransportParameter {
  uint64_t id = 0;
  Bytes value;
};

// Extension 57's body: (id, length, value) in the client's order.
inline std::optional<std::vector<TransportParameter>> transport_parameters(const uint8_t* data, size_t len) {
  std::vector<TransportParameter> out;
  CBS in, value;
  CBS_init(&in, data, len);
  while (CBS_len(&in) > 0) {
    TransportParameter tp;
    uint64_t value_len;
    if (!get_varint(&in, &tp.id) || !get_varint(&in, &value_len) || !CBS_get_bytes(&in, &value, value_len))
      return std::nullopt;
    tp.value.assign(CBS_data(&value), CBS_data(&value) + CBS_len(&value));
    out.push_back(std::move(tp));
  }
  return out;
}

// A transport parameter's value read as one varint (most of them are),
// or nothing if it is not exactly one.
inline std::optional<uint64_t> varint_value(const Bytes& value) {
  CBS in;
  CBS_init(&in, value.data(), value.size());
  uint64_t v;
  if (!get_varint(&in, &v) || CBS_len(&in) != 0) return std::nullopt;
  return v;
}

// QUIC's reserved ("GREASE") transport parameter ids: 31 * N + 27.
inline bool is_grease_parameter(uint64_t id) { return id >= 27 && (id - 27) % 31 == 0; }

}  // namespace quic_initial
