#include "platform/file.h"

namespace tlsc {

std::FILE* open_file_utf8(const std::string& path, const char* mode) {
  return std::fopen(path.c_str(), mode);
}

}  // namespace tlsc
