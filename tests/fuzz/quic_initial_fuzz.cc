// The capture servers' readers of client bytes: tests/servers/quic_initial.h
// with client datagrams (mostly the long header and its lengths: a random
// payload does not open under the Initial keys) and decrypted payloads
// straight into the frame reader, then the ClientHello and transport
// parameters they make up; tests/servers/h3_frames.h with a stream's bytes
// in pieces. First byte: 0 = datagrams, 1 = HTTP/3 unidirectional stream,
// 2 = HTTP/3 request stream, else = Initial plaintext frames; the rest is
// split into pieces at each "QUIC" marker.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "../servers/h3_frames.h"
#include "../servers/hello_fingerprint.h"
#include "../servers/quic_initial.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const bool datagrams = data[0] == 0;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] == 1 || data[0] == 2) {
    h3_frames::StreamReader stream(data[0] == 1);
    for (int pieces = 0; pieces < 64 && !rest.empty(); ++pieces) {
      const size_t cut = rest.find("QUIC");
      const std::string_view piece = rest.substr(0, cut);
      rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 4);
      stream.feed(reinterpret_cast<const uint8_t*>(piece.data()), piece.size());
    }
    for (const auto& f : stream.frames()) {
      h3_frames::settings(f.payload);
      h3_frames::priority_update(f.payload);
    }
    return 0;
  }
  quic_initial::ClientInitialReader reader;
  for (int pieces = 0; pieces < 64 && !rest.empty(); ++pieces) {
    const size_t cut = rest.find("QUIC");
    const std::string_view piece = rest.substr(0, cut);
    rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 4);
    const auto* p = reinterpret_cast<const uint8_t*>(piece.data());
    if (datagrams) {
      reader.read(p, piece.size());
    } else {
      quic_initial::Packet packet;
      std::string error;
      reader.read_frames(quic_initial::Bytes(p, p + piece.size()), &packet, &error);
    }
  }
  if (auto hello = reader.client_hello()) {
    hello_fp::HelloFields fields;
    if (hello_fp::parse_client_hello(hello->data(), hello->size(), &fields)) {
      hello_fp::of(fields, 'q');
      CBS exts, body;
      CBS_init(&exts, fields.extensions, fields.extensions_len);
      uint16_t type;
      while (CBS_get_u16(&exts, &type) && CBS_get_u16_length_prefixed(&exts, &body))
        if (auto tps = quic_initial::transport_parameters(CBS_data(&body), CBS_len(&body)))
          for (const auto& tp : *tps) quic_initial::varint_value(tp.value);
    }
  }
  return 0;
}
