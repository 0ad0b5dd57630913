// libFuzzer target for the JSON string writer (the response body's way out,
// with its wide scans). Invariants beyond "no crash, no UB":
//   - the output is one JSON string any parser reads;
//   - a valid UTF-8 input reads back unchanged;
//   - none of '<', '>', '&', U+2028, U+2029 appears unescaped (Go's
//     HTML-safe encoding);
//   - json_string_size is the size written, and every version (the
//     portable 64-bit words, the 16-byte one, AVX2 where the CPU has it)
//     writes the same bytes as the one json_string_size picks;
//   - the input cut into parts (abi/json_string_parts.h) gives the same
//     bytes as whole.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "abi/json_string.h"
#include "abi/json_string_parts.h"
#include "charset/decoders.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string out;
  tlsc::append_json_string(out, in);
  if (tlsc::json_string_size(in) != out.size() || tlsc::detail::json_string_size_words(in) != out.size())
    std::abort();
  // Exactly the room asked for: a write past it is a heap overflow.
  auto words = std::make_unique<char[]>(out.size());
  if (tlsc::detail::write_json_string_words(words.get(), in) != words.get() + out.size() ||
      std::string_view(words.get(), out.size()) != out)
    std::abort();
  auto wide = std::make_unique<char[]>(out.size());
  if (tlsc::write_json_string(wide.get(), in) != wide.get() + out.size()) std::abort();
  auto vector = std::make_unique<char[]>(out.size());
  if (tlsc::detail::json_string_size_vector(in) != out.size() ||
      tlsc::detail::write_json_string_vector(vector.get(), in) != vector.get() + out.size() ||
      std::string_view(vector.get(), out.size()) != out)
    std::abort();
#if TLSC_JSON_STRING_AVX2
  if (tlsc::detail::json_string_avx2_in_use()) {
    auto avx2 = std::make_unique<char[]>(out.size());
    if (tlsc::detail::json_string_size_avx2(in) != out.size() ||
        tlsc::detail::write_json_string_avx2(avx2.get(), in) != avx2.get() + out.size() ||
        std::string_view(avx2.get(), out.size()) != out)
      std::abort();
  }
#endif
  // In parts (a large body's blocks), cut every 8 to 30 bytes, and every 1
  // to 4 (too short to cut there: joined): the same bytes, in exactly the
  // room asked for.
  const size_t seed = size == 0 ? 0 : data[0];
  for (size_t step : {8 + seed % 23, 1 + seed % 4}) {
    std::vector<std::string> parts;
    for (size_t at = 0; at < size; at += step) parts.emplace_back(in.substr(at, step));
    if (tlsc::json_string_size_of_parts(parts) != out.size()) std::abort();
    auto joined = std::make_unique<char[]>(out.size());
    if (tlsc::write_json_string_of_parts_releasing(joined.get(), parts) != joined.get() + out.size() ||
        std::string_view(joined.get(), out.size()) != out)
      std::abort();
  }
  auto parsed = nlohmann::json::parse(out, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_string()) std::abort();
  // decode_utf8 leaves valid UTF-8 as it is, so equality says "valid".
  if (tlsc::charset::detail::decode_utf8(in) == in && parsed.get<std::string>() != in) std::abort();
  if (out.find_first_of("<>&") != std::string::npos) std::abort();
  if (out.find("\xe2\x80\xa8") != std::string::npos || out.find("\xe2\x80\xa9") != std::string::npos)
    std::abort();
  return 0;
}
