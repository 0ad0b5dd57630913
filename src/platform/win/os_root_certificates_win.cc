// The certificates of the system's ROOT store (the local machine's and the
// user's, as CertOpenSystemStore combines them).
#include "platform/win/winsock.h"
// wincrypt.h after windows.h.
#include <wincrypt.h>

#include "platform/os_root_certificates.h"

namespace tlsc {

std::vector<std::string> os_root_certificates() {
  std::vector<std::string> out;
  HCERTSTORE store = CertOpenSystemStoreW(0, L"ROOT");
  if (store == nullptr) return out;
  PCCERT_CONTEXT cert = nullptr;
  while ((cert = CertEnumCertificatesInStore(store, cert)) != nullptr) {
    if (cert->dwCertEncodingType & X509_ASN_ENCODING) {
      out.emplace_back(reinterpret_cast<const char*>(cert->pbCertEncoded), cert->cbCertEncoded);
    }
  }
  CertCloseStore(store, 0);
  return out;
}

}  // namespace tlsc
