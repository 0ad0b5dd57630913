// A QUIC capture server: what a fingerprinting server sees of a QUIC
// client's first flight, without answering it. It listens on UDP on
// 127.0.0.1 and ::1 (the same port), reads each client's Initial packets
// (tests/servers/quic_initial.h) and, once their CRYPTO data holds the whole
// ClientHello, writes one JSON line for that client: the datagrams and
// packets as they came (sizes, connection-ID lengths, token, packet
// numbers, the frames of each Initial in order, and each datagram's bytes,
// so that a capture can be replayed), the ClientHello's bytes,
// its JA4 with QUIC's "q" and its JA3, and the transport parameters in the
// client's order.
//   quic_capture_server [--log FILE]      (without --log: to stdout)
// Prints {"port":N}; stops when stdin closes.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "hello_fingerprint.h"
#include "quic_initial.h"

using json = nlohmann::json;

namespace {

std::string hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(d[p[i] >> 4]);
    out.push_back(d[p[i] & 15]);
  }
  return out;
}
std::string hex(const quic_initial::Bytes& b) { return hex(b.data(), b.size()); }

json packet_json(const quic_initial::Packet& p) {
  json frames = json::array();
  for (const auto& f : p.frames) {
    json j = {{"type", f.type}};
    if (f.type == 0x06) j["offset"] = f.offset;
    if (f.type == 0x06 || f.type == 0x00) j["length"] = f.length;
    frames.push_back(j);
  }
  return {{"version", p.version},
          {"type", p.type},
          {"size", p.size},
          {"dcid_length", p.dcid.size()},
          {"scid_length", p.scid.size()},
          {"token_length", p.token.size()},
          {"packet_number", p.packet_number},
          {"packet_number_length", p.packet_number_length},
          {"frames", frames}};
}

// One client (one UDP source address and port: a browser opens a socket
// per QUIC connection).
struct Client {
  quic_initial::ClientInitialReader reader;
  json datagrams = json::array();
  bool reported = false;
};

json report(const std::string& peer, Client& c, const quic_initial::Bytes& hello) {
  json out = {{"peer", peer}, {"datagrams", c.datagrams}, {"dcid", hex(c.reader.first_dcid())}};
  out["client_hello_hex"] = hex(hello);
  hello_fp::HelloFields fields;
  if (!hello_fp::parse_client_hello(hello.data(), hello.size(), &fields)) {
    out["error"] = "not a ClientHello";
    return out;
  }
  const hello_fp::Fingerprint fp = hello_fp::of(fields, 'q');
  out["ja4"] = fp.ja4;
  out["ja3"] = fp.ja3;
  out["ja3_hash"] = fp.ja3_hash;
  CBS exts, body;
  CBS_init(&exts, fields.extensions, fields.extensions_len);
  uint16_t type;
  while (CBS_get_u16(&exts, &type) && CBS_get_u16_length_prefixed(&exts, &body)) {
    if (type != 57) continue;
    json params = json::array();
    if (auto tps = quic_initial::transport_parameters(CBS_data(&body), CBS_len(&body))) {
      for (const auto& tp : *tps) {
        json j = {
            {"id", tp.id}, {"hex", hex(tp.value)}, {"grease", quic_initial::is_grease_parameter(tp.id)}};
        if (auto v = quic_initial::varint_value(tp.value)) j["varint"] = *v;
        params.push_back(j);
      }
    } else {
      out["transport_parameters_error"] = "malformed extension 57";
    }
    out["transport_parameters"] = params;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string log_path;
  for (int i = 1; i + 1 < argc; i += 2)
    if (std::string(argv[i]) == "--log") log_path = argv[i + 1];

  int v4 = socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in a4{};
  a4.sin_family = AF_INET;
  a4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a4;
  if (bind(v4, reinterpret_cast<sockaddr*>(&a4), sizeof a4) != 0 ||
      getsockname(v4, reinterpret_cast<sockaddr*>(&a4), &len) != 0)
    return 1;
  // ::1 on the same port when this machine has it ("localhost" may be either).
  int v6 = socket(AF_INET6, SOCK_DGRAM, 0);
  sockaddr_in6 a6{};
  a6.sin6_family = AF_INET6;
  a6.sin6_addr = in6addr_loopback;
  a6.sin6_port = a4.sin_port;
  int only = 1;
  setsockopt(v6, IPPROTO_IPV6, IPV6_V6ONLY, &only, sizeof only);
  if (v6 >= 0 && bind(v6, reinterpret_cast<sockaddr*>(&a6), sizeof a6) != 0) {
    close(v6);
    v6 = -1;
  }
  std::printf("{\"port\":%d}\n", ntohs(a4.sin_port));
  std::fflush(stdout);
  std::thread([] {  // stdin closed: the test is done with us
    char c;
    while (read(0, &c, 1) > 0) {
    }
    _exit(0);
  })
      .detach();

  std::map<std::string, Client> clients;
  pollfd fds[2] = {{v4, POLLIN, 0}, {v6, POLLIN, 0}};
  for (;;) {
    if (poll(fds, v6 >= 0 ? 2 : 1, -1) <= 0) continue;
    for (const pollfd& p : fds) {
      if (p.fd < 0 || !(p.revents & POLLIN)) continue;
      uint8_t buf[65536];
      sockaddr_storage from{};
      socklen_t from_len = sizeof from;
      const ssize_t n = recvfrom(p.fd, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&from), &from_len);
      if (n <= 0) continue;
      char host[INET6_ADDRSTRLEN] = "";
      uint16_t port = 0;
      if (from.ss_family == AF_INET) {
        const auto* s = reinterpret_cast<const sockaddr_in*>(&from);
        inet_ntop(AF_INET, &s->sin_addr, host, sizeof host);
        port = ntohs(s->sin_port);
      } else {
        const auto* s = reinterpret_cast<const sockaddr_in6*>(&from);
        inet_ntop(AF_INET6, &s->sin6_addr, host, sizeof host);
        port = ntohs(s->sin6_port);
      }
      const std::string peer = std::string(host) + " " + std::to_string(port);
      if (clients.size() > 10000) clients.clear();  // bounded: a capture is a few connections
      Client& c = clients[peer];
      if (c.reported) continue;
      const quic_initial::Datagram d = c.reader.read(buf, static_cast<size_t>(n));
      json packets = json::array();
      for (const auto& pk : d.packets) packets.push_back(packet_json(pk));
      json dj = {{"size", d.size}, {"packets", packets}, {"hex", hex(buf, static_cast<size_t>(n))}};
      if (!d.error.empty()) dj["error"] = d.error;
      if (c.datagrams.size() < 64) c.datagrams.push_back(dj);
      auto hello = c.reader.client_hello();
      if (!hello) continue;
      c.reported = true;
      const std::string line = report(peer, c, *hello).dump() + "\n";
      if (log_path.empty()) {
        std::fputs(line.c_str(), stdout);
        std::fflush(stdout);
      } else {
        std::ofstream(log_path, std::ios::app) << line;
      }
    }
  }
}
