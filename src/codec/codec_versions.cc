#include "codec/codec_versions.h"

#include <brotli/decode.h>
#include <zlib.h>
#include <zstd.h>

namespace tlsc {

std::string zlib_library_version() { return zlibVersion(); }

std::string brotli_library_version() {
  const uint32_t v = BrotliDecoderVersion();  // 0xMMMmmmppp, 12 bits each
  return std::to_string(v >> 24) + "." + std::to_string((v >> 12) & 0xfff) + "." + std::to_string(v & 0xfff);
}

std::string zstd_library_version() { return ZSTD_versionString(); }

}  // namespace tlsc
