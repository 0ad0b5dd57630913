#include "codec/decoder.h"

#include <brotli/decode.h>
#include <zlib.h>
// The frame header API is in zstd's static-linking section; we link it statically.
#define ZSTD_STATIC_LINKING_ONLY
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include <zstd.h>

namespace tlsc {
Error body_too_large_error(size_t limit) {
  return make_error(ErrorCode::body_too_large, "response body too large: over " + std::to_string(limit) +
                                                   " bytes (maxResponseBodyBytes)");
}

namespace {

Error decode_error(std::string message) { return make_error(ErrorCode::decode, std::move(message)); }

// Go reports every truncated stream as io.ErrUnexpectedEOF.
Error unexpected_eof() { return decode_error("unexpected EOF"); }

// zlib and brotli count in 32-bit lengths; bigger inputs go in slices.
constexpr size_t kMaxSlice = size_t{1} << 30;

using Chunk = std::array<char, 32 * 1024>;

// Counts decoded bytes against the caller's limit (the bomb guard), and
// against the current step's bound (feed_some).
class OutputBudget {
 public:
  explicit OutputBudget(size_t limit) : limit_(limit) {}

  std::optional<Error> append(std::string& out, std::string_view data) {
    if (data.size() > limit_ - used_) return body_too_large_error(limit_);
    used_ += data.size();
    step_used_ += data.size();
    out.append(data);
    return std::nullopt;
  }

  void begin_step(size_t bound) {
    step_bound_ = bound;
    step_used_ = 0;
  }
  // The step has produced its share: the decoder stops where it is.
  bool step_full() const { return step_used_ >= step_bound_; }

 private:
  size_t limit_;
  size_t used_ = 0;
  size_t step_bound_ = std::numeric_limits<size_t>::max();
  size_t step_used_ = 0;
};

// Bytes of a fixed-size header or trailer field that may arrive split
// across feeds.
template <size_t N>
class FieldBuffer {
 public:
  // Takes what it still needs from `in`; true once the field is complete.
  bool fill(std::string_view& in) {
    size_t take = std::min(N - have_, in.size());
    for (size_t i = 0; i < take; ++i) bytes_[have_ + i] = static_cast<unsigned char>(in[i]);
    have_ += take;
    in.remove_prefix(take);
    return have_ == N;
  }
  bool empty() const { return have_ == 0; }
  void clear() { have_ = 0; }
  // Compile-time indices: bounds-checked without a throwing path.
  template <size_t I>
  unsigned get() const {
    static_assert(I < N);
    return std::get<I>(bytes_);
  }
  // Little-endian 16/32-bit values at compile-time offsets.
  template <size_t At>
  uint32_t le16() const {
    return get<At>() | (get<At + 1>() << 8);
  }
  template <size_t At>
  uint32_t le32() const {
    return le16<At>() | (le16<At + 2>() << 16);
  }
  uint32_t be32() const { return (get<0>() << 24) | (get<1>() << 16) | (get<2>() << 8) | get<3>(); }
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(bytes_.data()), have_);
  }

 private:
  std::array<unsigned char, N> bytes_{};
  size_t have_ = 0;
};

uint32_t crc32_of(uint32_t crc, std::string_view data) {
  return static_cast<uint32_t>(::crc32_z(crc, reinterpret_cast<const Bytef*>(data.data()), data.size()));
}

uint32_t adler32_of(uint32_t adler, std::string_view data) {
  return static_cast<uint32_t>(::adler32_z(adler, reinterpret_cast<const Bytef*>(data.data()), data.size()));
}

// ---- raw DEFLATE (Go's compress/flate) ----------------------------------

class RawInflater {
 public:
  enum class Status { need_input, end, error, stopped };

  RawInflater() { init_ok_ = ::inflateInit2(&strm_, -MAX_WBITS) == Z_OK; }
  ~RawInflater() {
    if (init_ok_) ::inflateEnd(&strm_);
  }
  RawInflater(const RawInflater&) = delete;
  RawInflater& operator=(const RawInflater&) = delete;

  void reset() {
    if (init_ok_) ::inflateReset(&strm_);
  }

  // Inflates from `in` (consuming it) until the input runs out, the
  // DEFLATE stream ends or the step is full (`stopped`: output may be
  // pending); `produced` sees each piece of output.
  template <class OnOutput>
  Status run(std::string_view& in, OnOutput&& produced, const OutputBudget& budget,
             std::optional<Error>& err) {
    if (!init_ok_) {
      err = decode_error("flate: cannot initialise decompressor");
      return Status::error;
    }
    while (true) {
      const std::string_view slice = in.substr(0, kMaxSlice);
      // zlib never writes through next_in; its API just lacks the const.
      strm_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(slice.data()));
      strm_.avail_in = static_cast<uInt>(slice.size());
      strm_.next_out = reinterpret_cast<Bytef*>(out_.data());
      strm_.avail_out = static_cast<uInt>(out_.size());
      const int rc = ::inflate(&strm_, Z_NO_FLUSH);
      in.remove_prefix(slice.size() - strm_.avail_in);
      const size_t n = out_.size() - strm_.avail_out;
      if (n > 0) {
        if (auto e = produced(std::string_view(out_.data(), n))) {
          err = std::move(e);
          return Status::error;
        }
      }
      if (budget.step_full() && (rc == Z_OK || rc == Z_BUF_ERROR)) return Status::stopped;
      switch (rc) {
        case Z_STREAM_END:
          return Status::end;
        case Z_OK:
        case Z_BUF_ERROR:                   // Z_BUF_ERROR: no progress was possible
          if (strm_.avail_out == 0) break;  // more output may be pending
          if (in.empty()) return Status::need_input;
          if (rc == Z_OK) break;  // only the slice ran out
          err = decode_error("flate: corrupt input before offset " + std::to_string(strm_.total_in));
          return Status::error;
        case Z_MEM_ERROR:
          err = decode_error("flate: out of memory");
          return Status::error;
        default:  // Z_DATA_ERROR and anything unexpected
          err = decode_error("flate: corrupt input before offset " + std::to_string(strm_.total_in));
          return Status::error;
      }
    }
  }

 private:
  z_stream strm_{};
  bool init_ok_ = false;
  Chunk out_{};
};

// A decoder whose failures are sticky, as Go's readers keep returning the
// first error.
class StickyDecoder : public BodyDecoder {
 public:
  std::optional<Error> feed_some(std::string_view& in, std::string& out, size_t max_output,
                                 bool& more) final {
    more = false;
    if (error_) return error_;
    budget_.begin_step(max_output);
    error_ = do_feed(in, out);
    // A full step stopped where it was; the next one goes on from there,
    // input or not.
    resume_ = !error_ && budget_.step_full();
    more = resume_;
    return error_;
  }
  std::optional<Error> finish(std::string& out) final {
    if (!error_) error_ = do_finish(out);
    return error_;
  }

 protected:
  explicit StickyDecoder(size_t limit) : budget_(limit) {}
  // Decodes from `in`, advancing it, until it is used up or
  // budget_.step_full(). Called again with resume_ set after a full step,
  // possibly with no input: what is pending comes out then.
  virtual std::optional<Error> do_feed(std::string_view& in, std::string& out) = 0;
  virtual std::optional<Error> do_finish(std::string& out) = 0;

  OutputBudget budget_;
  bool resume_ = false;

 private:
  std::optional<Error> error_;
};

// ---- gzip (Go's compress/gzip, multistream) --------------------------------

class GzipDecoder final : public StickyDecoder {
 public:
  explicit GzipDecoder(size_t limit) : StickyDecoder(limit) {}

 private:
  enum class State { header, extra_len, extra, name, comment, header_crc, body, trailer };
  static constexpr unsigned kFlagHdrCrc = 1 << 1, kFlagExtra = 1 << 2, kFlagName = 1 << 3,
                            kFlagComment = 1 << 4;
  // Go reads NUL-terminated header strings into a 512-byte buffer.
  static constexpr size_t kMaxString = 512;

  // The next optional header part the flags ask for, after `s`.
  State after(State s) const {
    if (s == State::header && (flags_ & kFlagExtra)) return State::extra_len;
    if ((s == State::header || s == State::extra_len || s == State::extra) && (flags_ & kFlagName)) {
      return State::name;
    }
    if (s != State::comment && s != State::header_crc && (flags_ & kFlagComment)) {
      return State::comment;
    }
    if (s != State::header_crc && (flags_ & kFlagHdrCrc)) return State::header_crc;
    return State::body;
  }

  std::optional<Error> do_feed(std::string_view& in, std::string& out) override {
    bool pending = resume_ && state_ == State::body;
    while (!in.empty() || pending) {
      if (!pending && budget_.step_full()) return std::nullopt;  // a member ended a full step
      pending = false;
      switch (state_) {
        case State::header: {
          if (!header_.fill(in)) break;
          if (header_.get<0>() != 0x1f || header_.get<1>() != 0x8b || header_.get<2>() != 8) {
            return decode_error("gzip: invalid header");
          }
          flags_ = header_.get<3>();
          header_crc_ = crc32_of(0, header_.view());
          state_ = after(State::header);
          break;
        }
        case State::extra_len:
          if (!len_.fill(in)) break;
          header_crc_ = crc32_of(header_crc_, len_.view());
          extra_left_ = len_.le16<0>();
          len_.clear();
          state_ = extra_left_ == 0 ? after(State::extra) : State::extra;
          break;
        case State::extra: {
          size_t take = std::min(extra_left_, in.size());
          header_crc_ = crc32_of(header_crc_, in.substr(0, take));
          in.remove_prefix(take);
          extra_left_ -= take;
          if (extra_left_ == 0) state_ = after(State::extra);
          break;
        }
        case State::name:
        case State::comment: {
          const size_t nul = in.find('\0');
          const size_t text = nul == std::string_view::npos ? in.size() : nul;
          // Go fails once its buffer holds 512 bytes and no NUL.
          if (text > kMaxString - 1 - string_len_) return decode_error("gzip: invalid header");
          const size_t take = nul == std::string_view::npos ? text : nul + 1;
          header_crc_ = crc32_of(header_crc_, in.substr(0, take));
          in.remove_prefix(take);
          if (nul == std::string_view::npos) {
            string_len_ += text;
          } else {
            string_len_ = 0;
            state_ = after(state_);
          }
          break;
        }
        case State::header_crc:
          if (!len_.fill(in)) break;
          if (len_.le16<0>() != (header_crc_ & 0xffff)) {
            return decode_error("gzip: invalid header");
          }
          len_.clear();
          state_ = State::body;
          break;
        case State::body: {
          std::optional<Error> err;
          auto status = inflater_.run(
              in,
              [&](std::string_view piece) {
                digest_ = crc32_of(digest_, piece);
                size_ += static_cast<uint32_t>(piece.size());
                return budget_.append(out, piece);
              },
              budget_, err);
          if (status == RawInflater::Status::error) return err;
          if (status == RawInflater::Status::stopped) return std::nullopt;
          if (status == RawInflater::Status::end) state_ = State::trailer;
          break;
        }
        case State::trailer: {
          if (!trailer_.fill(in)) break;
          if (trailer_.le32<0>() != digest_ || trailer_.le32<4>() != size_) {
            return decode_error("gzip: invalid checksum");
          }
          // Another member may follow; Go reads it as part of the same body.
          trailer_.clear();
          header_.clear();
          digest_ = size_ = 0;
          flags_ = 0;
          inflater_.reset();
          state_ = State::header;
          break;
        }
      }
    }
    return std::nullopt;
  }

  std::optional<Error> do_finish(std::string&) override {
    switch (state_) {
      // Zero members is a valid (empty) body to Go; a partial header is not.
      case State::header:
        return header_.empty() ? std::nullopt : std::optional<Error>(unexpected_eof());
      default:
        return unexpected_eof();
    }
  }

  State state_ = State::header;
  FieldBuffer<10> header_;
  FieldBuffer<2> len_;
  FieldBuffer<8> trailer_;
  unsigned flags_ = 0;
  uint32_t header_crc_ = 0;
  size_t extra_left_ = 0;
  size_t string_len_ = 0;
  uint32_t digest_ = 0;
  uint32_t size_ = 0;
  RawInflater inflater_;
};

// ---- zlib (Go's compress/zlib) ---------------------------------------------

class ZlibDecoder final : public StickyDecoder {
 public:
  explicit ZlibDecoder(size_t limit) : StickyDecoder(limit) {}

 private:
  enum class State { header, dict_id, body, trailer, done };

  std::optional<Error> do_feed(std::string_view& in, std::string& out) override {
    bool pending = resume_ && state_ == State::body;
    while (!in.empty() || pending) {
      if (!pending && budget_.step_full()) return std::nullopt;  // a member ended a full step
      pending = false;
      switch (state_) {
        case State::header: {
          if (!header_.fill(in)) break;
          const unsigned cmf = header_.get<0>(), flg = header_.get<1>();
          if ((cmf & 0x0f) != 8 || (cmf >> 4) > 7 || ((cmf << 8) | flg) % 31 != 0) {
            return decode_error("zlib: invalid header");
          }
          state_ = (flg & 0x20) ? State::dict_id : State::body;
          break;
        }
        case State::dict_id:
          // Go compares against the Adler-32 of the (absent) dictionary, 1,
          // and carries on without one if it matches.
          if (!word_.fill(in)) break;
          if (word_.be32() != 1) return decode_error("zlib: invalid dictionary");
          word_.clear();
          state_ = State::body;
          break;
        case State::body: {
          std::optional<Error> err;
          auto status = inflater_.run(
              in,
              [&](std::string_view piece) {
                adler_ = adler32_of(adler_, piece);
                return budget_.append(out, piece);
              },
              budget_, err);
          if (status == RawInflater::Status::error) return err;
          if (status == RawInflater::Status::stopped) return std::nullopt;
          if (status == RawInflater::Status::end) state_ = State::trailer;
          break;
        }
        case State::trailer:
          if (!word_.fill(in)) break;
          if (word_.be32() != adler_) return decode_error("zlib: invalid checksum");
          state_ = State::done;
          break;
        case State::done:
          // Go stops reading after the checksum; trailing bytes are ignored.
          in = std::string_view();
          break;
      }
    }
    return std::nullopt;
  }

  std::optional<Error> do_finish(std::string&) override {
    if (state_ == State::done) return std::nullopt;
    return unexpected_eof();
  }

  State state_ = State::header;
  FieldBuffer<2> header_;
  FieldBuffer<4> word_;
  uint32_t adler_ = 1;
  RawInflater inflater_;
};

// ---- raw DEFLATE body --------------------------------------------------------

class RawDeflateDecoder final : public StickyDecoder {
 public:
  explicit RawDeflateDecoder(size_t limit) : StickyDecoder(limit) {}

 private:
  std::optional<Error> do_feed(std::string_view& in, std::string& out) override {
    // Go's flate reader stops at the final block and never looks further.
    if (done_) {
      in = std::string_view();
      return std::nullopt;
    }
    if (in.empty() && !resume_) return std::nullopt;
    std::optional<Error> err;
    auto status = inflater_.run(
        in, [&](std::string_view piece) { return budget_.append(out, piece); }, budget_, err);
    if (status == RawInflater::Status::error) return err;
    if (status == RawInflater::Status::end) {
      done_ = true;
      in = std::string_view();
    }
    return std::nullopt;
  }

  std::optional<Error> do_finish(std::string&) override {
    return done_ ? std::nullopt : std::optional<Error>(unexpected_eof());
  }

  bool done_ = false;
  RawInflater inflater_;
};

// "deflate" is ambiguous in the wild (zlib-wrapped per RFC 9110, raw from
// some servers); the first two bytes tell which.
class DeflateDecoder final : public BodyDecoder {
 public:
  explicit DeflateDecoder(size_t limit) : limit_(limit) {}

  std::optional<Error> feed_some(std::string_view& in, std::string& out, size_t max_output,
                                 bool& more) override {
    more = false;
    if (!inner_) {
      if (!head_.fill(in)) return std::nullopt;
      choose();
      // Two bytes of header are no bomb: they go through whole.
      if (auto e = inner_->feed(head_.view(), out)) return e;
    }
    return inner_->feed_some(in, out, max_output, more);
  }

  std::optional<Error> finish(std::string& out) override {
    if (!inner_) {
      if (head_.empty()) return std::nullopt;  // an empty body stays empty
      inner_ = std::make_unique<RawDeflateDecoder>(limit_);
      if (auto e = inner_->feed(head_.view(), out)) return e;
    }
    return inner_->finish(out);
  }

 private:
  void choose() {
    const unsigned cmf = head_.get<0>(), flg = head_.get<1>();
    if ((cmf & 0x0f) == 8 && ((cmf << 8) | flg) % 31 == 0) {
      inner_ = std::make_unique<ZlibDecoder>(limit_);
    } else {
      inner_ = std::make_unique<RawDeflateDecoder>(limit_);
    }
  }

  size_t limit_;
  FieldBuffer<2> head_;
  std::unique_ptr<BodyDecoder> inner_;
};

// ---- brotli (andybalholm/brotli v1.2 reader semantics) ----------------------

// The names Go's port prints after "brotli: ".
const char* brotli_error_name(BrotliDecoderErrorCode code) {
  switch (code) {
    case BROTLI_DECODER_ERROR_FORMAT_EXUBERANT_NIBBLE:
      return "EXUBERANT_NIBBLE";
    case BROTLI_DECODER_ERROR_FORMAT_RESERVED:
      return "RESERVED";
    case BROTLI_DECODER_ERROR_FORMAT_EXUBERANT_META_NIBBLE:
      return "EXUBERANT_META_NIBBLE";
    case BROTLI_DECODER_ERROR_FORMAT_SIMPLE_HUFFMAN_ALPHABET:
      return "SIMPLE_HUFFMAN_ALPHABET";
    case BROTLI_DECODER_ERROR_FORMAT_SIMPLE_HUFFMAN_SAME:
      return "SIMPLE_HUFFMAN_SAME";
    case BROTLI_DECODER_ERROR_FORMAT_CL_SPACE:
      return "CL_SPACE";
    case BROTLI_DECODER_ERROR_FORMAT_HUFFMAN_SPACE:
      return "HUFFMAN_SPACE";
    case BROTLI_DECODER_ERROR_FORMAT_CONTEXT_MAP_REPEAT:
      return "CONTEXT_MAP_REPEAT";
    case BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_1:
      return "BLOCK_LENGTH_1";
    case BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_2:
      return "BLOCK_LENGTH_2";
    case BROTLI_DECODER_ERROR_FORMAT_TRANSFORM:
      return "TRANSFORM";
    case BROTLI_DECODER_ERROR_FORMAT_DICTIONARY:
      return "DICTIONARY";
    case BROTLI_DECODER_ERROR_FORMAT_WINDOW_BITS:
      return "WINDOW_BITS";
    case BROTLI_DECODER_ERROR_FORMAT_PADDING_1:
      return "PADDING_1";
    case BROTLI_DECODER_ERROR_FORMAT_PADDING_2:
      return "PADDING_2";
    case BROTLI_DECODER_ERROR_FORMAT_DISTANCE:
      return "DISTANCE";
    case BROTLI_DECODER_ERROR_DICTIONARY_NOT_SET:
      return "DICTIONARY_NOT_SET";
    case BROTLI_DECODER_ERROR_INVALID_ARGUMENTS:
      return "INVALID_ARGUMENTS";
    case BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES:
      return "CONTEXT_MODES";
    case BROTLI_DECODER_ERROR_ALLOC_TREE_GROUPS:
      return "TREE_GROUPS";
    case BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MAP:
      return "CONTEXT_MAP";
    case BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_1:
      return "RING_BUFFER_1";
    case BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_2:
      return "RING_BUFFER_2";
    case BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES:
      return "BLOCK_TYPE_TREES";
    case BROTLI_DECODER_ERROR_UNREACHABLE:
      return "UNREACHABLE";
    default:
      return "INVALID";
  }
}

struct BrotliStateDeleter {
  void operator()(BrotliDecoderState* s) const { BrotliDecoderDestroyInstance(s); }
};

class BrotliBodyDecoder final : public StickyDecoder {
 public:
  explicit BrotliBodyDecoder(size_t limit)
      : StickyDecoder(limit), state_(BrotliDecoderCreateInstance(nullptr, nullptr, nullptr)) {}

 private:
  std::optional<Error> do_feed(std::string_view& in, std::string& out) override {
    if (!state_) return decode_error("brotli: cannot initialise decoder");
    // Anything after the end of the stream is an error in Go's reader.
    if (done_)
      return in.empty() ? std::nullopt : std::optional<Error>(decode_error("brotli: excessive input"));
    if (in.empty() && !resume_) return std::nullopt;
    while (true) {
      const std::string_view slice = in.substr(0, kMaxSlice);
      size_t avail_in = slice.size();
      const auto* next_in = reinterpret_cast<const uint8_t*>(slice.data());
      size_t avail_out = out_.size();
      auto* next_out = reinterpret_cast<uint8_t*>(out_.data());
      const BrotliDecoderResult r =
          BrotliDecoderDecompressStream(state_.get(), &avail_in, &next_in, &avail_out, &next_out, nullptr);
      in.remove_prefix(slice.size() - avail_in);
      if (auto e = budget_.append(out, std::string_view(out_.data(), out_.size() - avail_out))) {
        return e;
      }
      switch (r) {
        case BROTLI_DECODER_RESULT_SUCCESS:
          done_ = true;
          if (!in.empty()) return decode_error("brotli: excessive input");
          return std::nullopt;
        case BROTLI_DECODER_RESULT_ERROR:
          return decode_error(std::string("brotli: ") +
                              brotli_error_name(BrotliDecoderGetErrorCode(state_.get())));
        case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
          if (budget_.step_full()) return std::nullopt;  // the rest comes in the next step
          break;
        case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
          if (in.empty() || budget_.step_full()) return std::nullopt;
          break;
      }
    }
  }

  // Since v1.2 an EOF before the last meta-block is io.ErrUnexpectedEOF,
  // an empty body included.
  std::optional<Error> do_finish(std::string&) override {
    return done_ ? std::nullopt : std::optional<Error>(unexpected_eof());
  }

  std::unique_ptr<BrotliDecoderState, BrotliStateDeleter> state_;
  bool done_ = false;
  Chunk out_{};
};

// ---- zstd (klauspost/compress/zstd stream semantics) -----------------------

struct ZstdDCtxDeleter {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

// klauspost's default MaxWindowSize is 512 MiB (libzstd's own default is
// 128 MiB), so frames upstream accepts are accepted here too.
constexpr int kZstdWindowLogMax = 29;

class ZstdBodyDecoder final : public StickyDecoder {
 public:
  explicit ZstdBodyDecoder(size_t limit) : StickyDecoder(limit), dctx_(ZSTD_createDCtx()) {
    if (dctx_ && ZSTD_isError(ZSTD_DCtx_setParameter(dctx_.get(), ZSTD_d_windowLogMax, kZstdWindowLogMax))) {
      dctx_.reset();
    }
  }

 private:
  std::optional<Error> do_feed(std::string_view& in, std::string& out) override {
    if (!dctx_) return decode_error("zstd: cannot initialise decoder");
    if (resume_ && mid_frame_) {
      if (auto e = run(in, out)) return e;
      if (budget_.step_full()) return std::nullopt;
    }
    while (!in.empty()) {
      if (!mid_frame_) {
        // klauspost reads a whole 4-byte magic before judging it, so a
        // short tail after the last frame is "unexpected EOF" whatever its
        // bytes; libzstd would reject a bad prefix at once.
        if (!magic_.fill(in)) return std::nullopt;
        // Only current frames and skippable frames: libzstd would also take
        // legacy (v0.5-v0.7) frames, which klauspost rejects.
        const uint32_t m = magic_.le32<0>();
        if (m != ZSTD_MAGICNUMBER && (m & ZSTD_MAGIC_SKIPPABLE_MASK) != ZSTD_MAGIC_SKIPPABLE_START) {
          return decode_error("zstd: invalid input: magic number mismatch");
        }
        if (m == ZSTD_MAGICNUMBER) {
          // The whole frame header first: a frame that names a dictionary
          // is refused (klauspost has none registered), and libzstd only
          // checks that when it streams, not when a frame arrives whole.
          if (header_.empty()) header_.assign(magic_.view());
          if (auto e = fill_header(in)) return e;
          if (!header_complete_) return std::nullopt;
        } else {
          header_.assign(magic_.view());
        }
        std::string_view head = header_;
        magic_.clear();
        if (auto e = run(head, out)) return e;
        header_.clear();
        header_complete_ = false;
        // A header never completes a frame, so libzstd takes it all (and
        // makes no output of it that could fill a step).
        if (!head.empty()) return decode_error("zstd: internal error");
      }
      if (auto e = run(in, out)) return e;
      if (budget_.step_full()) return std::nullopt;
    }
    return std::nullopt;
  }

  // Collects the frame header after the magic; sets header_complete_.
  std::optional<Error> fill_header(std::string_view& in) {
    constexpr size_t kPrefix = 5;  // magic + frame header descriptor
    while (!in.empty() && header_.size() < kPrefix) {
      header_.push_back(in.front());
      in.remove_prefix(1);
    }
    if (header_.size() < kPrefix) return std::nullopt;
    const size_t need = ZSTD_frameHeaderSize(header_.data(), header_.size());
    if (ZSTD_isError(need)) return decode_error(std::string("zstd: ") + ZSTD_getErrorName(need));
    size_t take = std::min(need - std::min(need, header_.size()), in.size());
    header_.append(in.substr(0, take));
    in.remove_prefix(take);
    if (header_.size() < need) return std::nullopt;
    ZSTD_frameHeader fh{};
    const size_t r = ZSTD_getFrameHeader(&fh, header_.data(), header_.size());
    if (ZSTD_isError(r) || r != 0) return decode_error("zstd: invalid input: bad frame header");
    if (fh.dictID != 0) return decode_error("zstd: unknown dictionary");
    header_complete_ = true;
    return std::nullopt;
  }

  // Decodes `in` up to the end of the frame (anything left goes through
  // the magic check), or until the step is full.
  std::optional<Error> run(std::string_view& in, std::string& out) {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    while (true) {
      ZSTD_outBuffer output{out_.data(), out_.size(), 0};
      const size_t ret = ZSTD_decompressStream(dctx_.get(), &output, &input);
      if (ZSTD_isError(ret)) return decode_error(std::string("zstd: ") + ZSTD_getErrorName(ret));
      if (auto e = budget_.append(out, std::string_view(out_.data(), output.pos))) return e;
      // 0: the frame ended and is fully flushed, even if `output` is full;
      // asking again would start a new frame and report it as pending.
      mid_frame_ = ret != 0;
      if (!mid_frame_) {
        in.remove_prefix(input.pos);
        return std::nullopt;
      }
      if (input.pos == input.size && output.pos < output.size) {
        in = std::string_view();
        return std::nullopt;
      }
      if (budget_.step_full()) {
        in.remove_prefix(input.pos);
        return std::nullopt;
      }
    }
  }

  // Zero frames is an empty body to klauspost; a cut-off frame is not.
  std::optional<Error> do_finish(std::string&) override {
    if (mid_frame_ || !magic_.empty() || !header_.empty()) return unexpected_eof();
    return std::nullopt;
  }

  std::unique_ptr<ZSTD_DCtx, ZstdDCtxDeleter> dctx_;
  bool mid_frame_ = false;
  FieldBuffer<4> magic_;
  std::string header_;  // magic + frame header, until complete
  bool header_complete_ = false;
  Chunk out_{};
};

}  // namespace

std::optional<Error> BodyDecoder::feed(std::string_view in, std::string& out) {
  bool more = true;
  while (!in.empty() || more) {
    if (auto e = feed_some(in, out, kUnlimited, more)) return e;
  }
  return std::nullopt;
}

std::unique_ptr<BodyDecoder> BodyDecoder::create(std::string_view content_encoding, size_t max_output) {
  if (content_encoding == "gzip") return std::make_unique<GzipDecoder>(max_output);
  if (content_encoding == "br") return std::make_unique<BrotliBodyDecoder>(max_output);
  if (content_encoding == "deflate") return std::make_unique<DeflateDecoder>(max_output);
  if (content_encoding == "zstd") return std::make_unique<ZstdBodyDecoder>(max_output);
  return nullptr;
}

}  // namespace tlsc
