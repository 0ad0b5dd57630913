// One HTTP/2 response header block (HEADERS and its CONTINUATIONs) judged
// as fhttp, upstream's HTTP/2 client, judges it: field by field in arrival
// order (its readMetaFrame: Go's field-name and field-value rules, pseudo
// fields before regular ones, the header-list bound), then its
// checkPseudos, then its handleResponse's reading of :status.
//
// nghttp2's own HTTP messaging checks are off (H2Connection): they refuse
// responses Go takes (a `connection` header, a value with spaces around
// it, a body shorter than its Content-Length) and word every refusal as a
// reset. So this is where a response block is judged, in Go's words.
// Byte-in, verdict-out: no nghttp2, unit-tested and fuzzed alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace tlsc {

class H2ResponseBlock {
 public:
  // max_list_bytes: Go's MaxHeaderListSize, counted as hpack counts a
  // field (name + value + 32).
  explicit H2ResponseBlock(size_t max_list_bytes) : remaining_(max_list_bytes) {}

  // Takes the next field. True when the caller should keep it: fhttp stops
  // taking fields at the first invalid one and past the bound, so what
  // follows is neither checked nor kept (and costs no memory).
  bool add(std::string_view name, std::string_view value);

  // readMetaFrame's and checkPseudos' verdict: the cause of the stream
  // error this block is, in Go's words ("invalid header field name \"X\"",
  // "pseudo header field after regular", "duplicate pseudo-header
  // \":status\"", ...), or nothing.
  std::optional<std::string> stream_error_cause() const;

  // Past max_list_bytes (fhttp's errResponseHeaderListSize).
  bool truncated() const { return truncated_; }
  bool has_pseudo() const { return pseudo_seen_ != 0; }

  // handleResponse on a block that has no stream error: the status code,
  // or its error ("malformed response from server: ...", or the bound).
  Result<int> status() const;

 private:
  size_t remaining_;
  bool saw_regular_ = false;
  bool truncated_ = false;
  std::optional<std::string> invalid_;       // readMetaFrame's first invalid field
  std::optional<std::string> pseudo_error_;  // checkPseudos' first complaint
  uint32_t pseudo_seen_ = 0;                 // one bit per known pseudo-header
  std::optional<std::string> status_;
};

}  // namespace tlsc
