// libFuzzer target for the Go-compatible JSON front (abi/go_json_syntax.h,
// abi/go_json_strings.h): the syntax check Go runs before decoding, and the
// U+FFFD replacement inside strings. Invariants beyond "no crash, no UB":
//   - what nlohmann's strict parser reads, Go's scanner accepts (but a
//     leading BOM, which nlohmann skips and Go refuses);
//   - what Go's scanner accepts, nlohmann reads once the replacement ran,
//     unless a number is past a double's range (a documented difference);
//   - the replacement leaves input that is already UTF-8 alone, and its
//     output passes Go's scanner again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "abi/go_json_strings.h"
#include "abi/go_json_syntax.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  // The caller's JSON is a C string: it ends at its first NUL (which
  // nlohmann's parser would also take for the end).
  in = in.substr(0, in.find('\0'));
  const auto syntax = tlsc::go_json_syntax_error(in);
  const bool bom = in.starts_with("\xef\xbb\xbf");
  const bool strict_ok = !nlohmann::json::parse(in.begin(), in.end(), nullptr, false).is_discarded();
  if (strict_ok && syntax && !bom) std::abort();
  if (syntax) return 0;
  const auto replaced = tlsc::with_go_replacement_characters(in);
  if (strict_ok && replaced) std::abort();  // valid UTF-8 throughout: nothing to replace
  const std::string_view text = replaced ? std::string_view(*replaced) : in;
  if (replaced && tlsc::go_json_syntax_error(text)) std::abort();
  try {
    (void)nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::out_of_range& e) {
    if (e.id != 406) std::abort();  // 406: number overflow
  } catch (const nlohmann::json::exception&) {
    std::abort();
  }
  return 0;
}
