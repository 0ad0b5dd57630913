// A capture server: what a fingerprinting server sees of a client. TLS on
// our patched BoringSSL (the raw ClientHello is kept), then HTTP/2 through
// an nghttp2 server session whose callbacks record every frame the client
// sends before and with its requests: SETTINGS in order, the connection
// WINDOW_UPDATE, PRIORITY frames, each HEADERS frame's flags, priority and
// header fields in wire order. Each response's body is the capture so far,
// with the JA3 and JA4 of the ClientHello and the Akamai fingerprint
// (SETTINGS|WINDOW_UPDATE|PRIORITY|PSEUDO_HEADER_ORDER) computed from it. A client that does not offer h2
// gets HTTP/1.1, and the body lists its header lines in order. With --alps, the server also negotiates ALPS
// for h2 on whichever codepoint the client offered (17613 or 17513), and reports the client's application
// settings.
//   h2_capture_server CERT KEY [--log FILE] [--alpn h2,http/1.1] [--alps 1]
// Prints {"port":N}; stops when stdin closes. One thread per connection.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nghttp2/nghttp2.h>
#include <nlohmann/json.hpp>
#include <openssl/err.h>
#include <openssl/ssl.h>

using json = nlohmann::json;

#include "hello_fingerprint.h"
#include "loopback_listener.h"

namespace {

std::string g_log_path;
std::mutex g_log_mu;
std::vector<std::string> g_alpn = {"h2", "http/1.1"};
bool g_alps = false;

std::string hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(d[p[i] >> 4]);
    out.push_back(d[p[i] & 15]);
  }
  return out;
}

struct Capture {
  json tls = json::object();
  json settings = json::array();
  bool settings_seen = false;
  uint32_t window_update = 0;
  bool headers_seen = false;
  json priority_frames = json::array();
  json streams = json::array();  // HEADERS frames, in arrival order
  std::string protocol;

  std::string akamai() const {
    std::string out;
    for (size_t i = 0; i < settings.size(); ++i) {
      if (i) out += ';';
      out += std::to_string(settings[i][0].get<int>()) + ':' + std::to_string(settings[i][1].get<uint32_t>());
    }
    out += '|' + std::to_string(window_update) + '|';
    if (priority_frames.empty()) out += '0';
    for (size_t i = 0; i < priority_frames.size(); ++i) {
      const json& p = priority_frames[i];
      if (i) out += ',';
      out += std::to_string(p["stream_id"].get<int>()) + ':' + (p["exclusive"].get<bool>() ? "1" : "0") +
             ':' + std::to_string(p["depends_on"].get<int>()) + ':' + std::to_string(p["weight"].get<int>());
    }
    out += '|';
    if (!streams.empty()) {
      bool first = true;
      for (const json& h : streams[0]["headers"]) {
        std::string name = h[0];
        if (name.empty() || name[0] != ':') continue;
        if (!first) out += ',';
        first = false;
        out += name[1];
      }
    }
    return out;
  }

  json to_json() const {
    return {{"protocol", protocol},
            {"tls", tls},
            {"settings", settings},
            {"window_update", window_update},
            {"priority_frames", priority_frames},
            {"streams", streams},
            {"akamai", akamai()}};
  }
};

void log_capture(const json& j) {
  if (g_log_path.empty()) return;
  std::lock_guard lock(g_log_mu);
  std::ofstream(g_log_path, std::ios::app) << j.dump() << "\n";
}

// The raw ClientHello, before BoringSSL acts on it.
enum ssl_select_cert_result_t on_client_hello(const SSL_CLIENT_HELLO* hello) {
  auto* cap = static_cast<Capture*>(SSL_get_ex_data(hello->ssl, 0));
  if (cap) {
    cap->tls["client_hello_hex"] = hex(hello->client_hello, hello->client_hello_len);
    const hello_fp::Fingerprint fp = hello_fp::of(hello);
    cap->tls["ja3"] = fp.ja3;
    cap->tls["ja3_hash"] = fp.ja3_hash;
    cap->tls["ja4"] = fp.ja4;
  }
  if (g_alps) {
    const uint8_t* body;
    size_t len;
    bool new_codepoint = SSL_early_callback_ctx_extension_get(hello, 17613, &body, &len);
    SSL_set_alps_use_new_codepoint(hello->ssl, new_codepoint ? 1 : 0);
    // HTTP/2 frames, as Chrome reads ALPS for h2 (a bare settings payload
    // makes it fail with ERR_HTTP2_PROTOCOL_ERROR): one SETTINGS frame,
    // MAX_CONCURRENT_STREAMS 100.
    static const uint8_t kServerSettings[] = {0x00, 0x00, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00,
                                              0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x64};
    SSL_add_application_settings(hello->ssl, reinterpret_cast<const uint8_t*>("h2"), 2, kServerSettings,
                                 sizeof kServerSettings);
    if (cap) cap->tls["alps_codepoint_offered"] = new_codepoint ? 17613 : 17513;
  }
  return ssl_select_cert_success;
}

int select_alpn(SSL*, const uint8_t** out, uint8_t* outlen, const uint8_t* in, unsigned inlen, void*) {
  for (const auto& want : g_alpn) {
    for (unsigned i = 0; i < inlen;) {
      uint8_t len = in[i];
      if (i + 1 + len > inlen) break;
      if (std::string(reinterpret_cast<const char*>(in + i + 1), len) == want) {
        *out = in + i + 1;
        *outlen = len;
        return SSL_TLSEXT_ERR_OK;
      }
      i += 1 + len;
    }
  }
  return SSL_TLSEXT_ERR_NOACK;
}

struct Conn {
  int fd;
  SSL* ssl;
  BIO* wbio;
  Capture cap;
  nghttp2_session* h2 = nullptr;
  std::vector<std::pair<int32_t, std::string>> bodies;  // response bodies to send, by stream
  std::string pending_out;

  void flush_tls() {
    const uint8_t* d;
    size_t n;
    if (BIO_mem_contents(wbio, &d, &n) && n) {
      size_t off = 0;
      while (off < n) {
        ssize_t w = write(fd, d + off, n - off);
        if (w <= 0) break;
        off += static_cast<size_t>(w);
      }
      BIO_reset(wbio);
    }
  }
  void send_app(const std::string& bytes) {
    size_t off = 0;
    while (off < bytes.size()) {
      int w =
          SSL_write(ssl, bytes.data() + off, static_cast<int>(std::min<size_t>(bytes.size() - off, 16384)));
      if (w <= 0) break;
      off += static_cast<size_t>(w);
      flush_tls();
    }
  }
};

json* stream_record(Conn* c, int32_t id) {
  for (auto& s : c->cap.streams) {
    if (s["stream_id"] == id) return &s;
  }
  return nullptr;
}

int on_begin_headers(nghttp2_session*, const nghttp2_frame* f, void* ud) {
  auto* c = static_cast<Conn*>(ud);
  if (f->hd.type != NGHTTP2_HEADERS) return 0;
  json rec = {{"stream_id", f->hd.stream_id}, {"headers", json::array()}};
  json flags = json::array();
  if (f->hd.flags & NGHTTP2_FLAG_END_STREAM) flags.push_back("END_STREAM");
  if (f->hd.flags & NGHTTP2_FLAG_END_HEADERS) flags.push_back("END_HEADERS");
  if (f->hd.flags & NGHTTP2_FLAG_PRIORITY) flags.push_back("PRIORITY");
  rec["flags"] = flags;
  if (f->hd.flags & NGHTTP2_FLAG_PRIORITY) {
    rec["priority"] = {{"depends_on", f->headers.pri_spec.stream_id},
                       {"exclusive", f->headers.pri_spec.exclusive != 0},
                       {"weight", f->headers.pri_spec.weight}};
  } else {
    rec["priority"] = nullptr;
  }
  c->cap.headers_seen = true;
  c->cap.streams.push_back(rec);
  return 0;
}

int on_header(nghttp2_session*, const nghttp2_frame* f, const uint8_t* name, size_t namelen,
              const uint8_t* value, size_t valuelen, uint8_t, void* ud) {
  auto* c = static_cast<Conn*>(ud);
  if (json* s = stream_record(c, f->hd.stream_id)) {
    (*s)["headers"].push_back({std::string(reinterpret_cast<const char*>(name), namelen),
                               std::string(reinterpret_cast<const char*>(value), valuelen)});
  }
  return 0;
}

int on_data(nghttp2_session*, uint8_t, int32_t id, const uint8_t*, size_t len, void* ud) {
  auto* c = static_cast<Conn*>(ud);
  if (json* s = stream_record(c, id)) (*s)["body_bytes"] = (*s).value("body_bytes", 0) + len;
  return 0;
}

ssize_t read_body(nghttp2_session*, int32_t, uint8_t* buf, size_t length, uint32_t* flags,
                  nghttp2_data_source* src, void*) {
  auto* body = static_cast<std::string*>(src->ptr);
  size_t n = std::min(length, body->size());
  std::memcpy(buf, body->data(), n);
  body->erase(0, n);
  if (body->empty()) {
    *flags |= NGHTTP2_DATA_FLAG_EOF;
    delete body;
  }
  return static_cast<ssize_t>(n);
}

void respond(Conn* c, int32_t id) {
  json body = c->cap.to_json();
  body["stream_id"] = id;
  log_capture(body);
  auto* text = new std::string(body.dump());
  std::string len = std::to_string(text->size());
  nghttp2_nv nva[] = {
      {(uint8_t*)":status", (uint8_t*)"200", 7, 3, NGHTTP2_NV_FLAG_NONE},
      {(uint8_t*)"content-type", (uint8_t*)"application/json", 12, 16, NGHTTP2_NV_FLAG_NONE},
      {(uint8_t*)"content-length", (uint8_t*)len.data(), 14, len.size(), NGHTTP2_NV_FLAG_NONE},
  };
  nghttp2_data_provider prd;
  prd.source.ptr = text;
  prd.read_callback = read_body;
  nghttp2_submit_response(c->h2, id, nva, 3, &prd);
}

int on_frame_recv(nghttp2_session*, const nghttp2_frame* f, void* ud) {
  auto* c = static_cast<Conn*>(ud);
  switch (f->hd.type) {
    case NGHTTP2_SETTINGS:
      if (!(f->hd.flags & NGHTTP2_FLAG_ACK) && !c->cap.settings_seen) {
        c->cap.settings_seen = true;
        for (size_t i = 0; i < f->settings.niv; ++i) {
          c->cap.settings.push_back({f->settings.iv[i].settings_id, f->settings.iv[i].value});
        }
      }
      break;
    case NGHTTP2_WINDOW_UPDATE:
      if (f->hd.stream_id == 0 && !c->cap.headers_seen) {
        c->cap.window_update += static_cast<uint32_t>(f->window_update.window_size_increment);
      }
      break;
    case NGHTTP2_PRIORITY:
      if (!c->cap.headers_seen) {
        c->cap.priority_frames.push_back({{"stream_id", f->hd.stream_id},
                                          {"depends_on", f->priority.pri_spec.stream_id},
                                          {"exclusive", f->priority.pri_spec.exclusive != 0},
                                          {"weight", f->priority.pri_spec.weight}});
      }
      break;
    case NGHTTP2_HEADERS:
    case NGHTTP2_DATA:
      if (f->hd.flags & NGHTTP2_FLAG_END_STREAM) respond(c, f->hd.stream_id);
      break;
    default:
      break;
  }
  return 0;
}

// HTTP/1.1: the request head's lines in order, then close.
void serve_h1(Conn& c, std::string& buffered) {
  for (int rounds = 0; rounds < 1000 && buffered.find("\r\n\r\n") == std::string::npos; ++rounds) {
    pollfd p{c.fd, POLLIN, 0};
    if (poll(&p, 1, 5000) <= 0) return;
    uint8_t buf[16384];
    ssize_t n = read(c.fd, buf, sizeof buf);
    if (n <= 0) return;
    BIO_write(SSL_get_rbio(c.ssl), buf, static_cast<int>(n));
    char app[16384];
    int got;
    while ((got = SSL_read(c.ssl, app, sizeof app)) > 0) buffered.append(app, got);
    c.flush_tls();
  }
  size_t end = buffered.find("\r\n\r\n");
  if (end == std::string::npos) return;
  json lines = json::array();
  size_t pos = 0;
  while (pos < end) {
    size_t eol = buffered.find("\r\n", pos);
    lines.push_back(buffered.substr(pos, eol - pos));
    pos = eol + 2;
  }
  json body = c.cap.to_json();
  body["h1_lines"] = lines;
  log_capture(body);
  std::string text = body.dump();
  c.send_app("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
             std::to_string(text.size()) + "\r\n\r\n" + text);
}

void serve(SSL_CTX* ctx, int fd) {
  Conn c;
  c.fd = fd;
  c.ssl = SSL_new(ctx);
  BIO* rbio = BIO_new(BIO_s_mem());
  c.wbio = BIO_new(BIO_s_mem());
  SSL_set_bio(c.ssl, rbio, c.wbio);
  SSL_set_accept_state(c.ssl);
  SSL_set_ex_data(c.ssl, 0, &c.cap);
  std::string app_data;
  bool handshake_done = false;
  for (int rounds = 0; rounds < 100000; ++rounds) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 10000) <= 0) break;
    uint8_t buf[65536];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    BIO_write(rbio, buf, static_cast<int>(n));
    if (!handshake_done) {
      int rc = SSL_do_handshake(c.ssl);
      c.flush_tls();
      if (rc != 1) {
        if (SSL_get_error(c.ssl, rc) == SSL_ERROR_WANT_READ) continue;
        break;
      }
      handshake_done = true;
      const uint8_t* proto;
      unsigned plen;
      SSL_get0_alpn_selected(c.ssl, &proto, &plen);
      c.cap.protocol = std::string(reinterpret_cast<const char*>(proto), plen);
      c.cap.tls["alpn"] = c.cap.protocol;
      c.cap.tls["alps_negotiated"] = SSL_has_application_settings(c.ssl) != 0;
      if (SSL_has_application_settings(c.ssl)) {
        const uint8_t* settings;
        size_t settings_len;
        SSL_get0_peer_application_settings(c.ssl, &settings, &settings_len);
        c.cap.tls["alps_client_settings_hex"] = hex(settings, settings_len);
      }
      if (c.cap.protocol != "h2") {
        char app[16384];
        int got;
        while ((got = SSL_read(c.ssl, app, sizeof app)) > 0) app_data.append(app, got);
        serve_h1(c, app_data);
        break;
      }
      nghttp2_session_callbacks* cbs;
      nghttp2_session_callbacks_new(&cbs);
      nghttp2_session_callbacks_set_on_begin_headers_callback(cbs, on_begin_headers);
      nghttp2_session_callbacks_set_on_header_callback(cbs, on_header);
      nghttp2_session_callbacks_set_on_frame_recv_callback(cbs, on_frame_recv);
      nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, on_data);
      nghttp2_session_server_new(&c.h2, cbs, &c);
      nghttp2_session_callbacks_del(cbs);
      nghttp2_settings_entry iv[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 1000}};
      nghttp2_submit_settings(c.h2, NGHTTP2_FLAG_NONE, iv, 1);
    }
    char app[65536];
    int got;
    bool failed = false;
    while ((got = SSL_read(c.ssl, app, sizeof app)) > 0) {
      if (nghttp2_session_mem_recv(c.h2, reinterpret_cast<uint8_t*>(app), static_cast<size_t>(got)) < 0) {
        failed = true;
        break;
      }
    }
    c.flush_tls();
    if (failed) break;
    std::string out;
    for (;;) {
      const uint8_t* d;
      ssize_t m = nghttp2_session_mem_send(c.h2, &d);
      if (m <= 0) break;
      out.append(reinterpret_cast<const char*>(d), static_cast<size_t>(m));
    }
    if (!out.empty()) c.send_app(out);
    if (!nghttp2_session_want_read(c.h2) && !nghttp2_session_want_write(c.h2)) break;
  }
  if (c.h2) nghttp2_session_del(c.h2);
  SSL_free(c.ssl);
  close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  for (int i = 3; i + 1 < argc; i += 2) {
    std::string opt = argv[i];
    if (opt == "--log") g_log_path = argv[i + 1];
    if (opt == "--alps") g_alps = std::string(argv[i + 1]) == "1";
    if (opt == "--alpn") {
      g_alpn.clear();
      std::string list = argv[i + 1];
      for (size_t pos = 0; pos <= list.size();) {
        size_t comma = list.find(',', pos);
        if (comma == std::string::npos) comma = list.size();
        g_alpn.push_back(list.substr(pos, comma - pos));
        pos = comma + 1;
      }
    }
  }
  bssl::UniquePtr<SSL_CTX> ctx(SSL_CTX_new(TLS_method()));
  if (!SSL_CTX_use_certificate_chain_file(ctx.get(), argv[1]) ||
      !SSL_CTX_use_PrivateKey_file(ctx.get(), argv[2], SSL_FILETYPE_PEM)) {
    ERR_print_errors_fp(stderr);
    return 1;
  }
  SSL_CTX_set_select_certificate_cb(ctx.get(), on_client_hello);
  SSL_CTX_set_alpn_select_cb(ctx.get(), select_alpn, nullptr);

  int s = testserver::listen_on_loopback_and_announce(128);
  if (s < 0) return 1;
  for (;;) {
    int fd = accept(s, nullptr, nullptr);
    if (fd >= 0) std::thread(serve, ctx.get(), fd).detach();
  }
}
