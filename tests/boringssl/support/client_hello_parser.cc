#include "client_hello_parser.h"

namespace bssltest {

void Reader::need(size_t n) const {
  if (remaining() < n) {
    throw ParseError("truncated: need " + std::to_string(n) + " bytes, have " + std::to_string(remaining()));
  }
}

uint8_t Reader::u8() {
  need(1);
  return *p_++;
}

uint16_t Reader::u16() {
  need(2);
  uint16_t v = static_cast<uint16_t>((p_[0] << 8) | p_[1]);
  p_ += 2;
  return v;
}

uint32_t Reader::u24() {
  need(3);
  uint32_t v = (uint32_t{p_[0]} << 16) | (uint32_t{p_[1]} << 8) | p_[2];
  p_ += 3;
  return v;
}

uint32_t Reader::u32() {
  need(4);
  uint32_t v = (uint32_t{p_[0]} << 24) | (uint32_t{p_[1]} << 16) | (uint32_t{p_[2]} << 8) | p_[3];
  p_ += 4;
  return v;
}

Bytes Reader::bytes(size_t n) {
  need(n);
  Bytes out(p_, p_ + n);
  p_ += n;
  return out;
}

Bytes Reader::prefixed(int prefix_len) {
  size_t n;
  switch (prefix_len) {
    case 1:
      n = u8();
      break;
    case 2:
      n = u16();
      break;
    case 3:
      n = u24();
      break;
    default:
      throw ParseError("bad prefix length");
  }
  return bytes(n);
}

Reader Reader::prefixed_reader(int prefix_len) {
  size_t n;
  switch (prefix_len) {
    case 1:
      n = u8();
      break;
    case 2:
      n = u16();
      break;
    case 3:
      n = u24();
      break;
    default:
      throw ParseError("bad prefix length");
  }
  need(n);
  Reader r(p_, n);
  p_ += n;
  return r;
}

void Reader::expect_empty(const char* what) const {
  if (!empty()) {
    throw ParseError(std::string(what) + ": " + std::to_string(remaining()) + " trailing bytes");
  }
}

std::vector<Record> parse_records(const Bytes& stream) {
  std::vector<Record> out;
  Reader r(stream);
  while (!r.empty()) {
    Record rec;
    rec.type = r.u8();
    rec.version = r.u16();
    rec.body = r.prefixed(2);
    out.push_back(std::move(rec));
  }
  return out;
}

std::vector<HandshakeMessage> parse_plaintext_handshake(const Bytes& stream) {
  Bytes hs;
  for (const Record& rec : parse_records(stream)) {
    if (rec.type == 22) hs.insert(hs.end(), rec.body.begin(), rec.body.end());
  }
  std::vector<HandshakeMessage> out;
  Reader r(hs);
  while (!r.empty()) {
    HandshakeMessage m;
    m.type = r.u8();
    m.body = r.prefixed(3);
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<uint16_t> ClientHello::extension_types() const {
  std::vector<uint16_t> out;
  for (const Extension& e : extensions) out.push_back(e.type);
  return out;
}

const Extension* ClientHello::find(uint16_t type) const {
  for (const Extension& e : extensions) {
    if (e.type == type) return &e;
  }
  return nullptr;
}

const Bytes& ClientHello::body(uint16_t type) const {
  const Extension* e = find(type);
  if (e == nullptr) {
    throw ParseError("ClientHello has no extension " + std::to_string(type));
  }
  return e->body;
}

ClientHello parse_client_hello_body(const Bytes& body) {
  ClientHello ch;
  ch.body_length = body.size();
  Reader r(body);
  ch.legacy_version = r.u16();
  ch.random = r.bytes(32);
  ch.session_id = r.prefixed(1);
  Reader suites = r.prefixed_reader(2);
  if (suites.remaining() % 2 != 0) throw ParseError("odd cipher suite list");
  while (!suites.empty()) ch.cipher_suites.push_back(suites.u16());
  ch.compression_methods = r.prefixed(1);
  if (!r.empty()) {
    Reader exts = r.prefixed_reader(2);
    while (!exts.empty()) {
      Extension e;
      e.type = exts.u16();
      e.body = exts.prefixed(2);
      ch.extensions.push_back(std::move(e));
    }
  }
  r.expect_empty("ClientHello");
  return ch;
}

std::vector<ClientHello> parse_client_hellos(const Bytes& stream) {
  // A client's stream also carries encrypted handshake records (a TLS 1.2
  // Finished after ChangeCipherSpec), so records are not concatenated: each
  // ClientHello is one whole handshake record, as BoringSSL writes it (a
  // ClientHello is far below the 16K record limit).
  std::vector<ClientHello> out;
  for (const Record& rec : parse_records(stream)) {
    if (rec.type != 22 || rec.body.size() < 4 || rec.body[0] != 1) continue;
    Reader r(rec.body);
    r.u8();
    if (r.u24() != r.remaining()) continue;  // not a whole ClientHello
    out.push_back(parse_client_hello_body(r.bytes(r.remaining())));
  }
  return out;
}

ClientHello parse_first_client_hello(const Bytes& stream) {
  std::vector<ClientHello> all = parse_client_hellos(stream);
  if (all.empty()) throw ParseError("no ClientHello in the stream");
  return all.front();
}

std::vector<uint16_t> u16_list(const Bytes& body) {
  Reader r(body);
  Reader list = r.prefixed_reader(2);
  r.expect_empty("u16 list");
  if (list.remaining() % 2 != 0) throw ParseError("odd u16 list");
  std::vector<uint16_t> out;
  while (!list.empty()) out.push_back(list.u16());
  return out;
}

std::vector<uint16_t> u16_list_u8len(const Bytes& body) {
  Reader r(body);
  Reader list = r.prefixed_reader(1);
  r.expect_empty("u16 list");
  if (list.remaining() % 2 != 0) throw ParseError("odd u16 list");
  std::vector<uint16_t> out;
  while (!list.empty()) out.push_back(list.u16());
  return out;
}

std::vector<std::string> protocol_list(const Bytes& body) {
  Reader r(body);
  Reader list = r.prefixed_reader(2);
  r.expect_empty("protocol list");
  std::vector<std::string> out;
  while (!list.empty()) {
    Bytes p = list.prefixed(1);
    out.emplace_back(p.begin(), p.end());
  }
  return out;
}

std::vector<KeyShareEntry> key_shares(const Bytes& body) {
  Reader r(body);
  Reader list = r.prefixed_reader(2);
  r.expect_empty("key_share");
  std::vector<KeyShareEntry> out;
  while (!list.empty()) {
    KeyShareEntry e;
    e.group = list.u16();
    e.key_exchange = list.prefixed(2);
    out.push_back(std::move(e));
  }
  return out;
}

std::string server_name(const Bytes& body) {
  Reader r(body);
  Reader list = r.prefixed_reader(2);
  r.expect_empty("server_name");
  if (list.u8() != 0) throw ParseError("server_name: not a host_name");
  Bytes name = list.prefixed(2);
  list.expect_empty("server_name list");
  return std::string(name.begin(), name.end());
}

bool is_grease(uint16_t v) { return (v & 0x0f0f) == 0x0a0a && (v >> 8) == (v & 0xff); }

}  // namespace bssltest
