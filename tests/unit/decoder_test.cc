// Content-Encoding decoders: round trips of every codec fed in small
// pieces, multi-member / multi-frame bodies, and the truncated and corrupt
// inputs that must fail the way Go's readers fail.
#include "codec/decoder.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>
#include <zlib.h>
#include <zstd.h>

using namespace std::string_literals;
using namespace std::string_view_literals;
using tlsc::BodyDecoder;

namespace {

// Brotli vectors made with libbrotlienc (not linked into the tests); the
// plain text of kBrSample is sample(20000) below.
// kBrHello: 13 -> 17 bytes
constexpr std::string_view kBrHello =
    "\x0b\x06\x80\x68\x65\x6c\x6c\x6f\x2c\x20\x62\x72\x6f\x74\x6c\x69\x03"sv;
// kBrEmpty: 0 -> 1 bytes
constexpr std::string_view kBrEmpty = "\x06"sv;
// kBrSample: 20000 -> 1828 bytes
constexpr std::string_view kBrSample =
    "\xe2\xc3\x09\x80\xe8\x60\x69\xfe\x8d\xaa\x90\xac\x10\x78\xe7\x6e\x74\x4f\x8b\x66\xa5\xd4\x8f\x24"
    "\x63\x34\x87\x4e\x87\x2c\x23\x6e\x27\x99\x45\x53\x0d\x69\xbe\x1a\xd6\x9d\xb7\x0b\x65\x9a\xad\x60"
    "\x08\x09\x80\x81\x7e\x2e\xf9\x32\x8f\xec\xe1\x4a\xda\x2a\x62\xd1\x6f\xf7\x7f\x1d\xb6\xa7\xe5\x42"
    "\xfe\x17\x87\xf3\x6d\x79\x5c\x6c\x2f\xf7\xe7\x71\x91\xf5\xff\xb9\xb8\x6f\x1f\x8b\xe1\xb8\x7c\x2c"
    "\x86\x3f\xc7\xbf\xef\xfc\xdb\x8e\xaf\x27\xb6\xdf\x3f\x57\xf5\xbf\xfd\xfc\x7a\xd8\xbe\x7b\x7d\xeb"
    "\x36\x27\xcc\xdb\x3a\x2e\xa4\xb3\x9f\x6f\xd9\xa5\xfa\x24\xe1\xd1\x75\xe3\x63\xe9\xca\x2b\xe6\xc3"
    "\xba\xf8\xf3\x23\x63\xdb\x26\x20\x91\x18\xa3\x39\x82\xb1\xc2\x51\x6c\xdf\x13\x69\x63\x83\x03\x8c"
    "\x3d\xe9\xae\x2b\x7a\x38\x80\xf7\x6b\x9a\x39\xe6\x2e\x97\x22\x51\x88\xc4\x78\x58\xba\x3d\xfc\x97"
    "\xdb\x2d\xd1\xd4\x76\x5f\x50\xd1\x3f\x4c\xbe\x69\xc8\x13\x3e\xad\xd2\x32\x9e\x32\xaa\x89\x88\xa7"
    "\xf9\x39\x54\x32\x6a\x6d\xc1\x57\x0c\x58\xc3\xb0\xdf\x5a\x1c\x5b\x18\xf6\x6b\x4b\x60\x05\x03\x0e"
    "\x04\x74\x8c\x05\xf0\xd8\x09\xc0\x36\x0b\x52\xfb\x50\x90\xb8\xb7\x20\x3b\xc6\x02\x3a\x1e\xb6\xa5"
    "\x8f\x69\x41\xe9\x18\xf4\x94\xf6\xa1\xa5\x1e\xaf\xb3\x00\xbf\x77\x40\xcb\x65\xb9\x8e\x9f\xef\x84"
    "\xb1\x25\x30\xc9\x11\x97\x19\x3e\xc6\x30\xf6\x04\xd8\x9c\xe5\x32\xe1\xad\x17\x68\x0a\xac\x60\x18"
    "\x5f\x28\xb0\x23\x00\xf7\xa6\xd4\x45\x81\x19\x86\xb1\x84\x02\x47\x02\xd0\x37\x94\xfa\x18\x0c\xe0"
    "\x3b\xc4\x65\x1a\x6b\x51\xe0\xe2\x3b\xe1\x5d\xe8\x32\xf5\x31\x4d\x81\xab\x2f\x43\xaf\x21\x03\xa4"
    "\x2d\x02\x97\x77\xa1\xc0\x25\x26\x2e\xcf\x75\x2c\x7d\x19\xc6\x1b\x0a\x7c\x60\xc0\x0f\x86\x71\x87"
    "\x02\x3b\x18\xc6\x0b\x0a\xac\xf1\x63\xcc\x28\x3c\x62\x42\x59\xbf\x26\xc5\x78\x42\xd1\xa1\xc0\x86"
    "\x09\xef\x74\x81\xb3\xc6\x72\x39\xe3\x61\x11\xd5\x16\x4a\x78\x6a\x02\x4d\xde\xc7\x42\x40\xcf\xbd"
    "\x82\x90\x1a\x4b\x10\x82\x2b\x72\xbd\x2f\x3e\x29\x30\xf8\x4e\x98\xb3\x04\x61\x35\xaf\x20\xac\xc6"
    "\x72\x45\xae\x6f\xd7\xa6\xc0\xe4\x3b\x41\x11\x51\xbb\x37\x05\x2e\x9a\x90\xeb\x82\x40\xcd\x2b\x08"
    "\xe4\x88\x2b\x84\x93\x2f\x03\x96\x04\x74\xec\x66\xbc\xd3\x9b\xa2\xc7\xf8\x0d\x4a\x23\x2a\x47\x28"
    "\x8d\x0d\x14\x7d\xcc\x50\x6c\xf7\x26\x3c\x7c\x5f\x02\x13\xda\x22\x80\xe6\x88\x0b\x36\x2e\xa2\xc0"
    "\xd6\x77\x42\x8d\x15\x81\xda\xfd\x25\xd0\x84\xfe\x8c\x01\x31\xf7\x0a\x10\xef\x10\x17\x6c\x8c\x16"
    "\x80\x1a\x4b\x00\xcc\x59\x02\x64\x8e\xb8\x90\xeb\xbd\x6f\x66\xd0\x84\x3e\x56\x23\x38\xb6\x28\xe1"
    "\xe7\x3b\xa1\xe6\x75\x41\xfd\xde\x01\x3d\x67\xbd\x01\x5a\x90\x52\x9b\x08\x52\xe6\x5e\x57\xe6\xfa"
    "\xf6\x69\x4a\xcc\xbe\x0c\x63\xc7\x8c\xda\xbd\x29\x71\x25\xa0\xfb\x86\x12\x0e\x62\x18\x5f\x28\x70"
    "\x86\x01\x0f\x26\xd4\x26\x82\xc4\x9c\xe5\x4a\x1b\x93\xcd\x78\xa7\x47\xe4\x5e\x5c\x41\x66\x2b\x80"
    "\xb5\xa2\x2b\xd5\xaf\x49\xd1\xfb\x9a\x02\x3b\x0b\xe8\x3e\xa4\xd4\xc7\xf4\x8c\x35\x7a\x04\xf7\xdc"
    "\x23\x58\xbb\x47\x90\x26\xe2\xea\x3b\xa1\x36\x71\x51\x78\x8b\x01\x33\x13\xe6\x2c\x17\x85\xb5\x26"
    "\x20\x60\x98\x80\xb1\x06\x11\x30\x6a\x2c\x17\xed\xe1\xfb\x02\xa4\xc0\x92\x00\xc4\x8e\xd2\x38\x31"
    "\x63\x8d\x2e\x20\xe7\x2c\x17\xe9\x7d\x3d\x63\x2f\xae\x89\x63\x45\x40\xd7\xbc\x02\x76\xad\xe8\x2a"
    "\xc3\xe8\xcb\x80\x1f\x13\x72\xc4\x55\xc2\x59\x7e\xf6\xb5\xab\x84\xb5\x26\xcc\xbd\xae\xd2\x38\x68"
    "\x46\xed\x2e\x28\x9f\xb3\x22\x8a\x88\xca\xf5\xa6\xea\xf7\xa6\xc0\xc3\x37\x80\xcf\x38\xa3\x76\x8f"
    "\xa8\xbd\xb8\x88\xa2\xa9\x70\xf4\x65\x18\x6f\x66\xec\xc5\x35\x15\xce\x04\xf4\x33\x52\xc2\x52\x13"
    "\xde\xe9\x82\x96\xda\xc4\xd5\x60\x6b\x0c\x63\x66\x46\xed\x2e\x68\xad\x79\x05\x6d\x39\x12\xd1\xb9"
    "\x2e\x68\xab\x4d\x22\x7a\x2f\x2e\xa2\xd7\xe8\x4d\x8d\x8d\xef\x8c\xb6\xcc\xf8\x0d\xbd\xa9\xf1\xd6"
    "\x84\x77\x7a\x53\xe3\x00\x03\x56\xcc\x68\x0b\x25\xfc\x14\xc0\x7b\x53\xc2\x4e\x0c\xb8\xc0\x30\x9e"
    "\x50\xe0\x05\xc3\xb6\x57\xa8\x6c\xba\xdf\xa1\x22\x38\x7d\x93\x90\x3e\xcd\x83\x93\xf3\xe7\xab\xfb"
    "\xa7\xcf\xeb\x19\xc7\xd9\x63\xa7\x97\x6c\x8b\x00\xd9\xf2\xbc\xf5\xe9\xaa\x7f\x41\xc5\xbd\x1a\xb4"
    "\xec\xec\x68\xaf\xa8\xc4\x69\xb2\x47\xcb\x13\x91\xd1\x39\x86\x13\x90\xe3\x70\x02\x71\xbc\x4f\xa0"
    "\x8e\xb1\x22\x0d\xce\x82\x4c\x15\x50\xd8\x97\x05\x8c\xa2\x80\xd5\xcf\x19\x50\x0b\x9d\x15\x95\x3a"
    "\xb1\x76\x3c\x0a\x5a\xed\xf6\x05\x0d\x8f\x77\xa2\x3b\x3a\xfb\xee\x79\x15\x07\x0b\x2a\x64\x5f\x15"
    "\xa8\x6a\xde\xdc\xa1\x8a\xba\xaa\xa3\xc1\x92\x84\x05\x76\x77\x16\x94\xb6\x5c\xe0\x36\xa3\x5d\x50"
    "\x4f\xec\x29\x08\x89\x2e\xaa\x88\x80\xb3\xa0\xb2\x41\x09\x58\x74\x6c\x92\x23\x39\x5e\x27\x52\xec"
    "\x42\x00\xde\x35\x17\x34\x1b\x67\x12\x74\x6c\x4d\x00\xf3\x66\x5d\x4b\x4f\xb5\x7e\x95\x00\x18\x93"
    "\xf9\xea\xb3\xcf\x2b\xaa\x7d\x8a\xd7\x06\xcb\xb3\x3a\xfd\x79\x13\xed\xab\x3e\x6f\x92\x32\xd4\x16"
    "\x4c\x25\x3a\xb6\x75\xce\x87\xb5\x7c\xc1\xb4\x84\x8d\x12\x66\xd8\x13\x47\x82\x3d\xeb\x2e\x19\x6f"
    "\x97\x9d\x72\xb7\x9f\x1c\x15\x9d\xe3\xf4\x16\x61\x27\x82\xc7\xfa\x04\xd4\x26\x04\xb0\x96\x27\xd0"
    "\x3a\x56\x27\xd2\xed\xa6\x37\x20\x04\xd4\x2a\x60\xdd\x88\xef\x0f\xbe\x4a\xd0\xd5\xe9\x05\xe5\x7d"
    "\xfb\x82\x2a\xa1\xa0\x4d\x5b\x9e\xe8\x8c\xce\x7e\x7f\xde\x45\x5c\x0b\x2e\x81\x1d\x9d\x1d\x05\x0e"
    "\x24\xd4\xb0\x0b\x01\xc9\x05\x37\xb1\x3d\x01\x91\x37\x11\xbe\xe9\xfe\x4e\x05\xae\x5d\xa4\x70\x46"
    "\x27\x22\xbe\xfc\xb9\xc3\x03\xe1\xec\x68\x1d\xdf\x13\x70\x9b\x71\x90\x63\x7b\x22\xd5\xde\x08\xd0"
    "\xcf\x29\xa0\xe4\xcd\x05\x67\xd8\x5a\x82\xb2\x06\xe5\xcb\xbe\x06\xfa\xaa\x88\xcc\x9b\x13\x2d\x76"
    "\x42\x10\xd9\x72\x41\x57\x74\xd6\x43\xec\xbb\xa0\xaf\x26\xc8\xbe\x6a\x85\xaa\x10\x80\xbc\x51\x84"
    "\xee\x03\x9c\x09\xb3\x9f\x66\x50\x10\xae\x56\x10\x8e\xe8\x64\xc2\x85\x03\x82\xf0\x2a\xa0\x20\x82"
    "\xab\xcd\x4c\xc0\x7e\xf4\xe9\x4c\x40\xd6\x67\x37\x44\x8a\x75\xba\x20\xa3\x72\xbe\x21\xb2\xa2\xe5"
    "\x15\x34\x38\x0b\x32\x6f\x5f\x50\xc2\x31\xe9\xa9\x7d\x00\x5b\x5b\x40\x55\x01\x11\xf1\xe3\xda\x57"
    "\x39\xa8\xfd\x79\x01\xa2\xf6\x21\x00\xf5\xd9\x05\x48\xe3\x42\x84\xee\x03\x9c\x81\xe2\x4a\x84\x51"
    "\x00\x43\x74\x32\x30\x30\x9b\xc7\xb1\x23\x01\xb5\x43\x93\x41\xc8\xf6\x62\xc0\x0e\x0f\xb0\x0d\x0c"
    "\x36\xc0\x80\x03\x82\xb4\xd5\xe6\x0d\xc8\xac\xab\x0a\x28\x08\xc0\x83\x13\x4f\x28\xd8\x3c\xd2\x21"
    "\x51\xce\x23\xc1\x04\xc5\x5d\xcd\x0a\xb4\x46\xa7\xa0\x81\xa1\x16\xd1\xfb\x00\x05\x29\x5e\x05\x14"
    "\xa4\x30\x6f\x32\xa9\xb2\x9d\x73\x40\xfe\x64\x90\x49\x93\xbd\x34\xe1\xcb\xea\xaf\x04\x54\xde\x14"
    "\xa4\xdb\xbb\xe6\x86\xf4\xc4\xed\x0b\x42\xb2\x2f\x2b\x22\x78\xd5\x80\x5a\x6d\x2a\x12\xfb\x00\xdc"
    "\xa1\x38\x5c\xcd\x93\xfa\x91\x33\x83\x4d\x30\x3c\x3a\xdd\x43\x6c\x6f\x0c\x38\xe3\x29\x6c\x07\xc3"
    "\x8f\x60\xf8\xd1\x47\xb9\x01\xbe\xa6\xc9\x64\xab\x77\x91\x82\x42\x01\x25\x7f\x09\x28\xa0\x4a\xde"
    "\x14\x50\x63\xbf\xb9\x80\x5a\x3b\x34\x05\x34\x7b\xd7\x5c\xa0\xe5\xfe\x72\xf1\xbf\x4d\xd8\xca\x39"
    "\x20\x7e\x09\xb8\x40\x6f\xfc\x48\x84\x63\x03\x01\xac\x02\x2e\x10\x6a\x4f\x1c\xc0\x3e\x38\x1a\x6c"
    "\x49\xa4\x63\x1b\x02\x58\x9f\x15\x90\xba\xa6\x29\x20\x51\x39\xdf\xc0\x12\x19\x41\x82\x8a\x5d\xcd"
    "\x02\x56\xed\xd0\x5c\x60\x9b\x3d\x9c\x1d\xc9\xfe\xbd\x50\x22\x36\xe2\x08\x6c\x89\xa3\xc0\xcc\xba"
    "\x5a\x35\x68\xa1\x34\x85\x3d\xd4\x61\x19\x3b\x3b\x07\xe0\x5d\x73\x43\x59\x5b\x5f\x26\xdc\xb1\x8b"
    "\x39\x08\xde\x14\x84\xa2\x8b\x0a\x02\x19\xc6\x2f\x10\x4d\x01\x7c\x46\xbb\xa1\xc0\x86\xfa\xaf\x32"
    "\x8f\x2e\x12\x64\xae\x69\x14\xc5\x7d\x80\x1b\x8a\xe1\x12\xb0\x56\x9b\x99\x2a\xd9\xc6\x39\x22\xa3"
    "\xe3\x69\xd9\x49\x0c\x76\x86\xa1\x5f\x55\xd1\x72\x16\xe0\x4c\x0b\xf6\x54\xa8\x9a\x73\x00\xf6\x9b"
    "\x0b\x5a\x7b\x57\xf3\x86\x36\xc7\xed\xd7\x8d\x39\x82\x16\xda\x55\xf6\x76\x76\x00\xbb\xe1\x68\x30"
    "\x21\x88\x98\xd1\x6e\xe8\x28\x8d\xf7\x17\x80\x99\x00\xc9\x85\x4e\xb1\x83\x39\x02\x7b\x11\x50\x6b"
    "\x9a\x82\xa6\x55\x01\x17\x9a\x89\xad\x12\x25\xd8\x87\x19\xfb\x00\x8a\xae\xb3\x00\x05\xdd\xbe\xda"
    "\xfc\xab\x6e\x00"sv;

// Deterministic, fairly compressible text.
std::string sample(size_t n) {
  std::string s;
  uint32_t x = 12345;
  while (s.size() < n) {
    s += "line " + std::to_string(s.size()) + ": lorem ipsum dolor sit amet ";
    x = x * 1103515245u + 12345u;
    s.push_back(static_cast<char>('a' + (x >> 16) % 26));
    s.push_back('\n');
  }
  s.resize(n);
  return s;
}

// Barely compressible bytes, so streams span many blocks.
std::string noise(size_t n) {
  std::string s(n, '\0');
  uint32_t x = 7;
  for (char& c : s) {
    x = x * 1664525u + 1013904223u;
    c = static_cast<char>(x >> 24);
  }
  return s;
}

// window_bits: 15 zlib, -15 raw, 31 gzip.
std::string deflate_with(std::string_view in, int window_bits, gz_header* header = nullptr, int level = 6) {
  z_stream s{};
  REQUIRE(deflateInit2(&s, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  if (header != nullptr) REQUIRE(deflateSetHeader(&s, header) == Z_OK);
  std::string out(deflateBound(&s, static_cast<uLong>(in.size())) + 1024, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  s.avail_in = static_cast<uInt>(in.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&s, Z_FINISH) == Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

std::string gzip(std::string_view in) { return deflate_with(in, 31); }
std::string zlib_wrap(std::string_view in) { return deflate_with(in, 15); }
std::string raw_deflate(std::string_view in) { return deflate_with(in, -15); }

std::string zstd(std::string_view in, bool checksum = true, int level = 3) {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  REQUIRE(c != nullptr);
  ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, checksum ? 1 : 0);
  std::string out(ZSTD_compressBound(in.size()), '\0');
  size_t n = ZSTD_compress2(c, out.data(), out.size(), in.data(), in.size());
  ZSTD_freeCCtx(c);
  REQUIRE_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

std::string le32(uint32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return s;
}

struct Decoded {
  std::string out;
  std::optional<tlsc::Error> error;
};

// Feeds `in` in pieces of `chunk` bytes (0: all at once), then finishes.
Decoded decode(std::string_view encoding, std::string_view in, size_t chunk = 0,
               size_t limit = BodyDecoder::kUnlimited) {
  auto d = BodyDecoder::create(encoding, limit);
  REQUIRE(d != nullptr);
  Decoded r;
  if (chunk == 0) chunk = in.size() + 1;
  while (!in.empty()) {
    std::string_view piece = in.substr(0, chunk);
    in.remove_prefix(piece.size());
    if ((r.error = d->feed(piece, r.out))) return r;
  }
  r.error = d->finish(r.out);
  return r;
}

std::string error_of(std::string_view encoding, std::string_view in, size_t chunk = 0) {
  Decoded r = decode(encoding, in, chunk);
  if (!r.error) return "<no error>";
  CHECK(r.error->code == tlsc::ErrorCode::decode);
  return r.error->message;
}

void check_round_trip(std::string_view encoding, std::string_view compressed, std::string_view plain) {
  for (size_t chunk : {size_t{0}, size_t{1}, size_t{2}, size_t{7}, size_t{4096}}) {
    INFO(encoding << " in chunks of " << chunk);
    Decoded r = decode(encoding, compressed, chunk);
    REQUIRE_FALSE(r.error.has_value());
    CHECK(r.out.size() == plain.size());
    CHECK(r.out == plain);
  }
}

// Every proper, non-empty prefix of a valid body must fail as truncated.
void check_truncations(std::string_view encoding, std::string_view compressed,
                       std::string_view want = "unexpected EOF") {
  for (size_t n = 1; n < compressed.size(); ++n) {
    INFO(encoding << " cut to " << n << " of " << compressed.size() << " bytes");
    CHECK(error_of(encoding, compressed.substr(0, n)) == want);
  }
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

TEST_CASE("decoder selection matches Go's switch exactly", "[decoder]") {
  for (auto e : {"gzip"sv, "deflate"sv, "br"sv, "zstd"sv}) CHECK(BodyDecoder::create(e) != nullptr);
  for (auto e : {""sv, "identity"sv, "GZIP"sv, "Gzip"sv, " gzip"sv, "gzip "sv, "x-gzip"sv, "gzip, br"sv,
                 "compress"sv, "BR"sv, "zstd;q=1"sv, "deflate\0"sv}) {
    INFO("encoding '" << e << "'");
    CHECK(BodyDecoder::create(e) == nullptr);
  }
}

TEST_CASE("gzip", "[decoder]") {
  const std::string text = sample(100000);
  SECTION("round trip") {
    check_round_trip("gzip", gzip(text), text);
    check_round_trip("gzip", gzip(""), "");
    const std::string bin = noise(70000);
    check_round_trip("gzip", gzip(bin), bin);
  }
  SECTION("concatenated members read as one body") {
    check_round_trip("gzip", gzip("first member\n") + gzip("") + gzip(text), "first member\n" + text);
  }
  SECTION("optional header fields, header CRC over the whole header") {
    std::string extra =
        "XY\x04\x00"
        "abcd";
    std::string name = "file.txt", comment = "a comment";
    gz_header h{};
    h.extra = reinterpret_cast<Bytef*>(extra.data());
    h.extra_len = static_cast<uInt>(extra.size());
    h.name = reinterpret_cast<Bytef*>(name.data());
    h.comment = reinterpret_cast<Bytef*>(comment.data());
    h.hcrc = 1;
    const std::string z = deflate_with(text, 31, &h);
    REQUIRE((static_cast<unsigned char>(z[3]) & 0x1e) == 0x1e);
    check_round_trip("gzip", z, text);
    check_truncations("gzip", z.substr(0, 60));
    std::string bad = z;
    const size_t crc_at = 10 + 2 + extra.size() + name.size() + 1 + comment.size() + 1;
    bad[crc_at] = static_cast<char>(bad[crc_at] ^ 1);
    CHECK(error_of("gzip", bad) == "gzip: invalid header");
  }
  SECTION("header strings are limited to 511 bytes") {
    const std::string body = gzip("x").substr(10);  // deflate data + trailer
    std::string hdr =
        "\x1f\x8b\x08\x08"
        "\0\0\0\0\0\xff"s;
    CHECK(decode("gzip", hdr + std::string(511, 'n') + '\0' + body).out == "x");
    CHECK(error_of("gzip", hdr + std::string(512, 'n') + '\0' + body) == "gzip: invalid header");
    CHECK(error_of("gzip", hdr + std::string(512, 'n'), 1) == "gzip: invalid header");
    CHECK(error_of("gzip", hdr + std::string(100, 'n')) == "unexpected EOF");
  }
  SECTION("empty body is an empty result, every truncation an error") {
    Decoded r = decode("gzip", "");
    CHECK_FALSE(r.error);
    CHECK(r.out.empty());
    check_truncations("gzip", gzip("hello, gzip"));
    const std::string two = gzip("a") + gzip("b");
    for (size_t n = 1; n < two.size(); ++n) {
      INFO("two members cut to " << n);
      // Ending exactly between members is a complete body.
      CHECK(error_of("gzip", two.substr(0, n)) == (n == gzip("a").size() ? "<no error>" : "unexpected EOF"));
    }
  }
  SECTION("corrupt input") {
    const std::string z = gzip(text);
    CHECK(error_of("gzip", "not gzip at all") == "gzip: invalid header");
    CHECK(error_of("gzip", "\x1f\x8b\x07"s + z.substr(3)) == "gzip: invalid header");
    std::string bad_crc = z;
    bad_crc[z.size() - 8] = static_cast<char>(bad_crc[z.size() - 8] ^ 0x55);
    CHECK(error_of("gzip", bad_crc) == "gzip: invalid checksum");
    std::string bad_size = z;
    bad_size[z.size() - 1] = static_cast<char>(bad_size[z.size() - 1] ^ 0x01);
    CHECK(error_of("gzip", bad_size) == "gzip: invalid checksum");
    // Block type 3 is reserved.
    std::string bad_block = z.substr(0, 10) + "\x07" + z.substr(11);
    CHECK(starts_with(error_of("gzip", bad_block), "flate: corrupt input before offset "));
  }
  SECTION("what may follow a member") {
    const std::string z = gzip("abc");
    CHECK(error_of("gzip", z + "0123456789") == "gzip: invalid header");
    CHECK(error_of("gzip", z + "\0\0\0\0\0\0\0\0\0\0"s) == "gzip: invalid header");
    CHECK(error_of("gzip", z + "012345678") == "unexpected EOF");
    CHECK(error_of("gzip", z + "\x1f") == "unexpected EOF");
  }
}

TEST_CASE("deflate: zlib-wrapped or raw by the first two bytes", "[decoder]") {
  const std::string text = sample(60000);
  SECTION("round trips") {
    for (int level : {1, 6, 9}) {
      INFO("level " << level);
      check_round_trip("deflate", deflate_with(text, 15, nullptr, level), text);
      check_round_trip("deflate", deflate_with(text, -15, nullptr, level), text);
    }
    check_round_trip("deflate", zlib_wrap(""), "");
    check_round_trip("deflate", raw_deflate(""), "");
    const std::string bin = noise(50000);
    check_round_trip("deflate", zlib_wrap(bin), bin);
    check_round_trip("deflate", raw_deflate(bin), bin);
  }
  SECTION("smaller zlib windows still count as zlib") {
    check_round_trip("deflate", deflate_with(text, 9), text);
    check_round_trip("deflate", deflate_with(text, 12), text);
  }
  SECTION("empty body stays empty; truncations fail") {
    Decoded r = decode("deflate", "");
    CHECK_FALSE(r.error);
    CHECK(r.out.empty());
    check_truncations("deflate", zlib_wrap("hello, zlib"));
    for (size_t n = 1; n < raw_deflate(text).size(); n += 97) {
      INFO("raw cut to " << n);
      CHECK(decode("deflate", raw_deflate(text).substr(0, n)).error.has_value());
    }
  }
  SECTION("trailing bytes after the stream are ignored, as in Go") {
    CHECK(decode("deflate", zlib_wrap("abc") + "garbage").out == "abc");
    CHECK_FALSE(decode("deflate", zlib_wrap("abc") + "garbage").error);
    CHECK(decode("deflate", raw_deflate("abc") + "garbage").out == "abc");
  }
  SECTION("zlib errors") {
    std::string z = zlib_wrap(text);
    z[z.size() - 1] = static_cast<char>(z[z.size() - 1] ^ 0x10);
    CHECK(error_of("deflate", z) == "zlib: invalid checksum");
    // CINFO 8 passes the detection but not Go's zlib reader.
    unsigned cmf = 0x88, flg = 0;
    while (((cmf << 8) | flg) % 31 != 0) ++flg;
    CHECK(error_of("deflate", std::string{static_cast<char>(cmf), static_cast<char>(flg)} + "\x03\x00") ==
          "zlib: invalid header");
    CHECK(error_of("deflate", "\x78\x9c") == "unexpected EOF");
    CHECK(starts_with(error_of("deflate", "\x78\x9c\xff\xff\xff\xff"), "flate: corrupt input"));
  }
  SECTION("preset dictionary: Go accepts only the empty dictionary's Adler-32") {
    const std::string raw = raw_deflate("dict-less");
    unsigned flg = 0x20;
    while (((0x78u << 8) | flg) % 31 != 0) ++flg;
    const std::string hdr{'\x78', static_cast<char>(flg)};
    const std::string adler = [] {
      uint32_t a = static_cast<uint32_t>(adler32(1, reinterpret_cast<const Bytef*>("dict-less"), 9));
      return std::string{static_cast<char>(a >> 24), static_cast<char>(a >> 16), static_cast<char>(a >> 8),
                         static_cast<char>(a)};
    }();
    CHECK(decode("deflate", hdr + "\0\0\0\x01"s + raw + adler).out == "dict-less");
    CHECK(error_of("deflate", hdr + "\0\0\0\x02"s + raw + adler) == "zlib: invalid dictionary");
  }
}

TEST_CASE("brotli", "[decoder]") {
  SECTION("round trip") {
    check_round_trip("br", kBrHello, "hello, brotli");
    check_round_trip("br", kBrSample, sample(20000));
    check_round_trip("br", kBrEmpty, "");
  }
  SECTION("an empty body is truncated to brotli v1.2") { CHECK(error_of("br", "") == "unexpected EOF"); }
  SECTION("truncations") {
    check_truncations("br", kBrHello);
    check_truncations("br", kBrSample.substr(0, 300));
  }
  SECTION("input after the end of the stream") {
    CHECK(error_of("br", std::string(kBrHello) + "x") == "brotli: excessive input");
    auto d = BodyDecoder::create("br");
    std::string out;
    REQUIRE_FALSE(d->feed(kBrHello, out));
    CHECK(out == "hello, brotli");
    auto e = d->feed("more", out);
    REQUIRE(e);
    CHECK(e->message == "brotli: excessive input");
    CHECK_FALSE(d->finish(out) == std::nullopt);  // sticky
  }
  SECTION("empty feeds are no input at all") {
    auto d = BodyDecoder::create("br");
    std::string out;
    CHECK_FALSE(d->feed("", out));
    REQUIRE_FALSE(d->feed(kBrHello, out));
    CHECK_FALSE(d->feed("", out));
    CHECK_FALSE(d->finish(out));
    CHECK(out == "hello, brotli");
  }
  SECTION("corrupt input names the brotli error") {
    CHECK(starts_with(error_of("br", "\xff\xff\xff\xff\xff\xff"), "brotli: "));
    CHECK(error_of("br", "\xff\xff\xff\xff\xff\xff") != "unexpected EOF");
  }
}

TEST_CASE("zstd", "[decoder]") {
  const std::string text = sample(200000);
  SECTION("round trip") {
    check_round_trip("zstd", zstd(text), text);
    check_round_trip("zstd", zstd(text, false, 19), text);
    check_round_trip("zstd", zstd(""), "");
    const std::string bin = noise(300000);
    check_round_trip("zstd", zstd(bin), bin);
  }
  SECTION("frames ending exactly on the decoder's 32 KiB output chunk") {
    for (size_t n : {size_t{32768}, size_t{65536}, size_t{32767}, size_t{32769}}) {
      INFO("size " << n);
      const std::string t = sample(n);
      check_round_trip("zstd", zstd(t), t);
      check_round_trip("zstd", zstd(t) + zstd(t), t + t);
      check_round_trip("gzip", gzip(t), t);
      check_round_trip("deflate", zlib_wrap(t), t);
    }
  }
  SECTION("concatenated and skippable frames") {
    const std::string skippable = le32(0x184D2A5A) + le32(5) + "12345";
    check_round_trip("zstd", zstd("one,") + skippable + zstd("") + zstd(text) + skippable, "one," + text);
  }
  SECTION("empty body is empty; truncations and trailing fragments fail") {
    Decoded r = decode("zstd", "");
    CHECK_FALSE(r.error);
    CHECK(r.out.empty());
    check_truncations("zstd", zstd("hello, zstd"));
    CHECK(error_of("zstd", zstd("a") + "\x28\xb5") == "unexpected EOF");
    CHECK(error_of("zstd", zstd("a") + "x") == "unexpected EOF");
    CHECK(error_of("zstd", zstd("a") + "xyz", 1) == "unexpected EOF");
    CHECK(starts_with(error_of("zstd", zstd("a") + "wxyz", 1), "zstd: "));
  }
  SECTION("corrupt input") {
    CHECK(starts_with(error_of("zstd", zstd("a") + "garbage!"), "zstd: "));
    CHECK(error_of("zstd", "definitely not zstd") == "zstd: invalid input: magic number mismatch");
    CHECK(error_of("zstd", zstd("a") + "garbage!", 1) == "zstd: invalid input: magic number mismatch");
    // Legacy v0.7 frame magic: libzstd could decode it, klauspost cannot.
    CHECK(error_of("zstd", le32(0xFD2FB527) + "\x00\x00\x00\x00"s) ==
          "zstd: invalid input: magic number mismatch");
    std::string z = zstd(text);
    z[z.size() - 1] = static_cast<char>(z[z.size() - 1] ^ 0x40);  // content checksum
    CHECK(starts_with(error_of("zstd", z), "zstd: "));
  }
}

TEST_CASE("output limit guards against decompression bombs", "[decoder]") {
  const std::string zeros(8 << 20, '\0');
  const std::string bombs[] = {gzip(zeros), zlib_wrap(zeros), raw_deflate(zeros), zstd(zeros)};
  const char* encodings[] = {"gzip", "deflate", "deflate", "zstd"};
  for (size_t i = 0; i < 4; ++i) {
    INFO(encodings[i] << " bomb of " << bombs[i].size() << " bytes");
    CHECK(bombs[i].size() < 40000);
    Decoded r = decode(encodings[i], bombs[i], 0, 1 << 20);
    REQUIRE(r.error);
    CHECK(r.error->code == tlsc::ErrorCode::body_too_large);
    CHECK(r.error->message == "response body too large: over 1048576 bytes (maxResponseBodyBytes)");
    CHECK(r.out.size() <= (1u << 20));
  }
  SECTION("the limit itself is allowed") {
    const std::string text = sample(5000);
    CHECK_FALSE(decode("gzip", gzip(text), 3, 5000).error);
    CHECK(decode("gzip", gzip(text), 3, 4999).error);
    CHECK_FALSE(decode("br", kBrSample, 0, 20000).error);
    CHECK(decode("br", kBrSample, 0, 19999).error);
  }
}

TEST_CASE("errors are sticky", "[decoder]") {
  auto d = BodyDecoder::create("gzip");
  std::string out;
  auto e1 = d->feed("garbage garbage", out);
  REQUIRE(e1);
  auto e2 = d->feed(gzip("fine"), out);
  REQUIRE(e2);
  CHECK(e2->message == e1->message);
  auto e3 = d->finish(out);
  REQUIRE(e3);
  CHECK(e3->message == e1->message);
  CHECK(out.empty());
}

TEST_CASE("decoder: a zstd frame naming a dictionary is refused, whole or in pieces", "[decoder]") {
  // Magic, a header with dictionary id 0x4d, then an empty raw block: libzstd
  // ignores the id when the frame arrives whole and refuses it when it
  // streams; klauspost (upstream) has no dictionaries and refuses it.
  const std::string frame("\x28\xb5\x2f\xfd\x51\x2a\x4d\x18\x04\x01\x00\x00", 12);
  for (size_t chunk : {frame.size(), size_t{1}}) {
    auto d = tlsc::BodyDecoder::create("zstd");
    std::string out;
    std::optional<tlsc::Error> e;
    for (size_t i = 0; i < frame.size() && !e; i += chunk) e = d->feed(frame.substr(i, chunk), out);
    if (!e) e = d->finish(out);
    REQUIRE(e.has_value());
    CHECK(e->message == "zstd: unknown dictionary");
  }
}

TEST_CASE("feed_some: a body decodes in bounded steps to the same bytes", "[decoder]") {
  // 8 MiB of zeros in a few KiB: one feed would make all of it in one call;
  // in steps, no call makes more than its bound and a 32 KiB piece.
  const std::string zeros(8 << 20, '\0');
  const std::string text = sample(20000);
  struct Case {
    const char* encoding;
    std::string body;
    std::string plain;
  };
  const Case cases[] = {
      {"gzip", gzip(zeros), zeros},         {"gzip", gzip(text) + gzip(text), text + text},
      {"deflate", zlib_wrap(zeros), zeros}, {"deflate", raw_deflate(zeros), zeros},
      {"zstd", zstd(zeros), zeros},         {"zstd", zstd(text) + zstd(zeros), text + zeros},
      {"br", std::string(kBrSample), text}};
  for (const Case& c : cases) {
    for (size_t bound : {size_t{1}, size_t{4096}, size_t{1} << 20}) {
      INFO(c.encoding << " of " << c.body.size() << " bytes, steps of " << bound);
      auto d = BodyDecoder::create(c.encoding);
      std::string out;
      std::string_view in = c.body;
      size_t steps = 0;
      bool more = false;
      // Bounded: at most one step per output byte and input byte, and then some.
      while ((!in.empty() || more) && steps < c.plain.size() + c.body.size() + 10) {
        const size_t before = out.size();
        REQUIRE_FALSE(d->feed_some(in, out, bound, more).has_value());
        CHECK(out.size() - before <= bound + 32 * 1024);
        ++steps;
      }
      CHECK(in.empty());
      CHECK_FALSE(more);
      CHECK_FALSE(d->finish(out).has_value());
      CHECK(out.size() == c.plain.size());
      CHECK(out == c.plain);
      if (c.plain.size() > 2 * (bound + 32 * 1024)) CHECK(steps > 1);
    }
  }
  SECTION("errors come out of steps as out of feed") {
    auto d = BodyDecoder::create("gzip");
    std::string broken = gzip(text);
    broken[broken.size() / 2] ^= 0x55;
    std::string out;
    std::string_view in = broken;
    bool more = false;
    std::optional<tlsc::Error> e;
    for (int i = 0; i < 100000 && !e && (!in.empty() || more); ++i) e = d->feed_some(in, out, 100, more);
    if (!e) e = d->finish(out);
    REQUIRE(e);
    CHECK(e->message == error_of("gzip", broken));
  }
}
