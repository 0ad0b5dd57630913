// libFuzzer target for the JSON string writer (the response body's way out,
// with its wide scans). Invariants beyond "no crash, no UB":
//   - the output is one JSON string any parser reads;
//   - a valid UTF-8 input reads back unchanged;
//   - none of '<', '>', '&', U+2028, U+2029 appears unescaped (Go's
//     HTML-safe encoding).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "abi/json_writer.h"
#include "charset/decoders.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string out;
  tlsc::append_json_string(out, in);
  auto parsed = nlohmann::json::parse(out, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_string()) std::abort();
  // decode_utf8 leaves valid UTF-8 as it is, so equality says "valid".
  if (tlsc::charset::detail::decode_utf8(in) == in && parsed.get<std::string>() != in) std::abort();
  if (out.find_first_of("<>&") != std::string::npos) std::abort();
  if (out.find("\xe2\x80\xa8") != std::string::npos || out.find("\xe2\x80\xa9") != std::string::npos)
    std::abort();
  return 0;
}
