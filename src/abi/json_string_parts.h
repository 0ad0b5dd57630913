// A JSON string (json_string.h) of a text held in parts, in order: a large
// response body kept in the blocks it arrived in. Written without joining
// the parts, which would hold the text twice while it is copied and the
// JSON once more while it is written; the bytes are those of the joined
// text. Where a character is cut by the end of a part, its bytes and the
// next part's first few are written from a small buffer of their own.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace tlsc {

size_t json_string_size_of_parts(std::span<const std::string> parts);

// Writes at dst, which has room for exactly json_string_size_of_parts(parts)
// bytes; returns the end of what it wrote.
char* write_json_string_of_parts(char* dst, std::span<const std::string> parts);
// The same, giving each part's memory back as soon as it is written (the
// parts are left empty), so that the whole text and the whole JSON are
// never in memory at once.
char* write_json_string_of_parts_releasing(char* dst, std::span<std::string> parts);

}  // namespace tlsc
