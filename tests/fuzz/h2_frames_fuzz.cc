// libFuzzer target for the HTTP/2 frame path: bytes a server sends, driven
// through nghttp2 and our callbacks (H2Connection) for three requests in
// flight (a GET, a POST with a body, one cancelled midway). Input layout:
//   byte 0      k: the next k bytes are the read-size script (each 1..256)
//   k bytes     read sizes (the script repeats)
//   the rest    the server's bytes, after a valid empty SETTINGS frame
// Invariants: each request ends exactly once (complete or error), nothing
// is reported after its end or after cancel, and the connection never
// crashes or leaks, whatever arrives.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <future>
#include <string>
#include <string_view>

#include "http/h2/h2_connection.h"
#include "reactor/reactor.h"

namespace {

using namespace tlsc;

class MemoryStream final : public Stream {
 public:
  void set_observer(StreamObserver* o) override { observer = o; }
  void write(std::string_view bytes) override { written += bytes.size(); }
  bool usable() const override { return open; }
  void close() override { open = false; }

  StreamObserver* observer = nullptr;
  size_t written = 0;
  bool open = true;
};

struct Recorder final : ExchangeObserver {
  int ends = 0;
  bool cancelled = false;
  void on_response_head(const ResponseHead&) override { check_live(); }
  void on_response_body(std::string_view) override { check_live(); }
  void on_response_complete() override {
    check_live();
    ++ends;
  }
  void on_response_error(const Error&, bool) override {
    check_live();
    ++ends;
  }
  void check_live() const {
    if (ends != 0 || cancelled) std::abort();  // a call after the end
  }
};

Reactor& reactor() {
  static Reactor* r = new Reactor();  // lives for the process, as libFuzzer does
  return *r;
}

void run_one(const uint8_t* data, size_t size) {
  size_t k = size > 0 ? data[0] : 0;
  if (size < 1 + k) return;
  std::string_view script(reinterpret_cast<const char*>(data + 1), k);
  std::string input("\x00\x00\x00\x04\x00\x00\x00\x00\x00", 9);  // server SETTINGS, empty
  input.append(reinterpret_cast<const char*>(data + 1 + k), size - 1 - k);

  auto stream = std::make_unique<MemoryStream>();
  MemoryStream* mem = stream.get();
  H2Fingerprint fingerprint;
  fingerprint.settings = {{1, 65536}, {2, 0}, {4, 6291456}, {6, 262144}};
  H2Limits limits;
  limits.max_header_bytes = 4096;
  auto made = H2Connection::create(reactor(), std::move(stream), "fuzz", fingerprint, limits, nullptr);
  if (!made) std::abort();
  std::shared_ptr<H2Connection> conn = *made;
  H2HeaderBlock get = {{":method", "GET"}, {":authority", "a"}, {":scheme", "https"}, {":path", "/"}};
  H2HeaderBlock post = {{":method", "POST"}, {":authority", "a"}, {":scheme", "https"}, {":path", "/p"}};
  Recorder r[3];
  auto id0 = conn->submit_block(get, std::nullopt, &r[0]);
  auto id1 = conn->submit_block(post, std::string(70000, 'x'), &r[1]);
  auto id2 = conn->submit_block(get, std::nullopt, &r[2]);
  if (!id0 || !id1 || !id2) std::abort();
  // Submitted requests leave on the next flush; an empty read runs one now,
  // so the server's frames find their streams open.
  mem->observer->on_stream_data({});

  size_t pos = 0, step = 0;
  while (pos < input.size() && mem->open && mem->observer != nullptr) {
    size_t n = k ? static_cast<size_t>(static_cast<uint8_t>(script[step++ % k])) + 1 : input.size();
    n = std::min(n, input.size() - pos);
    mem->observer->on_stream_data(std::string_view(input).substr(pos, n));
    pos += n;
    if (step == 2 && r[2].ends == 0) {
      r[2].cancelled = true;
      conn->cancel(*id2);
    }
  }
  if (mem->observer != nullptr) mem->observer->on_stream_closed(nullptr);
  for (int i = 0; i < 2; ++i) {
    if (r[i].ends != 1) std::abort();  // each request ends exactly once
  }
  if (!r[2].cancelled && r[2].ends != 1) std::abort();
  conn.reset();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // H2Connection belongs to the loop thread: run there and wait.
  std::promise<void> done;
  reactor().post([&] {
    run_one(data, size);
    done.set_value();
  });
  done.get_future().wait();
  return 0;
}
