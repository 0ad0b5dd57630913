#include <cerrno>
#include <string>

#include "platform/file.h"
#include "platform/win/winsock.h"

namespace tlsc {

std::FILE* open_file_utf8(const std::string& path, const char* mode) {
  auto wide = [](const std::string& s) {
    std::wstring out;
    int n =
        MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s.data(), static_cast<int>(s.size()), nullptr, 0);
    if (n <= 0 && !s.empty()) return std::wstring();
    out.resize(static_cast<size_t>(n));
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s.data(), static_cast<int>(s.size()), out.data(), n);
    return out;
  };
  std::wstring wpath = wide(path);
  if (wpath.empty() || wpath.find(L'\0') != std::wstring::npos) {
    errno = EINVAL;  // not UTF-8, or empty: no such file name
    return nullptr;
  }
  return _wfopen(wpath.c_str(), wide(mode).c_str());
}

}  // namespace tlsc
