// Incremental HTTP/1.x response parser with the acceptance rules, header
// rewriting and error texts of fhttp's ReadResponse/readTransfer/chunked
// reader plus Go's net/textproto, driven by bytes instead of a bufio.Reader
// so the reactor can feed whatever a read returned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "wire/response_head.h"

namespace tlsc {

class H1ResponseParser {
 public:
  // Go's default for Transport.MaxResponseHeaderBytes.
  static constexpr size_t kDefaultMaxHeaderBytes = size_t{10} << 20;
  // Go's default for Transport.ReadBufferSize.
  static constexpr size_t kDefaultReadBufferSize = 4096;

  // max_header_bytes bounds each response head (status line through the
  // blank line; every skipped 1xx head gets a fresh budget); 0 = default.
  // read_buffer_size is the Transport's ReadBufferSize (0 = default): Go's
  // bufio.Reader of that size is what bounds a chunk-size line and the
  // look-ahead for a chunked trailer.
  explicit H1ResponseParser(std::string_view request_method, size_t max_header_bytes = kDefaultMaxHeaderBytes,
                            size_t read_buffer_size = kDefaultReadBufferSize);

  // Prepares for the next response on the same connection, keeping buffers.
  void reset(std::string_view request_method);

  // Consumes bytes up to the end of the current message and appends body
  // bytes to body_out. Bytes after the end are left unconsumed. After an
  // error every further call returns the same error.
  Result<size_t> feed(std::string_view in, std::string& body_out);

  // The peer closed. nullopt when that completes the message (or it was
  // already complete). Otherwise Go's error: "EOF" when no byte was ever
  // fed (the Transport's idle-close case), "unexpected EOF",
  // "http: unexpected EOF reading trailer", ...
  std::optional<Error> on_eof();

  bool head_complete() const { return head_complete_; }
  const ResponseHead& head() const { return head_; }
  bool message_complete() const { return state_ == State::complete; }
  bool failed() const { return state_ == State::failed; }
  // Whether the connection may carry another request once this message
  // completes: Go's !resp.Close and a final (>= 200) status.
  bool keep_alive() const { return keep_alive_; }
  // Go's Response.ContentLength: -1 when unknown (chunked, close-delimited).
  int64_t content_length() const { return content_length_; }
  bool chunked() const { return chunked_; }
  // Fields from a chunked body's trailer section, canonical names.
  const std::vector<std::pair<std::string, std::string>>& trailers() const { return trailers_; }

 private:
  enum class State : uint8_t {
    status_line,
    header_lines,
    body_length,
    body_close,
    chunk_size,
    chunk_data,
    chunk_crlf,
    trailer,
    complete,
    failed,
  };

  // A header block's field being assembled from its line and obs-fold
  // continuations (textproto.readContinuedLineSlice).
  struct FieldAssembler {
    std::string pending;
    bool have_pending = false;
    bool at_start = true;
    void clear() {
      pending.clear();
      have_pending = false;
      at_start = true;
    }
  };

  Error fail(Error e);
  std::optional<Error> on_status_line(std::string_view line);
  std::optional<Error> on_header_line(std::string_view line);
  std::optional<Error> finish_head();
  std::optional<Error> on_chunk_size_line(std::string_view line);
  std::optional<Error> on_trailer_line(std::string_view line);
  void start_head();

  bool head_request_ = false;
  size_t head_limit_;
  size_t read_buffer_size_;
  size_t chunk_line_max_;  // bytes of a chunk-size line including its LF
  State state_ = State::status_line;

  std::string line_;  // partial line carried between feeds
  size_t head_bytes_ = 0;
  uint64_t bytes_seen_ = 0;
  int informational_count_ = 0;
  FieldAssembler fields_;
  ResponseHead head_;
  bool head_complete_ = false;
  int proto_major_ = 0;
  int proto_minor_ = 0;

  bool keep_alive_ = false;
  bool chunked_ = false;
  int64_t content_length_ = -1;
  uint64_t remaining_ = 0;  // of the Content-Length body or current chunk

  char crlf_first_ = 0;
  bool crlf_have_first_ = false;

  size_t trailer_bytes_ = 0;
  uint32_t trailer_tail_ = 0;  // last four trailer bytes, to spot CRLFCRLF
  std::optional<Error> trailer_error_;
  std::vector<std::pair<std::string, std::string>> trailers_;

  std::optional<Error> error_;
};

}  // namespace tlsc
