#include "tls/hostname_error_text.h"

#include <algorithm>
#include <vector>

#include <openssl/x509v3.h>

#include "core/ascii.h"
#include "platform/socket_address.h"

namespace tlsc {
namespace {

bool is_ip(const std::string& host) { return SocketAddress::from_ip_literal(host, 0).has_value(); }

// net.IP's String: dotted IPv4 (IPv4-mapped IPv6 included), else RFC 5952.
std::string ip_text(const ASN1_OCTET_STRING* ip) {
  const unsigned char* d = ASN1_STRING_get0_data(ip);
  const int n = ASN1_STRING_length(ip);
  static const unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  SocketAddress a;
  if (n == 4 || (n == 16 && std::equal(kMapped, kMapped + 12, d))) {
    a.family = IpFamily::v4;
    std::copy(d + n - 4, d + n, a.ip.begin());
  } else if (n == 16) {
    a.family = IpFamily::v6;
    std::copy(d, d + 16, a.ip.begin());
  } else {
    return "?";
  }
  return a.ip_string();
}

// Go's matchHostnames, enough for the legacy Common Name case: equal
// ignoring case, or a "*." pattern standing for the host's first label.
bool matches(std::string pattern, std::string host) {
  pattern = ascii_lowercase(pattern);
  host = ascii_lowercase(host);
  if (pattern == host) return true;
  if (!pattern.starts_with("*.")) return false;
  const size_t dot = host.find('.');
  return dot != std::string::npos && dot > 0 && host.substr(dot) == pattern.substr(1);
}

std::string common_name(X509* leaf) {
  X509_NAME* subject = X509_get_subject_name(leaf);
  const int i = X509_NAME_get_index_by_NID(subject, NID_commonName, -1);
  if (i < 0) return "";
  const ASN1_STRING* s = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, i));
  return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)), ASN1_STRING_length(s));
}

}  // namespace

std::string hostname_error_text(X509* leaf, const std::string& host) {
  if (leaf == nullptr) return "x509: certificate is not valid for " + host;
  std::vector<std::string> dns, ips;
  auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(leaf, NID_subject_alt_name, nullptr, nullptr));
  const bool has_san = names != nullptr;
  for (size_t i = 0; names != nullptr && i < sk_GENERAL_NAME_num(names); ++i) {
    const GENERAL_NAME* g = sk_GENERAL_NAME_value(names, i);
    if (g->type == GEN_DNS) {
      const ASN1_STRING* s = g->d.dNSName;
      dns.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)), ASN1_STRING_length(s));
    } else if (g->type == GEN_IPADD) {
      ips.push_back(ip_text(g->d.iPAddress));
    }
  }
  GENERAL_NAMES_free(names);
  if (!has_san && matches(common_name(leaf), host))
    return "x509: certificate relies on legacy Common Name field, use SANs instead";
  std::string valid;
  if (is_ip(host)) {
    if (ips.empty())
      return "x509: cannot validate certificate for " + host + " because it doesn't contain any IP SANs";
    for (const auto& ip : ips) valid += (valid.empty() ? "" : ", ") + ip;
  } else {
    for (const auto& name : dns) valid += (valid.empty() ? "" : ", ") + name;
  }
  if (valid.empty()) return "x509: certificate is not valid for any names, but wanted to match " + host;
  return "x509: certificate is valid for " + valid + ", not " + host;
}

}  // namespace tlsc
