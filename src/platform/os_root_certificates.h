// The OS's trusted roots where they are not files: Windows keeps them in
// its ROOT certificate store, which Go's crypto/x509 verifies against on
// Windows. Linux (and macOS, whose /etc/ssl/cert.pem Go also reads) has
// them in files, which tls/trust_store.cc loads itself.
#pragma once

#include <string>
#include <vector>

namespace tlsc {

// Each root as DER bytes; empty where the OS keeps its roots in files.
std::vector<std::string> os_root_certificates();

}  // namespace tlsc
