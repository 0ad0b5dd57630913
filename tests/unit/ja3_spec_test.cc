#include <catch2/catch.hpp>

#include "abi/custom_tls_client.h"

using tlsc::CustomTlsClientInput;
using tlsc::spec_from_custom_tls_client;

namespace {

CustomTlsClientInput chrome_like() {
  CustomTlsClientInput c;
  c.ja3_string =
      "771,4865-4866-4867-49195-49199-49196-49200-52393-52392-49171-49172-156-157-47-53,"
      "0-23-65281-10-11-35-16-5-13-18-51-45-43-27-17513-21,29-23-24,0";
  c.supported_signature_algorithms = {"ECDSAWithP256AndSHA256", "PSSWithSHA256",  "PKCS1WithSHA256",
                                      "ECDSAWithP384AndSHA384", "PSSWithSHA384",  "PKCS1WithSHA384",
                                      "PSSWithSHA512",          "PKCS1WithSHA512"};
  c.supported_versions = {"GREASE", "1.3", "1.2"};
  c.key_share_curves = {"GREASE", "X25519"};
  c.alpn_protocols = {"h2", "http/1.1"};
  c.alps_protocols = {"h2"};
  c.cert_compression_algos = {"brotli"};
  return c;
}

}  // namespace

TEST_CASE("ja3 spec: a Chrome-like customTlsClient", "[ja3]") {
  auto spec = spec_from_custom_tls_client(chrome_like());
  REQUIRE(spec.ok());
  CHECK(spec->cipher_suites.size() == 15);
  CHECK(spec->cipher_suites.front() == 4865);
  CHECK(spec->extensions ==
        std::vector<uint16_t>{0, 23, 65281, 10, 11, 35, 16, 5, 13, 18, 51, 45, 43, 27, 17513, 21});
  CHECK(spec->supported_groups == std::vector<uint16_t>{29, 23, 24});
  CHECK(spec->point_formats == std::vector<uint8_t>{0});
  CHECK(spec->signature_algorithms.front() == 0x0403);
  CHECK(spec->versions == std::vector<uint16_t>{tlsc::kGrease, 0x0304, 0x0303});
  CHECK(spec->key_share_groups == std::vector<uint16_t>{tlsc::kGrease, 29});
  CHECK(spec->cert_compression == std::vector<uint16_t>{2});
}

TEST_CASE("ja3 spec: upstream's errors", "[ja3]") {
  auto c = chrome_like();
  c.ja3_string = "771,4865,0-99,29,0";
  CHECK(spec_from_custom_tls_client(c).error().message == "unknown extension with id 99 provided");
  c.ja3_string = "771,4865,0-27,29,0";
  c.cert_compression_algos.clear();
  CHECK(spec_from_custom_tls_client(c).error().message == "unknown extension with id 27 provided");
  c.ja3_string = "771,48x65,0,29,0";
  CHECK(spec_from_custom_tls_client(c).error().message ==
        "strconv.ParseUint: parsing \"48x65\": invalid syntax");
  c.ja3_string = "771,4865,0,29,300";
  CHECK(spec_from_custom_tls_client(c).error().message ==
        "strconv.ParseUint: parsing \"300\": value out of range");
  c.ja3_string = "771,4865";
  CHECK_FALSE(spec_from_custom_tls_client(c).ok());
  c = chrome_like();
  c.supported_signature_algorithms = {"NotAnAlgorithm"};
  CHECK(spec_from_custom_tls_client(c).error().message ==
        "NotAnAlgorithm is not a valid supportedSignatureAlgorithm");
  c.supported_signature_algorithms = {"0806", "ffff"};  // hex code points are accepted
  CHECK(spec_from_custom_tls_client(c)->signature_algorithms == std::vector<uint16_t>{0x0806, 0xffff});
}

TEST_CASE(
    "ja3 spec: an extension the JA3 names with an empty list goes out as an empty list, as utls sends it",
    "[ja3]") {
  CustomTlsClientInput c;
  c.ja3_string = "771,4865,0-10-13-16-17513-28-34-43-51,,0";
  c.supported_versions = {"1.3"};
  c.key_share_curves = {"X25519"};
  auto spec = spec_from_custom_tls_client(c);
  REQUIRE(spec.ok());
  const std::string empty("\0\0", 2);
  for (uint16_t e : {10, 13, 16, 17513, 28, 34}) {
    INFO(e);
    REQUIRE(spec->raw_extensions.count(e) == 1);
    CHECK(spec->raw_extensions.at(e) == empty);
  }
  CHECK(spec->raw_extensions.count(0) == 0);
  // supported_versions with nothing in it: utls refuses to build the hello.
  c.supported_versions = {"GREASE"};
  CHECK(spec_from_custom_tls_client(c).error().message ==
        "SupportedVersions extension has invalid Versions field");
}
