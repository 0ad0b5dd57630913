#include "conn/quic/quic_connection.h"

#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_boringssl.h>

#include <openssl/rand.h>

#include "conn/quic/ngtcp2_transport_params.h"
#include "wire/quic_transport_parameters.h"

namespace tlsc {

bool prepare_quic_context(SSL_CTX* ctx) { return ngtcp2_crypto_boringssl_configure_client_context(ctx) == 0; }

std::string ngtcp2_library_version() { return ngtcp2_version(0)->version_str; }

// ngtcp2's callbacks: C functions with the connection as user data. Each
// one answers ngtcp2 and never throws through it.
struct QuicCallbacks {
  static ngtcp2_conn* get_conn(ngtcp2_crypto_conn_ref* ref) {
    return static_cast<QuicConnection*>(ref->user_data)->conn_;
  }

  static void rand(uint8_t* dest, size_t len, const ngtcp2_rand_ctx*) { RAND_bytes(dest, len); }

  static int new_connection_id(ngtcp2_conn*, ngtcp2_cid* cid, ngtcp2_stateless_reset_token* token, size_t len,
                               void*) {
    cid->datalen = len;
    if (RAND_bytes(cid->data, len) != 1 || RAND_bytes(token->data, sizeof token->data) != 1)
      return NGTCP2_ERR_CALLBACK_FAILURE;
    return 0;
  }

  static QuicConnection* self(void* user_data) { return static_cast<QuicConnection*>(user_data); }

  static int handshake_completed(ngtcp2_conn*, void* user_data) {
    QuicConnection* c = self(user_data);
    // Certificate pins, checked where TCP checks them: after a handshake
    // that verified the certificate, before any request goes out.
    if (auto bad_pin = c->tls_->check_pins(c->ssl_.get(), c->options_.host)) {
      c->local_failure_ = QuicConnection::LocalFailure{std::move(*bad_pin), std::nullopt};
      return NGTCP2_ERR_CALLBACK_FAILURE;
    }
    c->handshake_completed_ = true;
    if (c->app_ != nullptr && !c->app_->on_handshake_completed()) return NGTCP2_ERR_CALLBACK_FAILURE;
    return 0;
  }

  static int recv_stream_data(ngtcp2_conn*, uint32_t flags, int64_t stream_id, uint64_t, const uint8_t* data,
                              size_t size, void* user_data, void*) {
    QuicConnection* c = self(user_data);
    size_t consumed = size;
    if (c->app_ != nullptr && !c->app_->on_stream_data(stream_id, data, size,
                                                       (flags & NGTCP2_STREAM_DATA_FLAG_FIN) != 0, &consumed))
      return NGTCP2_ERR_CALLBACK_FAILURE;
    ngtcp2_conn_extend_max_stream_offset(c->conn_, stream_id, consumed);
    ngtcp2_conn_extend_max_offset(c->conn_, consumed);
    return 0;
  }

  static int acked_stream_data_offset(ngtcp2_conn*, int64_t stream_id, uint64_t, uint64_t size,
                                      void* user_data, void*) {
    QuicConnection* c = self(user_data);
    return c->app_ != nullptr && !c->app_->on_stream_acked(stream_id, size) ? NGTCP2_ERR_CALLBACK_FAILURE : 0;
  }

  static int stream_close(ngtcp2_conn*, uint32_t flags, int64_t stream_id, uint64_t app_error_code,
                          void* user_data, void*) {
    QuicConnection* c = self(user_data);
    std::optional<uint64_t> code;
    if (flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET) code = app_error_code;
    return c->app_ != nullptr && !c->app_->on_stream_closed(stream_id, code) ? NGTCP2_ERR_CALLBACK_FAILURE
                                                                             : 0;
  }

  static int stream_reset(ngtcp2_conn*, int64_t stream_id, uint64_t, uint64_t app_error_code, void* user_data,
                          void*) {
    QuicConnection* c = self(user_data);
    return c->app_ != nullptr && !c->app_->on_stream_reset(stream_id, app_error_code)
               ? NGTCP2_ERR_CALLBACK_FAILURE
               : 0;
  }

  static int stream_stop_sending(ngtcp2_conn*, int64_t stream_id, uint64_t app_error_code, void* user_data,
                                 void*) {
    return stream_reset(nullptr, stream_id, 0, app_error_code, user_data, nullptr);
  }

  static int extend_max_stream_data(ngtcp2_conn*, int64_t stream_id, uint64_t, void* user_data, void*) {
    QuicConnection* c = self(user_data);
    return c->app_ != nullptr && !c->app_->on_stream_unblocked(stream_id) ? NGTCP2_ERR_CALLBACK_FAILURE : 0;
  }

  static int extend_max_local_streams_bidi(ngtcp2_conn*, uint64_t max_streams, void* user_data) {
    QuicConnection* c = self(user_data);
    if (c->app_ != nullptr) c->app_->on_bidi_streams_allowed(max_streams);
    return 0;
  }

  static ngtcp2_callbacks table() {
    ngtcp2_callbacks cb{};
    cb.client_initial = ngtcp2_crypto_client_initial_cb;
    cb.recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
    cb.encrypt = ngtcp2_crypto_encrypt_cb;
    cb.decrypt = ngtcp2_crypto_decrypt_cb;
    cb.hp_mask = ngtcp2_crypto_hp_mask_cb;
    cb.recv_retry = ngtcp2_crypto_recv_retry_cb;
    cb.update_key = ngtcp2_crypto_update_key_cb;
    cb.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
    cb.delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
    cb.get_path_challenge_data2 = ngtcp2_crypto_get_path_challenge_data2_cb;
    cb.version_negotiation = ngtcp2_crypto_version_negotiation_cb;
    cb.rand = rand;
    cb.get_new_connection_id2 = new_connection_id;
    cb.handshake_completed = handshake_completed;
    cb.recv_stream_data = recv_stream_data;
    cb.acked_stream_data_offset = acked_stream_data_offset;
    cb.stream_close = stream_close;
    cb.stream_reset = stream_reset;
    cb.stream_stop_sending = stream_stop_sending;
    cb.extend_max_stream_data = extend_max_stream_data;
    cb.extend_max_local_streams_bidi = extend_max_local_streams_bidi;
    return cb;
  }
};

namespace {

ngtcp2_cid random_cid(size_t length) {
  ngtcp2_cid cid{};
  cid.datalen = length;
  RAND_bytes(cid.data, length);
  return cid;
}

uint64_t random_u64() {
  uint64_t v = 0;
  RAND_bytes(reinterpret_cast<uint8_t*>(&v), sizeof v);
  return v;
}

ngtcp2_addr addr_of(NativeSocketAddress& a) {
  return {reinterpret_cast<ngtcp2_sockaddr*>(a.storage.data()), static_cast<ngtcp2_socklen>(a.size)};
}

}  // namespace

Result<std::unique_ptr<QuicConnection>> QuicConnection::connect(Reactor& reactor, TlsContext& tls,
                                                                QuicConnectOptions options,
                                                                HandshakeDone done, QuicApplication* app) {
  std::unique_ptr<QuicConnection> c(new QuicConnection(reactor, std::move(options), std::move(done)));
  c->app_ = app;
  if (auto e = c->start(tls)) return *e;
  return c;
}

QuicConnection::QuicConnection(Reactor& reactor, QuicConnectOptions options, HandshakeDone done)
    : reactor_(reactor),
      options_(std::move(options)),
      done_(std::move(done)),
      conn_ref_(std::make_unique<ngtcp2_crypto_conn_ref>()),
      out_(new uint8_t[kMaxDatagram]) {}

QuicConnection::~QuicConnection() {
  if (timer_ != 0) reactor_.cancel_timer(timer_);
  socket_.reset();
  // ngtcp2 points at the SSL and the SSL back at conn_ref_: the connection
  // goes first, then the SSL, then (as a member) conn_ref_.
  ngtcp2_conn_del(conn_);
  ssl_.reset();
}

uint64_t QuicConnection::now_ns() const {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(reactor_.now().time_since_epoch()).count());
}

std::optional<Error> QuicConnection::start(TlsContext& tls) {
  const QuicFingerprint& fp = options_.fingerprint;
  auto socket = UdpSocket::connect(reactor_, options_.peer, this);
  if (!socket) return socket.error();
  socket_ = std::move(*socket);
  local_native_ = to_native_address(socket_->local());
  peer_native_ = to_native_address(options_.peer);

  tls_ = &tls;
  auto ssl = tls.new_connection(options_.host, options_.port);
  if (!ssl) return ssl.error();
  ssl_ = std::move(*ssl);
  conn_ref_->get_conn = QuicCallbacks::get_conn;
  conn_ref_->user_data = this;
  SSL_set_app_data(ssl_.get(), conn_ref_.get());

  const ngtcp2_cid dcid = random_cid(fp.dcid_length), scid = random_cid(fp.scid_length);
  ngtcp2_path path{addr_of(local_native_), addr_of(peer_native_), nullptr};
  ngtcp2_settings settings;
  ngtcp2_settings_default(&settings);
  settings.initial_ts = now_ns();
  settings.handshake_timeout =
      static_cast<ngtcp2_duration>(options_.handshake_timeout.count()) * NGTCP2_MILLISECONDS;
  const size_t datagram_size = options_.peer.is_v4() ? fp.max_datagram_size.ipv4 : fp.max_datagram_size.ipv6;
  if (datagram_size != 0) {
    // The browser's datagram size throughout: Initial datagrams padded to
    // it (ngtcp2 pads to max_tx_udp_payload_size when not shaping), none
    // larger, no path MTU probes (the browsers send none in a handshake).
    settings.max_tx_udp_payload_size = datagram_size;
    settings.no_tx_udp_payload_size_shaping = 1;
    settings.no_pmtud = 1;
  }
  ngtcp2_transport_params params;
  ngtcp2_transport_params_default(&params);
  apply_transport_parameters(fp.transport_parameters, &params);
  const ngtcp2_callbacks callbacks = QuicCallbacks::table();
  int rv = ngtcp2_conn_client_new(&conn_, &dcid, &scid, &path, fp.version, &callbacks, &settings, &params,
                                  nullptr, this);
  if (rv != 0) return make_error(ErrorCode::internal, std::string("quic: ") + ngtcp2_strerror(rv));
  ngtcp2_conn_set_tls_native_handle(conn_, ssl_.get());
  // The browser's parameters, as bytes: ngtcp2 would write its own set in
  // its own order (packaging/ngtcp2/patches/0001).
  const std::string raw = encode_quic_transport_parameters(
      fp.transport_parameters, std::string(reinterpret_cast<const char*>(scid.data), scid.datalen),
      [] { return random_u64(); });
  rv = ngtcp2_conn_set_local_transport_params_raw(conn_, reinterpret_cast<const uint8_t*>(raw.data()),
                                                  raw.size());
  if (rv != 0) return make_error(ErrorCode::internal, std::string("quic: ") + ngtcp2_strerror(rv));
  // A failure of the first flight is connect()'s answer, not done's.
  HandshakeDone done = std::move(done_);
  std::optional<Error> first_flight_error;
  done_ = [&first_flight_error](std::optional<Error> e) { first_flight_error = std::move(e); };
  write();
  done_ = std::move(done);
  if (closed_) {
    return first_flight_error.value_or(make_error(ErrorCode::internal, "quic: the first flight failed"));
  }
  return std::nullopt;
}

std::string QuicConnection::alpn() const {
  const uint8_t* p = nullptr;
  unsigned len = 0;
  SSL_get0_alpn_selected(ssl_.get(), &p, &len);
  return std::string(reinterpret_cast<const char*>(p), len);
}

void QuicConnection::write() {
  if (closed_ || socket_->has_kept()) return;
  const uint64_t now = now_ns();
  QuicBytes pieces[kOutgoingPieces];
  ngtcp2_vec vecs[kOutgoingPieces];
  int datagrams = 0;
  // Each turn either sends a datagram or settles one stream's state with
  // the application (blocked, shut, more to pack): bounded all the same.
  for (int turns = 0; datagrams < kDatagramsPerWrite && turns < kDatagramsPerWrite * 8; ++turns) {
    QuicOutgoing outgoing;
    if (app_ != nullptr && handshake_completed_ && ngtcp2_conn_get_max_data_left(conn_) > 0) {
      auto next = app_->next_outgoing(pieces, kOutgoingPieces);
      if (!next) return fail(next.error());
      outgoing = *next;
    }
    for (size_t i = 0; i < outgoing.count; ++i)
      vecs[i] = {const_cast<uint8_t*>(pieces[i].data), pieces[i].size};
    uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_MORE;
    if (outgoing.fin) flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
    ngtcp2_path_storage ps;
    ngtcp2_path_storage_zero(&ps);
    ngtcp2_pkt_info pi{};
    ngtcp2_ssize written = -1;
    const ngtcp2_ssize n = ngtcp2_conn_writev_stream(conn_, &ps.path, &pi, out_.get(), kMaxDatagram, &written,
                                                     flags, outgoing.stream_id, vecs, outgoing.count, now);
    if (n == NGTCP2_ERR_STREAM_DATA_BLOCKED) {
      app_->on_outgoing_blocked(outgoing.stream_id);
      continue;
    }
    if (n == NGTCP2_ERR_STREAM_SHUT_WR) {
      app_->on_outgoing_shut(outgoing.stream_id);
      continue;
    }
    if (outgoing.stream_id >= 0 && written >= 0) {
      size_t offered = 0;
      for (size_t i = 0; i < outgoing.count; ++i) offered += pieces[i].size;
      const bool fin_written = outgoing.fin && static_cast<size_t>(written) == offered;
      if (!app_->on_outgoing_written(outgoing.stream_id, static_cast<size_t>(written), fin_written))
        return fail_ngtcp2(NGTCP2_ERR_CALLBACK_FAILURE);
    }
    if (n == NGTCP2_ERR_WRITE_MORE) continue;  // the packet has room for more
    if (n < 0) return fail_ngtcp2(static_cast<int>(n));
    if (n == 0) break;
    Error error;
    const UdpSocket::Sent sent = socket_->send(out_.get(), static_cast<size_t>(n), &error);
    if (sent == UdpSocket::Sent::failed) return fail(std::move(error));
    ++datagrams;
    if (sent == UdpSocket::Sent::kept) break;  // on_writable goes on
  }
  ngtcp2_conn_update_pkt_tx_time(conn_, now);
  // Stopped by the bound with more to send: the rest after this turn.
  if (datagrams == kDatagramsPerWrite) schedule_write();
  schedule_timer();
}

void QuicConnection::schedule_write() {
  if (write_scheduled_ || closed_) return;
  write_scheduled_ = true;
  reactor_.post([this, alive = liveness_.watch()] {
    if (!alive) return;
    write_scheduled_ = false;
    write();
  });
}

Result<int64_t> QuicConnection::open_bidi_stream() {
  int64_t id = -1;
  const int rv = closed_ ? NGTCP2_ERR_CLOSING : ngtcp2_conn_open_bidi_stream(conn_, &id, nullptr);
  if (rv != 0) return make_error(ErrorCode::connection_closed, std::string("quic: ") + ngtcp2_strerror(rv));
  return id;
}

Result<int64_t> QuicConnection::open_uni_stream() {
  int64_t id = -1;
  const int rv = closed_ ? NGTCP2_ERR_CLOSING : ngtcp2_conn_open_uni_stream(conn_, &id, nullptr);
  if (rv != 0) return make_error(ErrorCode::connection_closed, std::string("quic: ") + ngtcp2_strerror(rv));
  return id;
}

uint64_t QuicConnection::bidi_streams_left() const {
  return closed_ ? 0 : ngtcp2_conn_get_streams_bidi_left(conn_);
}

void QuicConnection::consume(int64_t stream_id, size_t size) {
  if (closed_ || size == 0) return;
  ngtcp2_conn_extend_max_stream_offset(conn_, stream_id, size);
  ngtcp2_conn_extend_max_offset(conn_, size);
  schedule_write();
}

void QuicConnection::reset_stream(int64_t stream_id, uint64_t app_error_code) {
  if (closed_) return;
  ngtcp2_conn_shutdown_stream(conn_, 0, stream_id, app_error_code);
  schedule_write();
}

void QuicConnection::stop_reading(int64_t stream_id, uint64_t app_error_code) {
  if (closed_) return;
  ngtcp2_conn_shutdown_stream_read(conn_, 0, stream_id, app_error_code);
  schedule_write();
}

void QuicConnection::fail_application(Error error, uint64_t app_error_code) {
  if (!local_failure_) local_failure_ = LocalFailure{std::move(error), app_error_code};
}

void QuicConnection::schedule_timer() {
  if (timer_ != 0) reactor_.cancel_timer(timer_);
  timer_ = 0;
  if (closed_) return;
  const uint64_t expiry = ngtcp2_conn_get_expiry(conn_);
  if (expiry == UINT64_MAX) return;
  const uint64_t now = now_ns();
  // Whole milliseconds, rounded up: a timer that fires early would only
  // come back.
  const uint64_t delay_ms = expiry <= now ? 0 : (expiry - now + 999'999) / 1'000'000;
  timer_ = reactor_.add_timer(std::chrono::milliseconds(delay_ms), [this, alive = liveness_.watch()] {
    if (!alive) return;
    timer_ = 0;
    on_timer();
  });
}

void QuicConnection::on_timer() {
  if (closed_) return;
  const int rv = ngtcp2_conn_handle_expiry(conn_, now_ns());
  if (rv != 0) return fail_ngtcp2(rv);
  write();
}

void QuicConnection::on_datagram(const uint8_t* data, size_t size) {
  if (closed_) return;
  ngtcp2_path path{addr_of(local_native_), addr_of(peer_native_), nullptr};
  ngtcp2_pkt_info pi{};
  const int rv = ngtcp2_conn_read_pkt(conn_, &path, &pi, data, size, now_ns());
  if (rv != 0) fail_ngtcp2(rv);
}

void QuicConnection::on_datagrams_done() {
  const Liveness::Watch alive = liveness_.watch();
  if (handshake_completed_) report_handshake();
  if (!alive || closed_) return;
  write();
}

void QuicConnection::on_writable() { write(); }

void QuicConnection::on_socket_error(Error error) { fail(std::move(error)); }

void QuicConnection::report_handshake() {
  if (handshake_reported_) return;
  handshake_reported_ = true;
  HandshakeDone done = std::move(done_);
  if (done) done(std::nullopt);
}

void QuicConnection::fail_ngtcp2(int rv) {
  if (rv == NGTCP2_ERR_CALLBACK_FAILURE && local_failure_) {
    // We refused what the peer sent: the application's code to the peer,
    // or NO_ERROR for our own refusal (a pin mismatch).
    LocalFailure failure = std::move(*local_failure_);
    local_failure_.reset();
    ngtcp2_ccerr ccerr;
    ngtcp2_ccerr_default(&ccerr);
    if (failure.app_error_code)
      ngtcp2_ccerr_set_application_error(&ccerr, *failure.app_error_code, nullptr, 0);
    send_connection_close(ccerr);
    return fail(std::move(failure.error));
  }
  if (rv == NGTCP2_ERR_CRYPTO) {
    // TLS refused: verification, a bad server message, an alert. The same
    // words as over TCP, and the alert to the server in CONNECTION_CLOSE.
    Error e = tls_handshake_error(ssl_.get(), SSL_ERROR_SSL, options_.host, nullptr);
    ngtcp2_ccerr ccerr;
    ngtcp2_ccerr_default(&ccerr);
    ngtcp2_ccerr_set_tls_alert(&ccerr, ngtcp2_conn_get_tls_alert(conn_), nullptr, 0);
    send_connection_close(ccerr);
    return fail(std::move(e));
  }
  switch (rv) {
    case NGTCP2_ERR_HANDSHAKE_TIMEOUT:
      return fail(make_error(ErrorCode::timeout, "timeout: handshake did not complete in time"));
    case NGTCP2_ERR_IDLE_CLOSE:
      return fail(make_error(ErrorCode::connection_closed, "timeout: no recent network activity"));
    case NGTCP2_ERR_DRAINING:
    case NGTCP2_ERR_CLOSING:
      return fail(make_error(ErrorCode::connection_closed, "quic: the server closed the connection"));
    case NGTCP2_ERR_NOMEM:
      return fail(no_memory_error());
    default:
      return fail(make_error(ErrorCode::connection_closed, std::string("quic: ") + ngtcp2_strerror(rv)));
  }
}

void QuicConnection::send_connection_close(const ngtcp2_ccerr& ccerr) {
  if (closed_ || !socket_ || socket_->has_kept()) return;
  ngtcp2_path_storage ps;
  ngtcp2_path_storage_zero(&ps);
  const ngtcp2_ssize n = ngtcp2_conn_write_connection_close(conn_, &ps.path, nullptr, out_.get(),
                                                            kMaxDatagram, &ccerr, now_ns());
  Error ignored;
  if (n > 0) socket_->send(out_.get(), static_cast<size_t>(n), &ignored);
}

void QuicConnection::fail(Error error) {
  if (closed_) return;
  closed_ = true;
  if (timer_ != 0) reactor_.cancel_timer(timer_);
  timer_ = 0;
  // Its call may be on the stack (a datagram read): closed now, freed when
  // the turn ends.
  socket_->close();
  reactor_.destroy_later(std::move(socket_));
  if (handshake_reported_) {
    if (app_ != nullptr) app_->on_connection_closed(error);
    return;
  }
  handshake_reported_ = true;
  HandshakeDone done = std::move(done_);
  if (done) done(std::move(error));
}

void QuicConnection::close(std::optional<uint64_t> app_error_code) {
  if (closed_) return;
  ngtcp2_ccerr ccerr;
  ngtcp2_ccerr_default(&ccerr);
  if (app_error_code) ngtcp2_ccerr_set_application_error(&ccerr, *app_error_code, nullptr, 0);
  send_connection_close(ccerr);
  fail(make_error(ErrorCode::cancelled, "quic: connection closed"));
}

}  // namespace tlsc
