#include "platform/file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tlsc {

std::optional<Error> append_to_file(const std::string& path, std::string_view text, size_t block,
                                    std::string_view trailer) {
  std::FILE* f = open_file_utf8(path, "ab");
  if (f == nullptr) return make_error(ErrorCode::file, "open " + path + ": " + std::strerror(errno));
  if (block == 0) block = 1024;
  bool ok = true;
  for (size_t off = 0; ok && off < text.size(); off += block) {
    size_t n = std::min(block, text.size() - off);
    ok = std::fwrite(text.data() + off, 1, n, f) == n;
  }
  if (ok && !trailer.empty()) ok = std::fwrite(trailer.data(), 1, trailer.size(), f) == trailer.size();
  int saved = errno;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) return make_error(ErrorCode::file, "write " + path + ": " + std::strerror(saved ? saved : errno));
  return std::nullopt;
}

}  // namespace tlsc
