// tls_handshake_error: the text a failed handshake is reported with.
#include <catch2/catch.hpp>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "tls/tls_context.h"

namespace {

std::string message_for(int reason, const char* data = nullptr) {
  bssl::UniquePtr<SSL_CTX> ctx(SSL_CTX_new(TLS_method()));
  bssl::UniquePtr<SSL> ssl(SSL_new(ctx.get()));
  ERR_clear_error();
  ERR_put_error(ERR_LIB_SSL, 0, reason, __FILE__, __LINE__);
  if (data != nullptr) ERR_add_error_data(1, data);
  std::string m = tlsc::tls_handshake_error(ssl.get(), SSL_ERROR_SSL, "example.test").message;
  CHECK(ERR_peek_error() == 0);
  return m;
}

}  // namespace

TEST_CASE("tls errors: Go's text for early_data accepted but not offered, BoringSSL's for the rest", "[tls]") {
  CHECK(message_for(SSL_R_UNEXPECTED_EARLY_DATA_EXTENSION, "extension :42") ==
        "tls: server sent an unexpected early_data extension");
  CHECK(message_for(SSL_R_DATA_LENGTH_TOO_LONG, "record of 5204 bytes over the record_size_limit 1024") ==
        "tls: data length too long (record of 5204 bytes over the record_size_limit 1024)");
}
