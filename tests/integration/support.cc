#include "support.h"

#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <thread>

#include <catch2/catch.hpp>

namespace itest {

const Library& lib() {
  static const Library l = [] {
    // Name lookups in tests must never leave the machine: point the
    // library's resolver at a loopback name server that is not there.
    static const std::string conf = [] {
      std::string path = "/tmp/tlsc-itest-resolv.conf";
      if (FILE* f = std::fopen(path.c_str(), "w")) {
        std::fputs("nameserver 127.0.0.1\n", f);
        std::fclose(f);
      }
      return path;
    }();
    setenv("TLS_CLIENT_RESOLV_CONF", conf.c_str(), 1);
    // The test PKI's root is the only trusted root, as SSL_CERT_FILE says
    // (read once, on the first TLS connection).
    setenv("SSL_CERT_FILE", (cert_dir() + "/ca.pem").c_str(), 1);
    // Users' profile files (read once, when the library first needs a
    // profile): one good file that adds an identifier, one malformed file
    // that is reported and skipped (profiles_test.cc).
    setenv("TLS_CLIENT_PROFILES_DIR", TLSC_SOURCE_DIR "/tests/integration/data/user_profiles", 1);
    // TLSC_TEST_LIBRARY runs the suite against another build (a baseline).
    const char* path = std::getenv("TLSC_TEST_LIBRARY");
    void* h = dlopen(path != nullptr && *path != '\0' ? path : TLSC_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) throw std::runtime_error(std::string("dlopen: ") + dlerror());
    Library x{};
    auto sym = [h](const char* name) {
      void* p = dlsym(h, name);
      if (p == nullptr) throw std::runtime_error(std::string("missing symbol ") + name);
      return p;
    };
    x.request = reinterpret_cast<char* (*)(char*)>(sym("request"));
    x.getCookiesFromSession = reinterpret_cast<char* (*)(char*)>(sym("getCookiesFromSession"));
    x.addCookiesToSession = reinterpret_cast<char* (*)(char*)>(sym("addCookiesToSession"));
    x.freeMemory = reinterpret_cast<char* (*)(char*)>(sym("freeMemory"));
    x.destroySession = reinterpret_cast<char* (*)(char*)>(sym("destroySession"));
    x.destroyAll = reinterpret_cast<char* (*)()>(sym("destroyAll"));
    x.requestAsync = reinterpret_cast<char* (*)(char*)>(sym("requestAsync"));
    x.waitNext = reinterpret_cast<char* (*)(int)>(sym("waitNext"));
    x.setNotify = reinterpret_cast<void (*)(void (*)(int))>(sym("setNotify"));
    x.requestStream = reinterpret_cast<char* (*)(char*)>(sym("requestStream"));
    x.readStream = reinterpret_cast<char* (*)(char*)>(sym("readStream"));
    x.readStreamAll = reinterpret_cast<char* (*)(char*)>(sym("readStreamAll"));
    x.cancelStream = reinterpret_cast<char* (*)(char*)>(sym("cancelStream"));
    x.cancelRequest = reinterpret_cast<char* (*)(char*)>(sym("cancelRequest"));
    x.wsConnect = reinterpret_cast<char* (*)(char*)>(sym("wsConnect"));
    x.wsRead = reinterpret_cast<char* (*)(char*)>(sym("wsRead"));
    x.wsWrite = reinterpret_cast<char* (*)(char*)>(sym("wsWrite"));
    x.wsClose = reinterpret_cast<char* (*)(char*)>(sym("wsClose"));
    return x;
  }();
  return l;
}

namespace {

const std::thread::id kMainThread = std::this_thread::get_id();

}  // namespace

void check_response_shape(const json& r) {
  std::string problem = response_shape_problem(r);
  if (problem.empty()) return;  // (no dump of a 50 MiB body when all is well)
  if (std::this_thread::get_id() == kMainThread) {
    INFO(r.dump().substr(0, 2000));
    CHECK(problem == "");
    return;
  }
  // Catch's macros are not for other threads: fail loudly instead.
  if (!problem.empty()) {
    std::fprintf(stderr, "response shape: %s: %s\n", problem.c_str(), r.dump().substr(0, 2000).c_str());
    std::abort();
  }
}

double time_limit(double seconds) {
  const char* scale = std::getenv("TLSC_TEST_TIME_SCALE");
  double k = scale != nullptr ? std::atof(scale) : 1.0;
  return seconds * (k > 0 ? k : 1.0);
}

json call_fn(char* (*fn)(char*), const json& input) {
  std::string text = input.dump();
  char* out = fn(text.data());
  if (out == nullptr) throw std::runtime_error("library returned NULL");
  json r = json::parse(out);
  check_response_shape(r);
  if (r.contains("id") && r["id"].is_string()) {
    std::string id = r["id"];
    lib().freeMemory(id.data());
  }
  return r;
}

json call(const json& input) { return call_fn(lib().request, input); }

json call_raw(const char* text) {
  char* out = lib().request(const_cast<char*>(text));
  if (out == nullptr) throw std::runtime_error("library returned NULL");
  json r = json::parse(out);
  check_response_shape(r);
  std::string id = r.value("id", "");
  lib().freeMemory(id.data());
  return r;
}

std::string spki_pin(const std::string& pem_path) {
  const std::string cmd =
      "openssl x509 -in " + pem_path +
      " -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[128] = {};
  const bool read = fgets(buf, sizeof buf, p) != nullptr;
  pclose(p);
  REQUIRE(read);
  std::string pin(buf);
  while (!pin.empty() && (pin.back() == '\n' || pin.back() == '\r')) pin.pop_back();
  return pin;
}

// SHA-256 (FIPS 180-4), to check large bodies.
std::string sha256_hex(const std::string& data) {
  static const uint32_t k[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  auto rotr = [](uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  std::string msg = data;
  uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
  msg.push_back(static_cast<char>(0x80));
  while (msg.size() % 64 != 56) msg.push_back('\0');
  for (int i = 7; i >= 0; --i) msg.push_back(static_cast<char>((bits >> (i * 8)) & 0xff));
  for (size_t off = 0; off < msg.size(); off += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i) {
      const auto* p = reinterpret_cast<const unsigned char*>(msg.data() + off + 4 * i);
      w[i] = (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
    }
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
  }
  char out[65];
  for (int i = 0; i < 8; ++i) std::snprintf(out + 8 * i, 9, "%08x", h[i]);
  return std::string(out, 64);
}

namespace {
const std::string kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
}  // namespace

std::string base64_encode(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out.push_back(kBase64[(v >> s) & 63]);
  }
  if (i + 1 == bytes.size()) {
    const uint32_t v = uint8_t(bytes[i]) << 16;
    out += {kBase64[v >> 18], kBase64[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8);
    out += {kBase64[v >> 18], kBase64[(v >> 12) & 63], kBase64[(v >> 6) & 63], '='};
  }
  return out;
}

std::string base64_decode(const std::string& in) {
  std::string out;
  out.reserve(in.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=') break;
    auto v = kBase64.find(c);
    if (v == std::string::npos) throw std::runtime_error("bad base64");
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

}  // namespace itest
