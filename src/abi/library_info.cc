#include "abi/library_info.h"

#include <vector>

#include <nlohmann/json.hpp>

#include "codec/codec_versions.h"
#include "http/h2/nghttp2_version.h"
#include "http/h3/h3_dial.h"
#include "net/dns_resolver.h"
#include "platform/build_target.h"
#include "profiles/identifiers.h"
#include "profiles/registry.h"
#include "tls_client.h"

// Set by CMakeLists.txt from packaging/*/fetch.sh, the source each was built from.
#ifndef TLSC_BORINGSSL_SOURCE
#define TLSC_BORINGSSL_SOURCE "unknown"
#endif
#ifndef TLSC_NGHTTP2_SOURCE
#define TLSC_NGHTTP2_SOURCE "unknown"
#endif

namespace tlsc {
namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool all_upper(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  return !all_digits(s);
}

std::string join(const std::vector<std::string_view>& parts, size_t from, size_t to, char sep) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    if (i > from) out += sep;
    out += parts[i];
  }
  return out;
}

}  // namespace

ProfileNameParts split_profile_name(std::string_view name) {
  std::vector<std::string_view> parts;
  for (size_t pos = 0; pos <= name.size();) {
    size_t end = name.find('_', pos);
    if (end == std::string_view::npos) end = name.size();
    parts.push_back(name.substr(pos, end - pos));
    pos = end + 1;
  }
  size_t variant_from = parts.size();
  while (variant_from > 1 && all_upper(parts[variant_from - 1])) --variant_from;
  size_t version_from = variant_from;
  while (version_from > 1 && all_digits(parts[version_from - 1])) --version_from;
  return {join(parts, 0, version_from, '_'), join(parts, version_from, variant_from, '.'),
          join(parts, variant_from, parts.size(), '_')};
}

const std::string& library_info_json() {
  static const std::string info = [] {
    nlohmann::json profiles = nlohmann::json::array();
    for (const Profile& p : all_profiles()) {
      const ProfileNameParts parts = split_profile_name(p.name);
      profiles.push_back({{"name", p.name},
                          {"aliases", p.aliases},
                          {"client", parts.client},
                          {"clientVersion", parts.version},
                          {"variant", parts.variant}});
    }
    nlohmann::json dependencies = {{"boringssl", TLSC_BORINGSSL_SOURCE},
                                   {"nghttp2", nghttp2_library_version() + " (" TLSC_NGHTTP2_SOURCE ")"},
                                   {"c-ares", cares_library_version()},
                                   {"zlib", zlib_library_version()},
                                   {"brotli", brotli_library_version()},
                                   {"zstd", zstd_library_version()}};
    for (const auto& [name, version] : http3_library_versions()) dependencies[name] = version;
    const nlohmann::json doc = {
        {"name", "tls-client-cpp"},
        {"version", TLS_CLIENT_CPP_VERSION},
        {"upstream",
         {{"repository", "github.com/bogdanfinn/tls-client"},
          {"version", TLS_CLIENT_CPP_UPSTREAM_VERSION},
          // Merged or in review upstream after that commit, and followed here.
          {"pullRequests", {"#247 streaming", "#251 WebSocket", "#259 chrome_150", "#265 chrome_152"}}}},
        {"platform", kBuildTarget},
        {"dependencies", std::move(dependencies)},
        // Whether requests with withProtocolRacing or withAltSvc may go over HTTP/3.
        {"http3", http3_available()},
        {"defaultProfile", kDefaultProfile},
        {"profiles", std::move(profiles)},
    };
    return doc.dump();
  }();
  return info;
}

}  // namespace tlsc
