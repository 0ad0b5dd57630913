// Shared pieces of the integration tests: the library loaded with dlopen as
// a binding loads it, and (servers.h) the loopback servers the tests talk to.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "servers.h"

namespace itest {

using json = nlohmann::json;

struct Library {
  char* (*request)(char*);
  char* (*getCookiesFromSession)(char*);
  char* (*addCookiesToSession)(char*);
  char* (*freeMemory)(char*);
  char* (*destroySession)(char*);
  char* (*destroyAll)();
  char* (*requestAsync)(char*);
  char* (*waitNext)(int);
  void (*setNotify)(void (*)(int));
  char* (*requestStream)(char*);
  char* (*readStream)(char*);
  char* (*readStreamAll)(char*);
  char* (*cancelStream)(char*);
  char* (*cancelRequest)(char*);
  char* (*wsConnect)(char*);
  char* (*wsRead)(char*);
  char* (*wsWrite)(char*);
  char* (*wsClose)(char*);
};

// Loaded once per process from TLSC_LIBRARY_PATH.
const Library& lib();

// A bound on how long a bulk transfer may take, scaled by
// TLSC_TEST_TIME_SCALE (tests/run_all.sh sets it for the sanitizer builds,
// which move bytes several times slower).
double time_limit(double seconds);

// A status-0 response carries a known errorCode and nothing else does.
// call(), call_raw() and call_fn() check every response they return.
void check_response_shape(const json& r);

// Calls request() and frees the result, as every binding does.
json call(const json& input);
json call_raw(const char* text);  // the exact bytes, or nullptr
json call_fn(char* (*fn)(char*), const json& input);
// Lowercase hex SHA-256 of the bytes.
std::string sha256_hex(const std::string& data);
// The certificatePinningHosts pin of a PEM certificate: the base64 SHA-256
// of its SubjectPublicKeyInfo (by the openssl command line).
std::string spki_pin(const std::string& pem_path);
// Standard base64 with padding, as Go's StdEncoding (decode throws on a bad byte).
std::string base64_encode(const std::string& bytes);
std::string base64_decode(const std::string& text);

}  // namespace itest
