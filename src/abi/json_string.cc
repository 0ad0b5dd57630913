#include "abi/json_string.h"

#include "abi/json_string_blocks.h"

namespace tlsc {

size_t json_string_size(std::string_view s) {
#if TLSC_JSON_STRING_AVX2
  if (detail::json_string_avx2_in_use()) return detail::json_string_size_avx2(s);
#endif
  return size_of<VectorBlock>(s);
}

char* write_json_string(char* dst, std::string_view s) {
#if TLSC_JSON_STRING_AVX2
  if (detail::json_string_avx2_in_use()) return detail::write_json_string_avx2(dst, s);
#endif
  return write<VectorBlock>(dst, s);
}

char* write_json_string_contents(char* dst, std::string_view s) {
#if TLSC_JSON_STRING_AVX2
  if (detail::json_string_avx2_in_use()) return detail::write_json_string_contents_avx2(dst, s);
#endif
  return write_contents<VectorBlock>(dst, s);
}

void append_json_string(std::string& out, std::string_view s, size_t size) {
  const size_t at = out.size();
  out.resize(at + size);
  write_json_string(out.data() + at, s);
}

void append_json_string(std::string& out, std::string_view s) {
  append_json_string(out, s, json_string_size(s));
}

namespace detail {
size_t json_string_size_words(std::string_view s) { return size_of<WordBlock>(s); }
char* write_json_string_words(char* dst, std::string_view s) { return write<WordBlock>(dst, s); }
size_t json_string_size_vector(std::string_view s) { return size_of<VectorBlock>(s); }
char* write_json_string_vector(char* dst, std::string_view s) { return write<VectorBlock>(dst, s); }
bool json_string_avx2_in_use() {
#if TLSC_JSON_STRING_AVX2
  // The CPU, and the OS's saved state, can run AVX2 (libgcc's and
  // compiler-rt's CPU model check both); asked once.
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
#else
  return false;
#endif
}
}  // namespace detail

}  // namespace tlsc
