// An HTTP/3 capture server: what a fingerprinting server sees of an HTTP/3
// client. QUIC through ngtcp2 on our patched BoringSSL (its BoringSSL crypto
// backend), HTTP/3 through nghttp3's server connection. Besides what nghttp3
// decodes (each request's header fields in wire order), the server reads
// the client's streams itself (tests/servers/h3_frames.h): the
// unidirectional streams' types in the order they opened, every frame on
// the control stream (SETTINGS identifiers and values in order, GREASE
// settings and frames, PRIORITY_UPDATE) and the frame types of each request
// stream. Each response's body is the capture of its connection so far, with
// the QUIC ClientHello's JA4 ("q") and the transport parameters the client
// sent; each request also appends that capture to --log as one JSON line.
// A request stream's capture says whether the client reset it ("reset").
// Two paths act instead of answering: /hold... is never answered, and
// /close... ends the connection (CONNECTION_CLOSE, H3_NO_ERROR), /reset...
// drops it and answers the client's next packet with a Stateless Reset.
//   h3_capture_server CERT KEY [--log FILE] [--only-version V]
// With --only-version, an Initial of another version gets a Version
// Negotiation packet naming V instead (a server without QUIC v1).
// Listens on UDP 127.0.0.1 and ::1 (one port); prints {"port":N}; stops when
// stdin closes. One thread; every connection ends at its idle timeout.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_boringssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>

#include "h3_frames.h"
#include "hello_fingerprint.h"
#include "quic_initial.h"

using json = nlohmann::json;

namespace {

std::string g_log_path;
// --only-version V: the one QUIC version the server speaks; a client's
// Initial of another version is answered with Version Negotiation naming
// V. 0: every version ngtcp2 speaks.
uint32_t g_only_version = 0;

ngtcp2_tstamp now_ns() {
  return static_cast<ngtcp2_tstamp>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

std::string hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(d[p[i] >> 4]);
    out.push_back(d[p[i] & 15]);
  }
  return out;
}

struct Socket {
  int fd = -1;
  sockaddr_storage local{};
  socklen_t local_len = 0;
};

struct RequestStream {
  int64_t id = 0;
  json headers = json::array();
  std::string body;  // the response, kept until acknowledged
  bool responded = false;
  bool reset_by_client = false;  // RESET_STREAM or STOP_SENDING came for it
};

struct Connection {
  std::string peer;
  const Socket* socket = nullptr;
  sockaddr_storage remote{};
  socklen_t remote_len = 0;
  ngtcp2_conn* conn = nullptr;
  nghttp3_conn* h3 = nullptr;
  bssl::UniquePtr<SSL> ssl;
  ngtcp2_crypto_conn_ref ref{};
  ngtcp2_ccerr last_error{};
  json tls = json::object();
  std::map<int64_t, h3_frames::StreamReader> client_streams;  // every stream the client opened
  std::vector<int64_t> uni_order;  // the client's unidirectional streams, as opened
  std::map<int64_t, std::unique_ptr<RequestStream>> requests;
  bool close_now = false;  // a request asked for /close: CONNECTION_CLOSE after this round
  bool reset_now = false;  // a request asked for /reset: forget the connection at once
  ngtcp2_stateless_reset_token reset_token{};  // the one in our transport parameters
  bool closed = false;

  ~Connection() {
    nghttp3_conn_del(h3);
    ngtcp2_conn_del(conn);
  }

  json capture() const {
    json uni = json::array(), control = json::array(), streams = json::array();
    for (int64_t id : uni_order) {
      const auto& r = client_streams.at(id);
      uni.push_back({{"id", id}, {"type", r.stream_type() ? json(*r.stream_type()) : json(nullptr)}});
      if (r.stream_type() != 0u) continue;
      for (const auto& f : r.frames()) {
        json j = {{"type", f.type}, {"length", f.length}};
        if (f.type == h3_frames::kSettings) {
          json s = json::array();
          if (auto list = h3_frames::settings(f.payload))
            for (const auto& [k, v] : *list)
              s.push_back({{"id", k}, {"value", v}, {"grease", h3_frames::is_grease_setting(k)}});
          j["settings"] = s;
        } else if (f.type == h3_frames::kPriorityUpdateRequest || f.type == h3_frames::kPriorityUpdatePush) {
          if (auto pu = h3_frames::priority_update(f.payload)) {
            j["element_id"] = pu->first;
            j["priority"] = pu->second;
          }
        } else if (h3_frames::StreamReader::is_grease_type(f.type)) {
          j["grease"] = true;
          j["payload_hex"] = hex(f.payload.data(), f.payload.size());
        }
        control.push_back(j);
      }
      if (!r.error().empty()) control.push_back({{"error", r.error()}});
    }
    for (const auto& [id, req] : requests) {
      json frames = json::array();
      if (auto it = client_streams.find(id); it != client_streams.end())
        for (const auto& f : it->second.frames()) frames.push_back({{"type", f.type}, {"length", f.length}});
      streams.push_back(
          {{"id", id}, {"headers", req->headers}, {"frames", frames}, {"reset", req->reset_by_client}});
    }
    return {{"peer", peer},
            {"tls", tls},
            {"uni_streams", uni},
            {"control_frames", control},
            {"streams", streams}};
  }
};

ngtcp2_conn* conn_of(ngtcp2_crypto_conn_ref* ref) { return static_cast<Connection*>(ref->user_data)->conn; }

// --- the client's ClientHello, as the TLS stack hands it over -------------

enum ssl_select_cert_result_t on_client_hello(const SSL_CLIENT_HELLO* hello) {
  auto* ref = static_cast<ngtcp2_crypto_conn_ref*>(SSL_get_app_data(hello->ssl));
  auto* c = static_cast<Connection*>(ref->user_data);
  const hello_fp::Fingerprint fp =
      hello_fp::of(hello_fp::HelloFields{hello->version, hello->cipher_suites, hello->cipher_suites_len,
                                         hello->extensions, hello->extensions_len},
                   'q');
  c->tls["client_hello_hex"] = hex(hello->client_hello, hello->client_hello_len);
  c->tls["ja4"] = fp.ja4;
  c->tls["ja3"] = fp.ja3;
  const uint8_t* tp = nullptr;
  size_t tp_len = 0;
  if (SSL_early_callback_ctx_extension_get(hello, 57, &tp, &tp_len)) {
    json params = json::array();
    if (auto tps = quic_initial::transport_parameters(tp, tp_len)) {
      for (const auto& p : *tps) {
        json j = {{"id", p.id},
                  {"hex", hex(p.value.data(), p.value.size())},
                  {"grease", quic_initial::is_grease_parameter(p.id)}};
        if (auto v = quic_initial::varint_value(p.value)) j["varint"] = *v;
        params.push_back(j);
      }
    }
    c->tls["transport_parameters"] = params;
  }
  return ssl_select_cert_success;
}

int select_h3(SSL*, const uint8_t** out, uint8_t* out_len, const uint8_t* in, unsigned in_len, void*) {
  for (unsigned i = 0; i < in_len; i += 1u + in[i]) {
    if (in[i] == 2 && i + 3 <= in_len && std::memcmp(in + i + 1, "h3", 2) == 0) {
      *out = in + i + 1;
      *out_len = 2;
      return SSL_TLSEXT_ERR_OK;
    }
  }
  return SSL_TLSEXT_ERR_ALERT_FATAL;
}

// --- HTTP/3 (nghttp3) ------------------------------------------------------

nghttp3_ssize read_body(nghttp3_conn*, int64_t, nghttp3_vec* vec, size_t veccnt, uint32_t* pflags, void*,
                        void* stream_user_data) {
  auto* req = static_cast<RequestStream*>(stream_user_data);
  if (veccnt == 0) return 0;
  vec[0].base = reinterpret_cast<uint8_t*>(req->body.data());
  vec[0].len = req->body.size();
  *pflags |= NGHTTP3_DATA_FLAG_EOF;
  return 1;
}

int h3_begin_headers(nghttp3_conn* h3, int64_t stream_id, void* user_data, void*) {
  auto* c = static_cast<Connection*>(user_data);
  auto& req = c->requests[stream_id];
  if (!req) {
    req = std::make_unique<RequestStream>();
    req->id = stream_id;
  }
  nghttp3_conn_set_stream_user_data(h3, stream_id, req.get());
  return 0;
}

int h3_recv_header(nghttp3_conn*, int64_t, int32_t, nghttp3_rcbuf* name, nghttp3_rcbuf* value, uint8_t, void*,
                   void* stream_user_data) {
  auto* req = static_cast<RequestStream*>(stream_user_data);
  const nghttp3_vec n = nghttp3_rcbuf_get_buf(name), v = nghttp3_rcbuf_get_buf(value);
  if (req && req->headers.size() < 256)
    req->headers.push_back({std::string(reinterpret_cast<const char*>(n.base), n.len),
                            std::string(reinterpret_cast<const char*>(v.base), v.len)});
  return 0;
}

void log_line(const std::string& line) {
  if (g_log_path.empty()) return;
  std::ofstream(g_log_path, std::ios::app) << line << "\n";
}

int h3_end_stream(nghttp3_conn* h3, int64_t stream_id, void* user_data, void* stream_user_data) {
  auto* c = static_cast<Connection*>(user_data);
  auto* req = static_cast<RequestStream*>(stream_user_data);
  if (!req || req->responded) return 0;
  req->responded = true;
  std::string path;
  for (const auto& h : req->headers)
    if (h.at(0) == ":path") path = h.at(1);
  // /hold...: never answered (the client cancels it, or times out).
  if (path.starts_with("/hold")) return 0;
  // /close...: the connection ends instead of an answer.
  if (path.starts_with("/close")) {
    c->close_now = true;
    return 0;
  }
  // /reset...: the server loses the connection (as a restarted one) and
  // answers what the client sends next with a Stateless Reset.
  if (path.starts_with("/reset")) {
    c->reset_now = true;
    return 0;
  }
  const json cap = c->capture();
  log_line(cap.dump());
  req->body = cap.dump(2) + "\n";
  const std::string length = std::to_string(req->body.size());
  auto nv = [](const char* n, const std::string& v) {
    return nghttp3_nv{reinterpret_cast<uint8_t*>(const_cast<char*>(n)),
                      reinterpret_cast<uint8_t*>(const_cast<char*>(v.data())), std::strlen(n), v.size(),
                      NGHTTP3_NV_FLAG_NONE};
  };
  static const std::string status = "200", type = "application/json";
  const nghttp3_nv headers[] = {nv(":status", status), nv("content-type", type),
                                nv("content-length", length)};
  const nghttp3_data_reader reader{read_body};
  return nghttp3_conn_submit_response(h3, stream_id, headers, 3, &reader) == 0 ? 0
                                                                               : NGHTTP3_ERR_CALLBACK_FAILURE;
}

int h3_recv_data(nghttp3_conn*, int64_t stream_id, const uint8_t*, size_t len, void* user_data, void*) {
  auto* c = static_cast<Connection*>(user_data);
  ngtcp2_conn_extend_max_stream_offset(c->conn, stream_id, len);
  ngtcp2_conn_extend_max_offset(c->conn, len);
  return 0;
}

int h3_deferred_consume(nghttp3_conn*, int64_t stream_id, size_t consumed, void* user_data, void*) {
  return h3_recv_data(nullptr, stream_id, nullptr, consumed, user_data, nullptr);
}

int h3_stop_sending(nghttp3_conn*, int64_t stream_id, uint64_t app_error_code, void* user_data, void*) {
  ngtcp2_conn_shutdown_stream_read(static_cast<Connection*>(user_data)->conn, 0, stream_id, app_error_code);
  return 0;
}

int h3_reset_stream(nghttp3_conn*, int64_t stream_id, uint64_t app_error_code, void* user_data, void*) {
  ngtcp2_conn_shutdown_stream_write(static_cast<Connection*>(user_data)->conn, 0, stream_id, app_error_code);
  return 0;
}

bool start_h3(Connection* c) {
  nghttp3_callbacks cb{};
  cb.begin_headers = h3_begin_headers;
  cb.recv_header = h3_recv_header;
  cb.end_stream = h3_end_stream;
  cb.recv_data = h3_recv_data;
  cb.deferred_consume = h3_deferred_consume;
  cb.stop_sending = h3_stop_sending;
  cb.reset_stream = h3_reset_stream;
  nghttp3_settings settings;
  nghttp3_settings_default(&settings);
  settings.qpack_max_dtable_capacity = 4096;
  settings.qpack_blocked_streams = 100;
  if (nghttp3_conn_server_new(&c->h3, &cb, &settings, nghttp3_mem_default(), c) != 0) return false;
  nghttp3_conn_set_max_client_streams_bidi(c->h3, ngtcp2_conn_get_streams_bidi_left(c->conn));
  int64_t control, encoder, decoder;
  return ngtcp2_conn_open_uni_stream(c->conn, &control, nullptr) == 0 &&
         nghttp3_conn_bind_control_stream(c->h3, control) == 0 &&
         ngtcp2_conn_open_uni_stream(c->conn, &encoder, nullptr) == 0 &&
         ngtcp2_conn_open_uni_stream(c->conn, &decoder, nullptr) == 0 &&
         nghttp3_conn_bind_qpack_streams(c->h3, encoder, decoder) == 0;
}

// --- QUIC (ngtcp2) ---------------------------------------------------------

int recv_stream_data(ngtcp2_conn* conn, uint32_t flags, int64_t stream_id, uint64_t, const uint8_t* data,
                     size_t len, void* user_data, void*) {
  auto* c = static_cast<Connection*>(user_data);
  if (!c->h3 && !start_h3(c)) return NGTCP2_ERR_CALLBACK_FAILURE;
  const bool uni = (stream_id & 0x2) != 0;
  auto [it, fresh] = c->client_streams.try_emplace(stream_id, uni);
  if (fresh && uni) c->uni_order.push_back(stream_id);
  it->second.feed(data, len);
  const nghttp3_ssize consumed =
      nghttp3_conn_read_stream(c->h3, stream_id, data, len, (flags & NGTCP2_STREAM_DATA_FLAG_FIN) != 0);
  if (consumed < 0) {
    ngtcp2_ccerr_set_application_error(
        &c->last_error, nghttp3_err_infer_quic_app_error_code(static_cast<int>(consumed)), nullptr, 0);
    return NGTCP2_ERR_CALLBACK_FAILURE;
  }
  ngtcp2_conn_extend_max_stream_offset(conn, stream_id, static_cast<uint64_t>(consumed));
  ngtcp2_conn_extend_max_offset(conn, static_cast<uint64_t>(consumed));
  return 0;
}

int acked_stream_data_offset(ngtcp2_conn*, int64_t stream_id, uint64_t, uint64_t len, void* user_data,
                             void*) {
  auto* c = static_cast<Connection*>(user_data);
  return c->h3 && nghttp3_conn_add_ack_offset(c->h3, stream_id, len) != 0 ? NGTCP2_ERR_CALLBACK_FAILURE : 0;
}

int stream_close(ngtcp2_conn* conn, uint32_t flags, int64_t stream_id, uint64_t app_error_code,
                 void* user_data, void*) {
  auto* c = static_cast<Connection*>(user_data);
  if (!(flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET)) app_error_code = NGHTTP3_H3_NO_ERROR;
  if (c->h3) {
    const int rv = nghttp3_conn_close_stream(c->h3, stream_id, app_error_code);
    if (rv != 0 && rv != NGHTTP3_ERR_STREAM_NOT_FOUND) return NGTCP2_ERR_CALLBACK_FAILURE;
  }
  if (!(stream_id & 0x2)) ngtcp2_conn_extend_max_streams_bidi(conn, 1);
  return 0;
}

int extend_max_stream_data(ngtcp2_conn*, int64_t stream_id, uint64_t, void* user_data, void*) {
  auto* c = static_cast<Connection*>(user_data);
  return c->h3 && nghttp3_conn_unblock_stream(c->h3, stream_id) != 0 ? NGTCP2_ERR_CALLBACK_FAILURE : 0;
}

void mark_reset(Connection* c, int64_t stream_id) {
  if (auto it = c->requests.find(stream_id); it != c->requests.end()) it->second->reset_by_client = true;
}

int recv_stop_sending(ngtcp2_conn*, int64_t stream_id, uint64_t, void* user_data, void*) {
  mark_reset(static_cast<Connection*>(user_data), stream_id);
  return 0;
}

int stream_reset(ngtcp2_conn*, int64_t stream_id, uint64_t, uint64_t, void* user_data, void*) {
  auto* c = static_cast<Connection*>(user_data);
  mark_reset(c, stream_id);
  return c->h3 && nghttp3_conn_shutdown_stream_read(c->h3, stream_id) != 0 ? NGTCP2_ERR_CALLBACK_FAILURE : 0;
}

void rand_cb(uint8_t* dest, size_t len, const ngtcp2_rand_ctx*) { RAND_bytes(dest, len); }

int new_cid(ngtcp2_conn*, ngtcp2_cid* cid, ngtcp2_stateless_reset_token* token, size_t len, void*) {
  cid->datalen = len;
  RAND_bytes(cid->data, len);
  RAND_bytes(token->data, sizeof token->data);
  return 0;
}

ngtcp2_callbacks quic_callbacks() {
  ngtcp2_callbacks cb{};
  cb.recv_client_initial = ngtcp2_crypto_recv_client_initial_cb;
  cb.recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
  cb.encrypt = ngtcp2_crypto_encrypt_cb;
  cb.decrypt = ngtcp2_crypto_decrypt_cb;
  cb.hp_mask = ngtcp2_crypto_hp_mask_cb;
  cb.update_key = ngtcp2_crypto_update_key_cb;
  cb.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
  cb.delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
  cb.get_path_challenge_data2 = ngtcp2_crypto_get_path_challenge_data2_cb;
  cb.version_negotiation = ngtcp2_crypto_version_negotiation_cb;
  cb.rand = rand_cb;
  cb.get_new_connection_id2 = new_cid;
  cb.recv_stream_data = recv_stream_data;
  cb.acked_stream_data_offset = acked_stream_data_offset;
  cb.stream_close = stream_close;
  cb.extend_max_stream_data = extend_max_stream_data;
  cb.stream_reset = stream_reset;
  cb.recv_stop_sending = recv_stop_sending;
  return cb;
}

ngtcp2_path path_of(Connection* c) {
  return {
      {reinterpret_cast<sockaddr*>(const_cast<sockaddr_storage*>(&c->socket->local)), c->socket->local_len},
      {reinterpret_cast<sockaddr*>(&c->remote), c->remote_len},
      nullptr};
}

// Sends what ngtcp2 and nghttp3 have to send; false when the connection is done.
bool flush(Connection* c) {
  ngtcp2_path_storage ps;
  ngtcp2_path_storage_zero(&ps);
  ngtcp2_pkt_info pi{};
  uint8_t buf[1500];
  for (int rounds = 0; rounds < 10000; ++rounds) {
    int64_t stream_id = -1;
    int fin = 0;
    nghttp3_vec vec[16];
    nghttp3_ssize veccnt = 0;
    if (c->h3 && ngtcp2_conn_get_max_data_left(c->conn)) {
      veccnt = nghttp3_conn_writev_stream(c->h3, &stream_id, &fin, vec, 16);
      if (veccnt < 0) return false;
    }
    ngtcp2_ssize written = 0;
    uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_MORE | (fin ? NGTCP2_WRITE_STREAM_FLAG_FIN : 0);
    const ngtcp2_ssize n = ngtcp2_conn_writev_stream(c->conn, &ps.path, &pi, buf, sizeof buf, &written, flags,
                                                     stream_id, reinterpret_cast<const ngtcp2_vec*>(vec),
                                                     static_cast<size_t>(veccnt), now_ns());
    if (n < 0) {
      if (n == NGTCP2_ERR_STREAM_DATA_BLOCKED) {
        nghttp3_conn_block_stream(c->h3, stream_id);
        continue;
      }
      if (n == NGTCP2_ERR_STREAM_SHUT_WR) {
        nghttp3_conn_shutdown_stream_write(c->h3, stream_id);
        continue;
      }
      if (n == NGTCP2_ERR_WRITE_MORE) {
        if (nghttp3_conn_add_write_offset(c->h3, stream_id, static_cast<size_t>(written)) != 0) return false;
        continue;
      }
      return false;
    }
    if (written >= 0 && c->h3 &&
        nghttp3_conn_add_write_offset(c->h3, stream_id, static_cast<size_t>(written)) != 0)
      return false;
    if (n == 0) return true;
    sendto(c->socket->fd, buf, static_cast<size_t>(n), 0, reinterpret_cast<sockaddr*>(&c->remote),
           c->remote_len);
  }
  return true;
}

// CONNECTION_CLOSE with H3_NO_ERROR, as a server going away sends it.
void close_connection(Connection* c) {
  ngtcp2_ccerr ccerr;
  ngtcp2_ccerr_default(&ccerr);
  ngtcp2_ccerr_set_application_error(&ccerr, NGHTTP3_H3_NO_ERROR, nullptr, 0);
  ngtcp2_path_storage ps;
  ngtcp2_path_storage_zero(&ps);
  ngtcp2_pkt_info pi{};
  uint8_t buf[1500];
  const ngtcp2_ssize n =
      ngtcp2_conn_write_connection_close(c->conn, &ps.path, &pi, buf, sizeof buf, &ccerr, now_ns());
  if (n > 0)
    sendto(c->socket->fd, buf, static_cast<size_t>(n), 0, reinterpret_cast<sockaddr*>(&c->remote),
           c->remote_len);
  c->closed = true;
}

std::unique_ptr<Connection> accept_connection(SSL_CTX* ctx, const Socket* s, const sockaddr_storage& from,
                                              socklen_t from_len, const std::string& peer,
                                              const uint8_t* data, size_t len) {
  ngtcp2_pkt_hd hd{};
  if (ngtcp2_accept(&hd, data, len) != 0) return nullptr;
  auto c = std::make_unique<Connection>();
  c->peer = peer;
  c->socket = s;
  c->remote = from;
  c->remote_len = from_len;
  c->ref = {conn_of, c.get()};
  c->ssl.reset(SSL_new(ctx));
  SSL_set_app_data(c->ssl.get(), &c->ref);
  SSL_set_accept_state(c->ssl.get());
  ngtcp2_settings settings;
  ngtcp2_settings_default(&settings);
  settings.initial_ts = now_ns();
  settings.max_tx_udp_payload_size = 1452;
  ngtcp2_transport_params params;
  ngtcp2_transport_params_default(&params);
  params.original_dcid = hd.dcid;
  params.original_dcid_present = 1;
  params.initial_max_data = 16 << 20;
  params.initial_max_stream_data_bidi_remote = 4 << 20;
  params.initial_max_stream_data_uni = 1 << 20;
  params.initial_max_streams_bidi = 1000;
  params.initial_max_streams_uni = 100;
  params.max_idle_timeout = 30ull * NGTCP2_SECONDS;
  params.stateless_reset_token_present = 1;
  RAND_bytes(params.stateless_reset_token, sizeof params.stateless_reset_token);
  std::memcpy(c->reset_token.data, params.stateless_reset_token, sizeof c->reset_token.data);
  ngtcp2_cid scid;
  scid.datalen = 8;
  RAND_bytes(scid.data, scid.datalen);
  ngtcp2_callbacks cb = quic_callbacks();
  ngtcp2_path path = path_of(c.get());
  if (ngtcp2_conn_server_new(&c->conn, &hd.scid, &scid, &path, hd.version, &cb, &settings, &params, nullptr,
                             c.get()) != 0)
    return nullptr;
  ngtcp2_conn_set_tls_native_handle(c->conn, c->ssl.get());
  return c;
}

Socket bind_udp(int family, uint16_t port) {
  Socket s;
  s.fd = socket(family, SOCK_DGRAM, 0);
  if (s.fd < 0) return s;
  if (family == AF_INET) {
    auto* a = reinterpret_cast<sockaddr_in*>(&s.local);
    a->sin_family = AF_INET;
    a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a->sin_port = htons(port);
    s.local_len = sizeof *a;
  } else {
    int only = 1;
    setsockopt(s.fd, IPPROTO_IPV6, IPV6_V6ONLY, &only, sizeof only);
    auto* a = reinterpret_cast<sockaddr_in6*>(&s.local);
    a->sin6_family = AF_INET6;
    a->sin6_addr = in6addr_loopback;
    a->sin6_port = htons(port);
    s.local_len = sizeof *a;
  }
  if (bind(s.fd, reinterpret_cast<sockaddr*>(&s.local), s.local_len) != 0 ||
      getsockname(s.fd, reinterpret_cast<sockaddr*>(&s.local), &s.local_len) != 0) {
    close(s.fd);
    s.fd = -1;
  }
  return s;
}

std::string peer_name(const sockaddr_storage& from) {
  char host[INET6_ADDRSTRLEN] = "";
  uint16_t port = 0;
  if (from.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&from);
    inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
    port = ntohs(a->sin_port);
  } else {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&from);
    inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
    port = ntohs(a->sin6_port);
  }
  return std::string(host) + " " + std::to_string(port);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--log") g_log_path = argv[i + 1];
    if (std::string(argv[i]) == "--only-version")
      g_only_version = static_cast<uint32_t>(std::stoul(argv[i + 1], nullptr, 0));
  }
  bssl::UniquePtr<SSL_CTX> ctx(SSL_CTX_new(TLS_method()));
  if (!SSL_CTX_use_certificate_chain_file(ctx.get(), argv[1]) ||
      !SSL_CTX_use_PrivateKey_file(ctx.get(), argv[2], SSL_FILETYPE_PEM) ||
      ngtcp2_crypto_boringssl_configure_server_context(ctx.get()) != 0) {
    ERR_print_errors_fp(stderr);
    return 1;
  }
  SSL_CTX_set_select_certificate_cb(ctx.get(), on_client_hello);
  SSL_CTX_set_alpn_select_cb(ctx.get(), select_h3, nullptr);

  Socket sockets[2];
  sockets[0] = bind_udp(AF_INET, 0);
  if (sockets[0].fd < 0) return 1;
  const uint16_t port = ntohs(reinterpret_cast<sockaddr_in*>(&sockets[0].local)->sin_port);
  sockets[1] = bind_udp(AF_INET6, port);  // "localhost" may be ::1
  std::printf("{\"port\":%d}\n", port);
  std::fflush(stdout);
  std::thread([] {  // stdin closed: the test is done with us
    char ch;
    while (read(0, &ch, 1) > 0) {
    }
    _exit(0);
  })
      .detach();

  std::map<std::string, std::unique_ptr<Connection>> conns;
  // Peers whose connection /reset dropped: their next packet gets a
  // Stateless Reset with the connection's token.
  std::map<std::string, ngtcp2_stateless_reset_token> reset_peers;
  for (;;) {
    ngtcp2_tstamp next = UINT64_MAX;
    for (const auto& [peer, c] : conns) next = std::min(next, ngtcp2_conn_get_expiry(c->conn));
    const ngtcp2_tstamp now = now_ns();
    const int timeout_ms = next == UINT64_MAX ? 1000
                           : next <= now      ? 0
                                              : static_cast<int>((next - now) / 1000000 + 1);
    pollfd fds[2] = {{sockets[0].fd, POLLIN, 0}, {sockets[1].fd, POLLIN, 0}};
    poll(fds, sockets[1].fd >= 0 ? 2 : 1, std::min(timeout_ms, 1000));
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & POLLIN)) continue;
      for (int batch = 0; batch < 64; ++batch) {
        uint8_t buf[65536];
        sockaddr_storage from{};
        socklen_t from_len = sizeof from;
        const ssize_t n =
            recvfrom(fds[i].fd, buf, sizeof buf, MSG_DONTWAIT, reinterpret_cast<sockaddr*>(&from), &from_len);
        if (n <= 0) break;
        const std::string peer = peer_name(from);
        auto it = conns.find(peer);
        if (it != conns.end() && it->second->reset_now) it = conns.end();  // dropped in this batch
        if (auto r = reset_peers.find(peer); it == conns.end() && r != reset_peers.end()) {
          // Smaller than what came, as RFC 9000 section 10.3.3 wants.
          uint8_t reset[64], unpredictable[40];
          RAND_bytes(unpredictable, sizeof unpredictable);
          const size_t random_len = std::min<size_t>(sizeof unpredictable, static_cast<size_t>(n) - 18);
          if (n > 24) {
            const ngtcp2_ssize len =
                ngtcp2_pkt_write_stateless_reset2(reset, sizeof reset, &r->second, unpredictable, random_len);
            if (len > 0)
              sendto(fds[i].fd, reset, static_cast<size_t>(len), 0, reinterpret_cast<sockaddr*>(&from),
                     from_len);
          }
          continue;
        }
        if (it == conns.end() && g_only_version != 0) {
          ngtcp2_version_cid vc{};
          const int rv = ngtcp2_pkt_decode_version_cid(&vc, buf, static_cast<size_t>(n), 8);
          if ((rv == 0 || rv == NGTCP2_ERR_VERSION_NEGOTIATION) && vc.version != 0 &&
              vc.version != g_only_version) {
            uint8_t vn[256], unused = 0;
            RAND_bytes(&unused, 1);
            const ngtcp2_ssize len = ngtcp2_pkt_write_version_negotiation(
                vn, sizeof vn, unused, vc.scid, vc.scidlen, vc.dcid, vc.dcidlen, &g_only_version, 1);
            if (len > 0)
              sendto(fds[i].fd, vn, static_cast<size_t>(len), 0, reinterpret_cast<sockaddr*>(&from),
                     from_len);
            continue;
          }
        }
        if (it == conns.end()) {
          auto c =
              accept_connection(ctx.get(), &sockets[i], from, from_len, peer, buf, static_cast<size_t>(n));
          if (!c || conns.size() >= 1000) continue;
          it = conns.emplace(peer, std::move(c)).first;
        }
        Connection* c = it->second.get();
        ngtcp2_path path = path_of(c);
        ngtcp2_pkt_info pi{};
        const int rv = ngtcp2_conn_read_pkt(c->conn, &path, &pi, buf, static_cast<size_t>(n), now_ns());
        if (rv != 0) {
          c->closed = true;
          continue;
        }
        if (c->reset_now) {
          // Gone without a word, not even the ACK of the request: the
          // client sends it again, and meets the reset.
          reset_peers[peer] = c->reset_token;
          c->closed = true;
          continue;
        }
        if (!flush(c)) c->closed = true;
        if (c->close_now && !c->closed) close_connection(c);
      }
    }
    for (auto it = conns.begin(); it != conns.end();) {
      Connection* c = it->second.get();
      if (!c->closed && ngtcp2_conn_get_expiry(c->conn) <= now_ns()) {
        if (ngtcp2_conn_handle_expiry(c->conn, now_ns()) != 0 || !flush(c)) c->closed = true;
      }
      if (c->closed || ngtcp2_conn_in_closing_period(c->conn) || ngtcp2_conn_in_draining_period(c->conn)) {
        it = conns.erase(it);
      } else {
        ++it;
      }
    }
  }
}
