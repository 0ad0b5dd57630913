// ngtcp2 (packaging/ngtcp2: Debian's source, its BoringSSL crypto backend)
// on our patched BoringSSL: a client and a server connection complete a
// QUIC v1 handshake in memory, packet by packet, with the test PKI's
// certificate verified. The client's first datagram is a padded Initial with
// an 8-byte destination and an empty source connection ID (Chrome's
// lengths), and the ClientHello the server reads from it carries the name,
// "h3" and the QUIC transport parameters. The capture server's reader
// (tests/servers/quic_initial.h) decrypts that same datagram without the
// handshake and finds the same ClientHello. The first step of HTTP/3.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_boringssl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <optional>

#include <catch2/catch.hpp>
#include <openssl/rand.h>
#include <openssl/ssl.h>

#include "boringssl/support/client_hello_parser.h"
#include "boringssl/support/tls_harness.h"
#include "quic/ngtcp2_endpoint.h"
#include "servers/hello_fingerprint.h"
#include "servers/quic_initial.h"

using bssltest::Bytes;
using namespace quictest;

TEST_CASE("ngtcp2 on our BoringSSL: a QUIC v1 handshake in memory, the client's Initial as Chrome sizes it",
          "[quic]") {
  sockaddr_in client_addr{}, server_addr{};
  client_addr.sin_family = server_addr.sin_family = AF_INET;
  client_addr.sin_port = htons(50000);
  server_addr.sin_port = htons(443);
  client_addr.sin_addr.s_addr = server_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ngtcp2_path client_path{{reinterpret_cast<sockaddr*>(&client_addr), sizeof client_addr},
                          {reinterpret_cast<sockaddr*>(&server_addr), sizeof server_addr},
                          nullptr};
  ngtcp2_path server_path{client_path.remote, client_path.local, nullptr};

  // The client: Chrome's connection-ID lengths and window sizes.
  bssl::UniquePtr<SSL_CTX> client_ctx = bssltest::make_client_ctx();
  REQUIRE(ngtcp2_crypto_boringssl_configure_client_context(client_ctx.get()) == 0);
  Endpoint client;
  client.ref = {conn_of, &client};
  client.ssl.reset(SSL_new(client_ctx.get()));
  SSL_set_app_data(client.ssl.get(), &client.ref);
  SSL_set_connect_state(client.ssl.get());
  SSL_set_tlsext_host_name(client.ssl.get(), bssltest::kTestHost);
  REQUIRE(SSL_set1_host(client.ssl.get(), bssltest::kTestHost) == 1);
  static const uint8_t kAlpn[] = {2, 'h', '3'};
  REQUIRE(SSL_set_alpn_protos(client.ssl.get(), kAlpn, sizeof kAlpn) == 0);

  const ngtcp2_cid dcid = random_cid(8), scid = random_cid(0);
  ngtcp2_settings settings;
  ngtcp2_settings_default(&settings);
  settings.initial_ts = now_ns();
  ngtcp2_transport_params params;
  ngtcp2_transport_params_default(&params);
  params.initial_max_data = 15728640;
  params.initial_max_stream_data_bidi_local = 6291456;
  params.initial_max_stream_data_bidi_remote = 6291456;
  params.initial_max_stream_data_uni = 6291456;
  params.initial_max_streams_bidi = 100;
  params.initial_max_streams_uni = 103;
  params.max_udp_payload_size = 1472;
  ngtcp2_callbacks ccb = callbacks(true);
  REQUIRE(ngtcp2_conn_client_new(&client.conn, &dcid, &scid, &client_path, NGTCP2_PROTO_VER_V1, &ccb,
                                 &settings, &params, nullptr, &client) == 0);
  ngtcp2_conn_set_tls_native_handle(client.conn, client.ssl.get());

  std::array<uint8_t, 1500> buf{};
  ngtcp2_ssize n = ngtcp2_conn_write_pkt(client.conn, nullptr, nullptr, buf.data(), buf.size(), now_ns());
  REQUIRE(n >= 1200);  // a client's Initial datagram is padded to at least 1200 bytes (RFC 9000 14.1)
  ngtcp2_pkt_hd hd{};
  REQUIRE(ngtcp2_accept(&hd, buf.data(), static_cast<size_t>(n)) == 0);
  CHECK(hd.type == NGTCP2_PKT_INITIAL);
  CHECK(hd.version == NGTCP2_PROTO_VER_V1);
  CHECK(hd.dcid.datalen == 8);
  CHECK(hd.scid.datalen == 0);
  const Bytes first_datagram(buf.begin(), buf.begin() + n);

  // The server, from that Initial.
  bssl::UniquePtr<SSL_CTX> server_ctx = bssltest::make_server_ctx();
  REQUIRE(ngtcp2_crypto_boringssl_configure_server_context(server_ctx.get()) == 0);
  SSL_CTX_set_alpn_select_cb(server_ctx.get(), select_h3, nullptr);
  Endpoint server;
  server.ref = {conn_of, &server};
  server.ssl.reset(SSL_new(server_ctx.get()));
  SSL_set_app_data(server.ssl.get(), &server.ref);
  SSL_set_accept_state(server.ssl.get());
  ngtcp2_settings ssettings;
  ngtcp2_settings_default(&ssettings);
  ssettings.initial_ts = now_ns();
  ngtcp2_transport_params sparams;
  ngtcp2_transport_params_default(&sparams);
  sparams.original_dcid = hd.dcid;
  sparams.original_dcid_present = 1;
  sparams.initial_max_data = 1 << 20;
  sparams.initial_max_streams_bidi = 10;
  const ngtcp2_cid server_scid = random_cid(8);
  ngtcp2_callbacks scb = callbacks(false);
  REQUIRE(ngtcp2_conn_server_new(&server.conn, &hd.scid, &server_scid, &server_path, hd.version, &scb,
                                 &ssettings, &sparams, nullptr, &server) == 0);
  ngtcp2_conn_set_tls_native_handle(server.conn, server.ssl.get());

  // Datagrams both ways until both ends have completed the handshake.
  ngtcp2_pkt_info pi{};
  REQUIRE(ngtcp2_conn_read_pkt(server.conn, &server_path, &pi, buf.data(), static_cast<size_t>(n),
                               now_ns()) == 0);
  for (int round = 0; round < 20; ++round) {
    if (ngtcp2_conn_get_handshake_completed2(client.conn) &&
        ngtcp2_conn_get_handshake_completed2(server.conn)) {
      break;
    }
    for (Endpoint* from : {&server, &client}) {
      Endpoint* to = from == &server ? &client : &server;
      ngtcp2_path* to_path = to == &server ? &server_path : &client_path;
      for (int i = 0; i < 20; ++i) {
        ngtcp2_ssize w =
            ngtcp2_conn_write_pkt(from->conn, nullptr, nullptr, buf.data(), buf.size(), now_ns());
        REQUIRE(w >= 0);
        if (w == 0) break;
        REQUIRE(ngtcp2_conn_read_pkt(to->conn, to_path, &pi, buf.data(), static_cast<size_t>(w), now_ns()) ==
                0);
      }
    }
  }
  CHECK(ngtcp2_conn_get_handshake_completed2(client.conn));
  CHECK(ngtcp2_conn_get_handshake_completed2(server.conn));
  CHECK(SSL_get_verify_result(client.ssl.get()) == X509_V_OK);
  const uint8_t* proto = nullptr;
  unsigned proto_len = 0;
  SSL_get0_alpn_selected(client.ssl.get(), &proto, &proto_len);
  CHECK(std::string(reinterpret_cast<const char*>(proto), proto_len) == "h3");

  // What the server read of the client: its ClientHello and its transport
  // parameters, as the client set them.
  REQUIRE(server.initial_crypto.size() > 4);
  REQUIRE(server.initial_crypto[0] == 1);  // ClientHello
  const auto hello = bssltest::parse_client_hello_body(
      Bytes(server.initial_crypto.begin() + 4, server.initial_crypto.end()));
  CHECK(bssltest::server_name(hello.body(0)) == bssltest::kTestHost);
  CHECK(bssltest::protocol_list(hello.body(16)) == std::vector<std::string>{"h3"});
  CHECK(hello.find(57) != nullptr);  // quic_transport_parameters
  const ngtcp2_transport_params* seen = ngtcp2_conn_get_remote_transport_params2(server.conn);
  REQUIRE(seen != nullptr);
  CHECK(seen->initial_max_data == 15728640);
  CHECK(seen->initial_max_streams_uni == 103);
  CHECK(seen->max_udp_payload_size == 1472);

  // The capture server's reader, from the first datagram alone: the same
  // ClientHello the server's TLS read, and the parameters in it.
  quic_initial::ClientInitialReader reader;
  const quic_initial::Datagram d = reader.read(first_datagram.data(), first_datagram.size());
  CHECK(d.error.empty());
  REQUIRE(d.packets.size() >= 1);
  CHECK(d.packets[0].type == 0);
  CHECK(d.packets[0].dcid.size() == 8);
  CHECK(d.packets[0].scid.empty());
  const auto crypto = std::count_if(d.packets[0].frames.begin(), d.packets[0].frames.end(),
                                    [](const quic_initial::Frame& f) { return f.type == 0x06; });
  CHECK(crypto >= 1);
  const auto read_hello = reader.client_hello();
  REQUIRE(read_hello.has_value());
  CHECK(*read_hello ==
        Bytes(server.initial_crypto.begin(), server.initial_crypto.begin() + read_hello->size()));
  const Bytes& ext57 = hello.body(57);
  const auto tps = quic_initial::transport_parameters(ext57.data(), ext57.size());
  REQUIRE(tps.has_value());
  auto value_of = [&](uint64_t id) -> std::optional<uint64_t> {
    for (const auto& tp : *tps)
      if (tp.id == id) return quic_initial::varint_value(tp.value);
    return std::nullopt;
  };
  CHECK(value_of(0x04) == 15728640u);  // initial_max_data
  CHECK(value_of(0x03) == 1472u);      // max_udp_payload_size
  CHECK(value_of(0x09) == 103u);       // initial_max_streams_uni
  hello_fp::HelloFields fields;
  REQUIRE(hello_fp::parse_client_hello(read_hello->data(), read_hello->size(), &fields));
  CHECK(hello_fp::of(fields, 'q').ja4.substr(0, 4) == "q13d");

  // One flipped byte in the protected payload: the packet does not open.
  Bytes damaged = first_datagram;
  damaged[damaged.size() / 2] ^= 0x01;
  quic_initial::ClientInitialReader damaged_reader;
  CHECK(damaged_reader.read(damaged.data(), damaged.size()).error == "Initial packet does not decrypt");
  CHECK_FALSE(damaged_reader.client_hello().has_value());
}

TEST_CASE("quic_initial: the client's Initial keys for version 1 are RFC 9001's (Appendix A.1)", "[quic]") {
  const quic_initial::Bytes dcid = {0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08};
  quic_initial::InitialKeys keys{};
  REQUIRE(quic_initial::client_initial_keys(dcid, &keys));
  auto hex = [](const uint8_t* p, size_t n) {
    std::string s;
    char b[3];
    for (size_t i = 0; i < n; ++i) {
      std::snprintf(b, sizeof b, "%02x", p[i]);
      s += b;
    }
    return s;
  };
  CHECK(hex(keys.key, sizeof keys.key) == "1f369613dd76d5467730efcbe3b1a22d");
  CHECK(hex(keys.iv, sizeof keys.iv) == "fa044b2f42a3fd3b46fb255c");
  CHECK(hex(keys.hp, sizeof keys.hp) == "9f50449e04a0e810283a1e9933adedd2");
}

TEST_CASE("quic_initial: malformed datagrams are errors, not reads past the end", "[quic]") {
  quic_initial::ClientInitialReader reader;
  const Bytes short_header = {0x40, 1, 2, 3};
  CHECK(reader.read(short_header.data(), short_header.size()).error == "short header packet");
  const Bytes truncated = {0xc0, 0, 0, 0, 1, 8, 1, 2};
  CHECK(reader.read(truncated.data(), truncated.size()).error == "truncated long header");
  const Bytes version_negotiation = {0x80, 0, 0, 0, 0, 0, 0, 0xaa, 0xaa, 0xaa, 0xaa};
  CHECK(reader.read(version_negotiation.data(), version_negotiation.size()).error ==
        "version negotiation packet");
  // An Initial whose length runs past the datagram.
  const Bytes long_length = {0xc0, 0, 0, 0, 1, 0, 0, 0, 0x44, 0x00, 1, 2, 3};
  CHECK(reader.read(long_length.data(), long_length.size()).error == "length past the datagram");
  CHECK_FALSE(reader.client_hello().has_value());
}
