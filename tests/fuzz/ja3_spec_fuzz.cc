// customTlsClient JSON → spec: the caller controls every byte of it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "abi/custom_tls_client.h"
#include "abi/request_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // Raw text as the JA3 string, and the whole input as a RequestInput.
  tlsc::CustomTlsClientInput c;
  c.ja3_string = std::string(text);
  c.cert_compression_algos = {"brotli"};
  (void)tlsc::spec_from_custom_tls_client(c);
  auto in = tlsc::parse_request_input(text);
  if (in && in->custom_tls_client) (void)tlsc::spec_from_custom_tls_client(*in->custom_tls_client);
  return 0;
}
