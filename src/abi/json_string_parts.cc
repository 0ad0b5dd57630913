#include "abi/json_string_parts.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "abi/json_string.h"

namespace tlsc {
namespace {

// Every part but the last has at least this many bytes, so that the few
// bytes taken from its start (by the joint before it) and from its end (by
// the joint after it) never overlap. The body's blocks are MiBs; anything
// else is joined first.
constexpr size_t kMinPart = 8;

bool is_continuation(unsigned char b) { return (b & 0xC0) == 0x80; }

// The bytes at the end of a part that begin a character the next part may
// finish: from a lead byte among the last three that asks for more bytes
// than follow it. None otherwise, and then the part ends where Go's UTF-8
// decoding ends a character: after the last byte that is not a
// continuation come only that character's own bytes, or continuation
// bytes that are ill-formed on their own, whatever follows.
size_t open_tail(std::string_view part) {
  const size_t n = part.size();
  for (size_t back = 1; back <= 3 && back <= n; ++back) {
    const auto b = static_cast<unsigned char>(part[n - back]);
    if (is_continuation(b)) continue;
    const size_t wants = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    return wants > back ? back : 0;
  }
  return 0;
}

// The continuation bytes at the start of the part after an open tail, up
// to three. After them the decoding is between characters again: the
// tail's character is at most 4 bytes from its lead, and continuation
// bytes past it are ill-formed one by one; a byte that is not a
// continuation starts a character of its own.
size_t closing_head(std::string_view part) {
  size_t k = 0;
  while (k < 3 && k < part.size() && is_continuation(static_cast<unsigned char>(part[k]))) ++k;
  return k;
}

// Calls piece(text) for each stretch of the joined text in order, each
// beginning and ending where Go's UTF-8 decoding is between characters, so
// that their JSON contents put together are the joined text's; and done(k)
// once part k is no longer read.
template <typename Piece, typename Done>
void for_each_piece(std::span<const std::string> parts, Piece&& piece, Done&& done) {
  size_t skip = 0;  // the start of this part, written with the joint before it
  for (size_t k = 0; k < parts.size(); ++k) {
    const std::string_view part = parts[k];
    const size_t tail = k + 1 < parts.size() ? open_tail(part) : 0;
    piece(part.substr(skip, part.size() - skip - tail));
    if (tail == 0) {
      done(k);
      skip = 0;
      continue;
    }
    const std::string_view next = parts[k + 1];
    const size_t head = closing_head(next);
    char joint[6];
    std::memcpy(joint, part.data() + part.size() - tail, tail);
    std::memcpy(joint + tail, next.data(), head);
    done(k);
    piece(std::string_view(joint, tail + head));
    skip = head;
  }
}

bool parts_can_be_cut(std::span<const std::string> parts) {
  return parts.empty() || std::all_of(parts.begin(), parts.end() - 1,
                                      [](const std::string& p) { return p.size() >= kMinPart; });
}

std::string joined(std::span<const std::string> parts) {
  std::string out;
  size_t size = 0;
  for (const std::string& p : parts) size += p.size();
  out.reserve(size);
  for (const std::string& p : parts) out.append(p);
  return out;
}

template <typename Release>
char* write_parts(char* dst, std::span<const std::string> parts, Release release) {
  if (!parts_can_be_cut(parts)) {
    const std::string text = joined(parts);
    for (size_t k = 0; k < parts.size(); ++k) release(k);
    return write_json_string(dst, text);
  }
  *dst++ = '"';
  for_each_piece(
      parts, [&](std::string_view text) { dst = write_json_string_contents(dst, text); }, release);
  *dst++ = '"';
  return dst;
}

}  // namespace

size_t json_string_size_of_parts(std::span<const std::string> parts) {
  if (!parts_can_be_cut(parts)) return json_string_size(joined(parts));
  size_t size = 2;  // the quotes
  for_each_piece(
      parts, [&](std::string_view text) { size += json_string_size(text) - 2; }, [](size_t) {});
  return size;
}

char* write_json_string_of_parts(char* dst, std::span<const std::string> parts) {
  return write_parts(dst, parts, [](size_t) {});
}

char* write_json_string_of_parts_releasing(char* dst, std::span<std::string> parts) {
  return write_parts(dst, parts, [parts](size_t k) { std::string().swap(parts[k]); });
}

}  // namespace tlsc
