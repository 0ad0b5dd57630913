#include "tls/trust_store.h"

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "platform/os_root_certificates.h"

namespace tlsc {
namespace {

// Go's crypto/x509 root_linux.go lists.
constexpr const char* kCertFiles[] = {
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/ssl/ca-bundle.pem",
    "/etc/pki/tls/cacert.pem",
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
    "/etc/ssl/cert.pem",
};
constexpr const char* kCertDirs[] = {"/etc/ssl/certs", "/etc/pki/tls/certs"};

bool exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

X509_STORE* load() {
  X509_STORE* store = X509_STORE_new();
  if (store == nullptr) return nullptr;
  const char* env_file = std::getenv("SSL_CERT_FILE");
  if (env_file != nullptr && *env_file != '\0') {
    X509_STORE_load_locations(store, env_file, nullptr);
  } else if (std::vector<std::string> roots = os_root_certificates(); !roots.empty()) {
    // Windows: the ROOT store, as Go verifies against it there.
    for (const std::string& der : roots) {
      const auto* p = reinterpret_cast<const uint8_t*>(der.data());
      if (X509* x = d2i_X509(nullptr, &p, static_cast<long>(der.size())); x != nullptr) {
        X509_STORE_add_cert(store, x);
        X509_free(x);
      }
    }
  } else {
    for (const char* f : kCertFiles) {
      if (exists(f) && X509_STORE_load_locations(store, f, nullptr) == 1) break;
    }
  }
  std::vector<std::string> dirs;
  const char* env_dir = std::getenv("SSL_CERT_DIR");
  if (env_dir != nullptr) {
    std::string all = env_dir;
    size_t start = 0;
    while (start <= all.size()) {
      size_t end = all.find(':', start);
      if (end == std::string::npos) end = all.size();
      if (end > start) dirs.push_back(all.substr(start, end - start));
      start = end + 1;
    }
  } else {
    dirs.assign(std::begin(kCertDirs), std::end(kCertDirs));
  }
  for (const auto& d : dirs) {
    if (exists(d)) X509_STORE_load_locations(store, nullptr, d.c_str());
  }
  // Roots we failed to read are simply absent: verification then fails
  // closed with "unknown authority".
  ERR_clear_error();
  return store;
}

}  // namespace

X509_STORE* shared_trust_store() {
  static std::once_flag once;
  static X509_STORE* store = nullptr;
  std::call_once(once, [] { store = load(); });
  if (store != nullptr) X509_STORE_up_ref(store);
  return store;
}

}  // namespace tlsc
