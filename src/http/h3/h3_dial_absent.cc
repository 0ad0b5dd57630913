// The build without QUIC libraries (CMakeLists.txt compiles this file
// instead of h3_dial.cc and src/conn/quic/): no HTTP/3, so the pool never
// races (http3_available) and requests go over TCP.
#include "http/h3/h3_dial.h"

namespace tlsc {

bool http3_available() { return false; }

std::vector<std::pair<std::string, std::string>> http3_library_versions() { return {}; }

bool prepare_http3_tls(TlsOptions&) { return false; }

std::unique_ptr<H3Dial> dial_h3(Reactor&, DnsResolver&, H3DialPlan, std::string, H3Dial::Done,
                                H3Dial::Retired) {
  return nullptr;
}

}  // namespace tlsc
