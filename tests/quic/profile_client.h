// An ngtcp2 client that opens a connection as a profile's http3.quic block
// says: its connection-ID lengths, its transport parameters (the bytes
// wire/quic_transport_parameters.h writes, handed to TLS through our ngtcp2
// patch 0001) and, where the block has one, its QUIC ClientHello
// (http3.quic.tls through tls/spec_apply, as the TCP hello). Then what the
// capture server's reader (tests/servers/quic_initial.h) makes of the
// client's first datagrams.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <openssl/err.h>

#include "boringssl/support/tls_harness.h"
#include "conn/quic/ngtcp2_transport_params.h"
#include "profiles/profile.h"
#include "quic/ngtcp2_endpoint.h"
#include "servers/quic_initial.h"
#include "tls/spec_apply.h"
#include "tls/tls_context.h"
#include "wire/quic_transport_parameters.h"

namespace quictest {

// A path between two loopback ports, for connections that never touch a
// socket.
struct LoopbackPath {
  sockaddr_in local{}, remote{};
  ngtcp2_path path{};
  LoopbackPath() {
    local.sin_family = remote.sin_family = AF_INET;
    local.sin_port = htons(50001);
    remote.sin_port = htons(443);
    local.sin_addr.s_addr = remote.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    path = {{reinterpret_cast<sockaddr*>(&local), sizeof local},
            {reinterpret_cast<sockaddr*>(&remote), sizeof remote},
            nullptr};
  }
};

// A client SSL_CTX set up as the library sets up its own
// (tls/tls_context.h) plus ngtcp2's QUIC method, trusting the test PKI.
inline bssl::UniquePtr<SSL_CTX> profile_client_ctx() {
  bssl::UniquePtr<SSL_CTX> ctx = bssltest::make_client_ctx();
  REQUIRE(tlsc::configure_client_context(ctx.get()));
  REQUIRE(ngtcp2_crypto_boringssl_configure_client_context(ctx.get()) == 0);
  return ctx;
}

// Makes |client| a connection of |profile| (which has an http3.quic block)
// to |host|. |ctx| is configured for ngtcp2's client.
inline void start_profile_client(Endpoint& client, SSL_CTX* ctx, const tlsc::Profile& profile,
                                 const ngtcp2_path& path, const tlsc::RandomDraw& draw,
                                 const char* host = bssltest::kTestHost) {
  REQUIRE(profile.quic.has_value());
  const tlsc::QuicFingerprint& quic = *profile.quic;
  client.ref = {conn_of, &client};
  client.ssl.reset(SSL_new(ctx));
  SSL_set_app_data(client.ssl.get(), &client.ref);
  SSL_set_connect_state(client.ssl.get());
  SSL_set_tlsext_host_name(client.ssl.get(), host);
  if (profile.quic_tls) {
    const auto error = tlsc::apply_client_hello_spec(client.ssl.get(), *profile.quic_tls);
    INFO((error ? error->message : std::string()));
    REQUIRE_FALSE(error.has_value());
  } else {
    static const uint8_t kAlpn[] = {2, 'h', '3'};
    REQUIRE(SSL_set_alpn_protos(client.ssl.get(), kAlpn, sizeof kAlpn) == 0);
  }
  const ngtcp2_cid dcid = random_cid(quic.dcid_length), scid = random_cid(quic.scid_length);
  const std::string transport_parameters = tlsc::encode_quic_transport_parameters(
      quic.transport_parameters, std::string(reinterpret_cast<const char*>(scid.data), scid.datalen), draw);
  ngtcp2_settings settings;
  ngtcp2_settings_default(&settings);
  settings.initial_ts = now_ns();
  ngtcp2_transport_params params;
  ngtcp2_transport_params_default(&params);
  tlsc::apply_transport_parameters(quic.transport_parameters, &params);
  ngtcp2_callbacks cb = callbacks(true);
  REQUIRE(ngtcp2_conn_client_new(&client.conn, &dcid, &scid, &path, quic.version, &cb, &settings, &params,
                                 nullptr, &client) == 0);
  ngtcp2_conn_set_tls_native_handle(client.conn, client.ssl.get());
  REQUIRE(ngtcp2_conn_set_local_transport_params_raw(
              client.conn, reinterpret_cast<const uint8_t*>(transport_parameters.data()),
              transport_parameters.size()) == 0);
}

// The client's first flight as the capture server reads it: its datagrams
// until the ClientHello is whole (at most four), and the ClientHello.
struct FirstFlight {
  std::vector<quic_initial::Datagram> datagrams;
  Bytes client_hello;  // the handshake message: type, 24-bit length, body
};

inline FirstFlight read_first_flight(Endpoint& client) {
  FirstFlight flight;
  quic_initial::ClientInitialReader reader;
  std::array<uint8_t, 1500> buf{};
  for (int datagrams = 0; datagrams < 4 && !reader.client_hello(); ++datagrams) {
    const ngtcp2_ssize n =
        ngtcp2_conn_write_pkt(client.conn, nullptr, nullptr, buf.data(), buf.size(), now_ns());
    if (n <= 0) {
      // Why TLS refused (our BoringSSL patches name the field).
      std::string why;
      ERR_print_errors_cb(
          [](const char* line, size_t len, void* out) {
            static_cast<std::string*>(out)->append(line, len);
            return 1;
          },
          &why);
      INFO("ngtcp2_conn_write_pkt: " << n << "; BoringSSL: " << why);
      REQUIRE(n > 0);
    }
    flight.datagrams.push_back(reader.read(buf.data(), static_cast<size_t>(n)));
    CHECK(flight.datagrams.back().error.empty());
    REQUIRE_FALSE(flight.datagrams.back().packets.empty());
  }
  const auto hello = reader.client_hello();
  REQUIRE(hello.has_value());
  flight.client_hello = *hello;
  return flight;
}

}  // namespace quictest
