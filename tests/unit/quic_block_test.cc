// profiles/quic_block: a profile's http3.quic block read into the QUIC
// fingerprint, from the built-in captured profiles and from bad blocks.
#include "profiles/quic_block.h"

#include <algorithm>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "profiles/registry.h"

using nlohmann::json;
using tlsc::QuicTransportParameter;

TEST_CASE("quic block: chromium_156 and firefox_153 carry their browsers' QUIC layer", "[quic][profiles]") {
  const tlsc::Profile* chromium = tlsc::lookup_profile("chromium_156");
  REQUIRE(chromium != nullptr);
  REQUIRE(chromium->quic.has_value());
  const tlsc::QuicFingerprint& c = *chromium->quic;
  CHECK(c.version == 1);
  CHECK(c.dcid_length == 8);
  CHECK(c.scid_length == 0);
  CHECK(c.transport_parameters.shuffled);
  const auto& params = c.transport_parameters.parameters;
  CHECK(params.size() == 13);
  CHECK(std::count_if(params.begin(), params.end(),
                      [](const QuicTransportParameter& p) { return p.grease_id; }) == 1);
  const auto versions = std::find_if(params.begin(), params.end(), [](const auto& p) { return p.id == 17; });
  REQUIRE(versions != params.end());
  CHECK(versions->kind == QuicTransportParameter::Kind::version_information);
  CHECK(versions->shuffle_available_versions);

  const tlsc::Profile* firefox = tlsc::lookup_profile("firefox_153");
  REQUIRE(firefox != nullptr);
  REQUIRE(firefox->quic.has_value());
  CHECK_FALSE(firefox->quic->transport_parameters.shuffled);
  CHECK(firefox->quic->scid_length == 3);

  // Upstream's profiles without HTTP/3 settings have no QUIC layer (those
  // with them borrow their family's: profile_loader_test.cc).
  const tlsc::Profile* chrome = tlsc::lookup_profile("chrome_133");
  REQUIRE(chrome != nullptr);
  CHECK_FALSE(chrome->quic.has_value());
}

TEST_CASE("quic block: what it refuses, by field", "[quic][profiles]") {
  const json good = json::parse(R"({"version": 1, "dcid_length": 8, "scid_length": 0,
      "transport_parameters": {"shuffled": true, "parameters": [[1, 30000], [15, "initial_source_connection_id"],
      [17, {"chosen": 1, "available": [1, "GREASE"]}], ["GREASE", {"random_bytes": [0, 16]}], [12584, "hex:4f524947"]]}})");
  auto ok = tlsc::quic_fingerprint_from_block(good);
  REQUIRE(ok);
  CHECK(ok->transport_parameters.parameters[4].bytes == "ORIG");

  auto refused = [&](const char* pointer, json value, const std::string& text) {
    json bad = good;
    bad[json::json_pointer(pointer)] = std::move(value);
    auto r = tlsc::quic_fingerprint_from_block(bad);
    REQUIRE_FALSE(r);
    INFO(r.error().message);
    CHECK(r.error().message.find(text) != std::string::npos);
  };
  refused("/dcid_length", json::parse("7"), "dcid_length: required: 8 to 20");
  refused("/scid_length", json::parse("21"), "scid_length");
  refused("/transport_parameters/parameters/1", json::parse("[1, 5]"), "id 1 listed twice");
  refused("/transport_parameters/parameters/4/1", "hex:4f5", "even number of hex digits");
  refused("/transport_parameters/parameters/3/1", json::parse(R"({"random_bytes": [5, 2]})"), "min <= max");
  refused("/transport_parameters/parameters/2/1/available/1", "grease", "32-bit number or \"GREASE\"");
  refused("/transport_parameters/parameters/0/0", uint64_t{1} << 62, "below 2^62");
  refused("/transport_parameters/extra", true, "unknown key");
}
