// Adds a certificate to the current user's ROOT store, or removes it: how
// tests/windows/root_store_test.py trusts a throw-away CA the Windows way,
// to show that the library verifies against that store by default.
//
//   root_store_tool.exe add|remove CERT.der
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
// wincrypt.h after windows.h.
#include <wincrypt.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3 || (std::string(argv[1]) != "add" && std::string(argv[1]) != "remove")) {
    std::fprintf(stderr, "usage: root_store_tool add|remove CERT.der\n");
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  const std::string der((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (der.empty()) {
    std::fprintf(stderr, "root_store_tool: cannot read %s\n", argv[2]);
    return 1;
  }
  HCERTSTORE store = CertOpenSystemStoreW(0, L"ROOT");
  if (store == nullptr) {
    std::fprintf(stderr, "root_store_tool: CertOpenSystemStore: %lu\n", GetLastError());
    return 1;
  }
  const auto* bytes = reinterpret_cast<const BYTE*>(der.data());
  const auto size = static_cast<DWORD>(der.size());
  bool ok = false;
  if (std::string(argv[1]) == "add") {
    ok = CertAddEncodedCertificateToStore(store, X509_ASN_ENCODING, bytes, size,
                                          CERT_STORE_ADD_REPLACE_EXISTING, nullptr) != FALSE;
  } else {
    PCCERT_CONTEXT wanted = CertCreateCertificateContext(X509_ASN_ENCODING, bytes, size);
    PCCERT_CONTEXT found =
        wanted ? CertFindCertificateInStore(store, X509_ASN_ENCODING, 0, CERT_FIND_EXISTING, wanted, nullptr)
               : nullptr;
    ok = found != nullptr && CertDeleteCertificateFromStore(found) != FALSE;  // frees `found`
    if (wanted) CertFreeCertificateContext(wanted);
  }
  if (!ok) std::fprintf(stderr, "root_store_tool: %s failed: %lu\n", argv[1], GetLastError());
  CertCloseStore(store, 0);
  return ok ? 0 : 1;
}
