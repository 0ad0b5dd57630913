// The allocation-failure run, as nghttp2's failmalloc test and curl's
// torture mode do it: this program replaces the global operator new, so
// every C++ allocation of the library (linked in, called through the C
// ABI as a binding calls it) is counted, and the Nth one fails with
// std::bad_alloc, for N = 0, 1, 2, ... through one request of each kind:
// HTTP/1.1, HTTPS over HTTP/2 (the handshake included), a CONNECT proxy,
// redirects, decoding, the async path.
//
// Each run must answer: the expected response, or a status-0 error in the
// normal shape (a known errorCode, a non-empty body). Never a crash, a
// hang (a watchdog gives each request 60 s) or a leak: the sanitized
// build runs it under AddressSanitizer, whose leak check runs at exit.
// After every failure the runtime must still serve: every 16th run, and
// at the end, one request runs with nothing failing.
//
//   failmalloc_test [MAX_POINTS_PER_KIND [KIND N]]
//     MAX_POINTS_PER_KIND (default 400): the failure points are spread
//     evenly over a kind's allocations when there are more;
//     KIND N: only that kind (its index in `kinds`), only allocation N
//     (to look at one failure under a debugger).
//
// BoringSSL, nghttp2 and c-ares allocate with malloc, which is not made to
// fail here: each has allocation-failure tests of its own. What fails here
// is ours.
#include <execinfo.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "servers.h"
#include "tls_client.h"

namespace {

using json = nlohmann::json;

// ---- the allocator ----

std::atomic<bool> g_armed{false};
std::atomic<long> g_countdown{-1};  // the allocation that finds it at 0 fails
std::atomic<long> g_count{0};       // allocations while armed

// Where the failed allocation was, for the report of a run that went
// wrong (backtrace allocates nothing once warmed up).
void* g_where[48];
std::atomic<int> g_where_depth{0};

void* allocate(std::size_t n, std::size_t align) {
  if (g_armed.load(std::memory_order_relaxed)) {
    g_count.fetch_add(1, std::memory_order_relaxed);
    if (g_countdown.fetch_sub(1, std::memory_order_relaxed) == 0) {
      g_where_depth.store(backtrace(g_where, 48));
      return nullptr;
    }
  }
  if (n == 0) n = 1;
  if (align <= alignof(std::max_align_t)) return std::malloc(n);
  return std::aligned_alloc(align, (n + align - 1) / align * align);
}

void* allocate_or_throw(std::size_t n, std::size_t align) {
  void* p = allocate(n, align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

void* operator new(std::size_t n) { return allocate_or_throw(n, 0); }
void* operator new[](std::size_t n) { return allocate_or_throw(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate_or_throw(n, static_cast<size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) {
  return allocate_or_throw(n, static_cast<size_t>(a));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

// ---- one request, with a watchdog ----

// A run slower than this went wrong: it waited for its timeout (twice
// this) instead of failing at once.
constexpr double kStall = 3.0;

void print_where();

struct Kind {
  std::string name;
  json input;             // sessionId is set per run
  int want_status;        // the answer when nothing fails
  std::string want_body;  // a prefix of it
  bool async = false;
};

std::string take(char* out) {
  // Our own answer handling never runs armed: only the library's does.
  if (out == nullptr) return "null";
  std::string s(out);
  auto j = json::parse(s, nullptr, false);
  if (!j.is_discarded() && j.is_object() && j.contains("id") && j["id"].is_string()) {
    std::string id = j["id"];
    freeMemory(id.data());
  }
  return s;
}

// Runs the kind once, with the allocation `fail_at` failing (-1: none).
// Returns the response JSON (text).
std::string run_once(const Kind& k, const std::string& session, long fail_at, double* seconds = nullptr) {
  const auto t0 = std::chrono::steady_clock::now();
  g_where_depth.store(0);
  json in = k.input;
  in["sessionId"] = session;
  std::string text = in.dump();
  std::string answer;
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread t([&] {
    g_countdown.store(fail_at, std::memory_order_relaxed);
    g_armed.store(true, std::memory_order_relaxed);
    char* out = nullptr;
    if (!k.async) {
      out = request(text.data());
      g_armed.store(false, std::memory_order_relaxed);
      answer = take(out);
    } else {
      out = requestAsync(text.data());
      g_armed.store(false, std::memory_order_relaxed);
      std::string accepted(out != nullptr ? out : "null");
      auto a = json::parse(accepted, nullptr, false);
      if (a.is_object() && a.contains("status")) {
        answer = accepted;  // refused at once, in the response shape
      } else {
        const std::string id = a.value("id", "");
        for (int i = 0; i < 600 && answer.empty(); ++i) {
          g_armed.store(true, std::memory_order_relaxed);
          char* batch = waitNext(100);
          g_armed.store(false, std::memory_order_relaxed);
          std::string items(batch != nullptr ? batch : "[]");
          for (auto& r : json::parse(items, nullptr, false)) {
            if (r.is_object() && r.value("id", "") == id) answer = r.dump();
          }
        }
        if (answer.empty()) answer = "no answer from waitNext within 60 s";
      }
    }
    g_armed.store(false, std::memory_order_relaxed);
    std::lock_guard lock(m);
    done = true;
    cv.notify_all();
  });
  {
    std::unique_lock lock(m);
    if (!cv.wait_for(lock, std::chrono::seconds(60), [&] { return done; })) {
      std::fprintf(stderr, "FAIL %s: allocation %ld failed and the request hung for 60 s\n", k.name.c_str(),
                   fail_at);
      print_where();
      std::fflush(stderr);
      std::_Exit(1);
    }
  }
  t.join();
  if (seconds != nullptr)
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string closing = json{{"sessionId", session}}.dump();
  take(destroySession(closing.data()));
  return answer;
}

// The failed allocation's call stack, our frames named (addr2line).
void print_where() {
  const int n = g_where_depth.load();
  if (n <= 0) return;
  char exe[4096];
  const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return;
  exe[len] = '\0';
  std::string cmd = std::string("addr2line -C -f -i -p -e ") + exe;
  char** lines = backtrace_symbols(g_where, n);
  for (int i = 2; i < n && lines != nullptr; ++i) {  // past allocate() and operator new
    std::string line = lines[i];
    const size_t plus = line.find("(+");
    // Frames of this executable ("<path>(+0x...)"), not of shared libraries.
    if (plus == std::string::npos || line.substr(0, plus).find(".so") != std::string::npos) continue;
    cmd += " " + line.substr(plus + 2, line.find(')', plus) - plus - 2);
  }
  std::free(lines);
  std::fprintf(stderr, "  the allocation that failed:\n");
  std::fflush(stderr);
  if (FILE* f = popen(
          (cmd + " | grep -v -E '^ *\\(inlined by\\) std::|^std::|^operator new' | head -12").c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, f) != nullptr) std::fprintf(stderr, "    %s", buf);
    pclose(f);
  }
}

// The answer is the expected one, or a clean failure.
bool answer_ok(const Kind& k, const std::string& text, bool must_succeed, std::string& why) {
  auto r = json::parse(text, nullptr, false);
  if (r.is_discarded() || !r.is_object() || !r.contains("status") || !r["status"].is_number()) {
    why = "not a response: " + text.substr(0, 300);
    return false;
  }
  const int status = r["status"];
  const std::string body = r.value("body", "");
  if (status == k.want_status && body.starts_with(k.want_body)) return true;
  if (must_succeed) {
    why = "failed with nothing failing: " + text.substr(0, 300);
    return false;
  }
  if (status != 0) {
    why = "neither the answer nor a failure: " + text.substr(0, 300);
    return false;
  }
  if (std::string problem = itest::response_shape_problem(r); body.empty() || !problem.empty()) {
    why = "a failure not in the normal shape (" + problem + "): " + text.substr(0, 300);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const long max_points = argc > 1 ? std::atol(argv[1]) : 400;
  backtrace(g_where, 1);  // loads what backtrace needs, before anything is armed
  const long only_kind = argc > 2 ? std::atol(argv[2]) : -1;
  const long only_point = argc > 3 ? std::atol(argv[3]) : -1;
  // The test PKI's root is the only trusted root; names never leave the
  // machine (as the integration tests set it up).
  const std::string certs = itest::cert_dir();
  setenv("SSL_CERT_FILE", (certs + "/ca.pem").c_str(), 1);
  if (FILE* f = std::fopen("/tmp/tlsc-failmalloc-resolv.conf", "w")) {
    std::fputs("nameserver 127.0.0.1\n", f);
    std::fclose(f);
  }
  setenv("TLS_CLIENT_RESOLV_CONF", "/tmp/tlsc-failmalloc-resolv.conf", 1);

  const std::string h1 = itest::h1_servers().http;
  itest::ChildServer h2({"node", std::string(TLSC_SOURCE_DIR) + "/tests/servers/node_h2_server.js", "--cert",
                         certs + "/good.pem", "--key", certs + "/good.key"});
  const std::string h2_origin = "https://127.0.0.1:" + std::to_string(h2.info()["main"].get<int>());
  itest::ChildServer proxy(
      {"python3", std::string(TLSC_SOURCE_DIR) + "/tests/servers/proxies/connect_proxy.py"});
  const std::string proxy_url = "http://127.0.0.1:" + std::to_string(proxy.info()["port"].get<int>());

  auto input = [](const std::string& url, json extra = json::object()) {
    json in = {{"requestUrl", url},
               {"requestMethod", "GET"},
               {"timeoutSeconds", static_cast<int>(2 * kStall)},
               {"tlsClientIdentifier", "chrome_133"}};
    in.update(extra);
    return in;
  };
  const std::vector<Kind> kinds = {
      {"http/1.1", input(h1 + "/status/200"), 200, "status 200"},
      {"https h2 (handshake, verification)", input(h2_origin + "/hello"), 200, "hello from node h2"},
      {"CONNECT proxy to https", input(h2_origin + "/hello", {{"proxyUrl", proxy_url}}), 200,
       "hello from node h2"},
      {"redirects, cookies", input(h1 + "/redirect/2", {{"followRedirects", true}}), 200, "{"},
      {"gzip and charset", input(h1 + "/gzip"), 200, ""},
      {"brotli, bytes", input(h1 + "/br", {{"isByteResponse", true}}), 200, "data:"},
      {"POST with a body", input(h1 + "/echo", {{"requestMethod", "POST"}, {"requestBody", "hello"}}), 200,
       "{"},
      {"async", input(h1 + "/status/200"), 200, "status 200", true},
  };

  int failures = 0;
  long runs = 0;
  for (size_t ki = 0; ki < kinds.size(); ++ki) {
    const Kind& k = kinds[ki];
    if (only_kind >= 0 && static_cast<long>(ki) != only_kind) continue;
    // Warm up (the runtime, the profile tables, the first handshake's
    // one-time work), then count one request's allocations.
    std::string why;
    if (!answer_ok(k, run_once(k, "warm", -1), true, why)) {
      std::fprintf(stderr, "FAIL %s: %s\n", k.name.c_str(), why.c_str());
      return 1;
    }
    g_count.store(0);
    run_once(k, "count", -1);
    const long total = g_count.load();
    const long step = std::max(1L, total / max_points);
    long failed_answers = 0;
    for (long n = only_point >= 0 ? only_point : 0; n < total; n += step) {
      ++runs;
      double took = 0;
      const std::string answer = run_once(k, "fail", n, &took);
      if (!answer_ok(k, answer, false, why)) {
        std::fprintf(stderr, "FAIL %s, allocation %ld of %ld: %s\n", k.name.c_str(), n, total, why.c_str());
        print_where();
        ++failures;
      } else if (took > kStall) {
        // A failure must end its request at once, not leave it to its timeout.
        std::fprintf(stderr, "FAIL %s, allocation %ld of %ld: answered after %.1f s: %s\n", k.name.c_str(), n,
                     total, took, answer.substr(0, 200).c_str());
        print_where();
        ++failures;
      }
      if (answer.find("\"status\":0") != std::string::npos) ++failed_answers;
      if ((n / step) % 16 == 15 && !answer_ok(k, run_once(k, "after", -1), true, why)) {
        std::fprintf(stderr, "FAIL %s after allocation %ld failed: %s\n", k.name.c_str(), n, why.c_str());
        ++failures;
      }
      if (only_point >= 0) break;
    }
    std::printf(
        "%-36s %6ld allocations, every %ld-th failed: %ld runs answered with an error, the rest as usual\n",
        k.name.c_str(), total, step, failed_answers);
    std::fflush(stdout);
  }
  for (const Kind& k : kinds) {
    std::string why;
    if (!answer_ok(k, run_once(k, "final", -1), true, why)) {
      std::fprintf(stderr, "FAIL %s at the end: %s\n", k.name.c_str(), why.c_str());
      ++failures;
    }
  }
  take(destroyAll());
  std::printf("failmalloc: %ld runs, %d failures\n", runs, failures);
  return failures == 0 ? 0 : 1;
}
