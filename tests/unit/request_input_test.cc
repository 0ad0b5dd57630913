#include "abi/request_input.h"

#include <catch2/catch.hpp>

using tlsc::parse_request_input;

TEST_CASE("request input: every field upstream has is read", "[abi]") {
  auto in = parse_request_input(R"({
    "requestUrl": "http://x/", "requestMethod": "POST", "requestBody": "b",
    "tlsClientIdentifier": "firefox_135", "sessionId": "s1", "followRedirects": true,
    "forceHttp1": true, "withDebug": true, "headers": {"a": "1", "B": "2"},
    "headerOrder": ["b", "a"], "insecureSkipVerify": true, "proxyUrl": "",
    "isRotatingProxy": true, "timeoutMilliseconds": 1500, "withRandomTLSExtensionOrder": true,
    "isByteResponse": true, "isByteRequest": true, "requestHostOverride": "h",
    "disableIPV6": true, "transportOptions": {"idleConnTimeout": 5000000000, "maxIdleConnsPerHost": 7,
    "disableCompression": true}, "streamOutputPath": "/tmp/x", "streamOutputBlockSize": 10,
    "streamOutputEOFSymbol": "E", "serverNameOverwrite": "sni", "localAddress": "127.0.0.1:0",
    "connectHeaders": {"X": ["1", "2"]}, "defaultHeaders": {"Y": ["3"]},
    "certificatePinningHosts": {"h": ["pin"]}, "requestCookies": [{"name": "n", "value": "v",
    "expires": 123, "maxAge": 5, "secure": true, "httpOnly": true, "domain": "d", "path": "/p"}],
    "customTlsClient": null, "unknownField": {"ignored": true}
  })");
  REQUIRE(in.ok());
  CHECK(in->request_method == "POST");
  CHECK(in->tls_client_identifier == "firefox_135");
  CHECK(*in->session_id == "s1");
  CHECK(in->follow_redirects);
  CHECK(in->headers.size() == 2);
  CHECK(in->header_order == std::vector<std::string>{"b", "a"});
  CHECK(in->timeout_milliseconds == 1500);
  CHECK(in->transport_options->idle_conn_timeout_ns == 5000000000);
  CHECK(in->transport_options->max_idle_conns_per_host == 7);
  CHECK(in->transport_options->disable_compression);
  CHECK(*in->stream_output_block_size == 10);
  CHECK(in->connect_headers.size() == 1);
  CHECK(in->connect_headers[0].second.size() == 2);
  REQUIRE(in->request_cookies.size() == 1);
  CHECK(in->request_cookies[0].expires == 123);
  CHECK(in->request_cookies[0].http_only);
  CHECK_FALSE(in->custom_tls_client.has_value());
}

TEST_CASE("request input: keys match case-insensitively, as Go's decoder does", "[abi]") {
  auto in =
      parse_request_input(R"({"REQUESTURL": "http://x/", "requestmethod": "GET", "TimeoutSeconds": 3})");
  REQUIRE(in.ok());
  CHECK(in->request_url == "http://x/");
  CHECK(in->request_method == "GET");
  CHECK(in->timeout_seconds == 3);
}

TEST_CASE("request input: null leaves zero values", "[abi]") {
  auto in = parse_request_input(
      R"({"requestUrl": null, "headers": null, "sessionId": null, "timeoutSeconds": null})");
  REQUIRE(in.ok());
  CHECK(in->request_url.empty());
  CHECK_FALSE(in->session_id.has_value());
}

TEST_CASE("request input: customTlsClient is stored whole", "[abi]") {
  auto in = parse_request_input(R"({"customTlsClient": {"ja3String": "771,4865,0,29,0",
    "h2Settings": {"HEADER_TABLE_SIZE": 65536, "INITIAL_WINDOW_SIZE": 6291456},
    "h2SettingsOrder": ["HEADER_TABLE_SIZE"], "pseudoHeaderOrder": [":method"],
    "connectionFlow": 15663105, "headerPriority": {"streamDep": 0, "exclusive": true, "weight": 255},
    "priorityFrames": [{"streamID": 3, "priorityParam": {"weight": 200}}],
    "ECHCandidatePayloads": [128, 160], "ECHCandidateCipherSuites": [{"kdfId": "HKDF_SHA256", "aeadId": "AEAD_AES_128_GCM"}],
    "recordSizeLimit": 16385, "certCompressionAlgos": ["brotli"], "alpsProtocols": ["h2"]}})");
  REQUIRE(in.ok());
  const auto& c = *in->custom_tls_client;
  CHECK(c.ja3_string == "771,4865,0,29,0");
  CHECK(c.h2_settings.size() == 2);
  CHECK(c.connection_flow == 15663105);
  CHECK(c.header_priority->weight == 255);
  CHECK(c.priority_frames[0].stream_id == 3);
  CHECK(c.ech_candidate_payloads == std::vector<uint16_t>{128, 160});
  CHECK(c.record_size_limit == 16385);
}

TEST_CASE("request input: type errors are worded as Go words them", "[abi]") {
  CHECK(parse_request_input(R"({"requestUrl": 1})").error().message ==
        "json: cannot unmarshal number into Go struct field RequestInput.requestUrl of type string");
  CHECK(parse_request_input(R"({"followRedirects": "yes"})").error().message ==
        "json: cannot unmarshal string into Go struct field RequestInput.followRedirects of type bool");
  CHECK(parse_request_input(R"({"timeoutSeconds": 1.5})").error().message ==
        "json: cannot unmarshal number 1.5 into Go struct field RequestInput.timeoutSeconds of type int");
  CHECK(parse_request_input(R"({"headers": ["a"]})").error().message ==
        "json: cannot unmarshal array into Go struct field RequestInput.headers of type map[string]string");
  CHECK(parse_request_input(R"({"customTlsClient": {"recordSizeLimit": 70000}})").error().message ==
        "json: cannot unmarshal number 70000 into Go struct field "
        "CustomTlsClient.customTlsClient.recordSizeLimit "
        "of type uint16");
  CHECK(parse_request_input("[]").error().message ==
        "json: cannot unmarshal array into Go value of type tls_client_cffi_src.RequestInput");
  CHECK(parse_request_input("").error().message == "unexpected end of JSON input");
  CHECK(parse_request_input("{").error().message == "unexpected end of JSON input");
  CHECK(parse_request_input(R"({"requestCookies": [{"name": 5}]})").error().message ==
        "json: cannot unmarshal number into Go struct field Cookie.requestCookies.name of type string");
  CHECK(parse_request_input(R"({"defaultHeaders": {"a": "b"}})").error().message ==
        "json: cannot unmarshal string into Go struct field RequestInput.defaultHeaders of type []string");
  CHECK(parse_request_input(R"({"requestCookies": 5})").error().message ==
        "json: cannot unmarshal number into Go struct field RequestInput.requestCookies of type "
        "[]tls_client_cffi_src.Cookie");
  // null is Go's zero value, for the whole input too.
  CHECK(static_cast<bool>(parse_request_input("null")));
  // Bytes that are not UTF-8 inside a string: U+FFFD, as Go decodes them.
  CHECK(parse_request_input("{\"requestUrl\": \"x\xff\"}")->request_url == "x\xef\xbf\xbd");
}

TEST_CASE("request input: nesting past Go's maxNestingDepth, in Go's words", "[abi]") {
  // Go's scanner allows 10000 levels, the outer object included (checked
  // against upstream's library at the boundary).
  auto nested = [](int levels, char open, const std::string& inner, char close) {
    return R"({"extra":)" + std::string(levels, open) + inner + std::string(levels, close) +
           R"(,"requestUrl":"http://x/","requestMethod":"GET"})";
  };
  CHECK(parse_request_input(nested(9999, '[', "", ']')).ok());
  CHECK(parse_request_input(nested(10000, '[', "", ']')).error().message ==
        "invalid character '[' exceeded max depth");
  std::string objects;
  for (int i = 0; i < 10000; ++i) objects += R"({"a":)";
  objects += "1" + std::string(10000, '}');
  CHECK(parse_request_input(R"({"extra":)" + objects + "}").error().message ==
        "invalid character '{' exceeded max depth");
  // A deep tree that parses is taken apart without recursion trouble.
  std::string deep;
  for (int i = 0; i < 9998; ++i) deep += R"({"a":)";
  deep += "[]" + std::string(9998, '}');
  CHECK(parse_request_input(R"({"extra":)" + deep + R"(,"requestUrl":"http://x/"})").ok());
}
