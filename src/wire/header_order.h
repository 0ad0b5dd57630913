// The order fhttp writes a request's headers in (Header.SortedKeyValuesBy
// with the Header-Order list): keys listed in header_order by their
// position (names compared case-insensitively, a name listed twice keeps
// its last position, as Go's map does), then the other keys bytewise;
// values of one exact key stay together in insertion order. Shared by the
// HTTP/1.1 writer and the HTTP/2 header block.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tlsc {

struct HeaderField {
  std::string_view key;
  std::string_view value;
};

void sort_like_fhttp(std::vector<HeaderField>& fields, const std::vector<std::string>& header_order);

}  // namespace tlsc
