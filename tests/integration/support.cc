#include "support.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>

#include <catch2/catch.hpp>

namespace itest {

const std::string& cert_dir() {
  static const std::string dir = [] {
    std::string d = "/tmp/tlsc-itest-certs";
    std::string cmd = "bash " + std::string(TLSC_SOURCE_DIR) + "/tests/servers/make_certs.sh " + d;
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("make_certs.sh failed");
    return d;
  }();
  return dir;
}

const Library& lib() {
  static const Library l = [] {
    // Name lookups in tests must never leave the machine: point the
    // library's resolver at a loopback name server that is not there.
    static const std::string conf = [] {
      std::string path = "/tmp/tlsc-itest-resolv.conf";
      if (FILE* f = std::fopen(path.c_str(), "w")) {
        std::fputs("nameserver 127.0.0.1\n", f);
        std::fclose(f);
      }
      return path;
    }();
    setenv("TLS_CLIENT_RESOLV_CONF", conf.c_str(), 1);
    // The test PKI's root is the only trusted root, as SSL_CERT_FILE says
    // (read once, on the first TLS connection).
    setenv("SSL_CERT_FILE", (cert_dir() + "/ca.pem").c_str(), 1);
    // Users' profile files (read once, when the library first needs a
    // profile): one good file that adds an identifier, one malformed file
    // that is reported and skipped (profiles_test.cc).
    setenv("TLS_CLIENT_PROFILES_DIR", TLSC_SOURCE_DIR "/tests/integration/data/user_profiles", 1);
    // TLSC_TEST_LIBRARY runs the suite against another build (a baseline).
    const char* path = std::getenv("TLSC_TEST_LIBRARY");
    void* h = dlopen(path != nullptr && *path != '\0' ? path : TLSC_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) throw std::runtime_error(std::string("dlopen: ") + dlerror());
    Library x{};
    auto sym = [h](const char* name) {
      void* p = dlsym(h, name);
      if (p == nullptr) throw std::runtime_error(std::string("missing symbol ") + name);
      return p;
    };
    x.request = reinterpret_cast<char* (*)(char*)>(sym("request"));
    x.getCookiesFromSession = reinterpret_cast<char* (*)(char*)>(sym("getCookiesFromSession"));
    x.addCookiesToSession = reinterpret_cast<char* (*)(char*)>(sym("addCookiesToSession"));
    x.freeMemory = reinterpret_cast<char* (*)(char*)>(sym("freeMemory"));
    x.destroySession = reinterpret_cast<char* (*)(char*)>(sym("destroySession"));
    x.destroyAll = reinterpret_cast<char* (*)()>(sym("destroyAll"));
    x.requestAsync = reinterpret_cast<char* (*)(char*)>(sym("requestAsync"));
    x.waitNext = reinterpret_cast<char* (*)(int)>(sym("waitNext"));
    x.setNotify = reinterpret_cast<void (*)(void (*)(int))>(sym("setNotify"));
    return x;
  }();
  return l;
}

namespace {

const std::thread::id kMainThread = std::this_thread::get_id();

// Empty when the response has the shape every response must have.
std::string shape_problem(const json& r) {
  // Every failure names its kind; a success has none.
  static const std::set<std::string> kCodes = {"invalid_input", "dns",
                                               "connect",       "proxy",
                                               "proxy_auth",    "tls_handshake",
                                               "tls_verify",    "tls_pin",
                                               "timeout",       "redirect_limit",
                                               "http_protocol", "h2_protocol",
                                               "stream_reset",  "connection_closed",
                                               "decode",        "file",
                                               "cancelled",     "session_closed",
                                               "internal"};
  if (!r.is_object() || !r.contains("status")) return "";
  if (r["status"] == 0) {
    if (!r.contains("errorCode") || !r["errorCode"].is_string()) return "a failure without errorCode";
    if (kCodes.count(r["errorCode"].get<std::string>()) == 0) return "an unknown errorCode";
    return "";
  }
  if (r.contains("errorCode") || r.contains("errorState")) return "a success with an errorCode or errorState";
  return "";
}

}  // namespace

void check_response_shape(const json& r) {
  std::string problem = shape_problem(r);
  if (problem.empty()) return;  // (no dump of a 50 MiB body when all is well)
  if (std::this_thread::get_id() == kMainThread) {
    INFO(r.dump().substr(0, 2000));
    CHECK(problem == "");
    return;
  }
  // Catch's macros are not for other threads: fail loudly instead.
  if (!problem.empty()) {
    std::fprintf(stderr, "response shape: %s: %s\n", problem.c_str(), r.dump().substr(0, 2000).c_str());
    std::abort();
  }
}

double time_limit(double seconds) {
  const char* scale = std::getenv("TLSC_TEST_TIME_SCALE");
  double k = scale != nullptr ? std::atof(scale) : 1.0;
  return seconds * (k > 0 ? k : 1.0);
}

json call_fn(char* (*fn)(char*), const json& input) {
  std::string text = input.dump();
  char* out = fn(text.data());
  if (out == nullptr) throw std::runtime_error("library returned NULL");
  json r = json::parse(out);
  check_response_shape(r);
  if (r.contains("id") && r["id"].is_string()) {
    std::string id = r["id"];
    lib().freeMemory(id.data());
  }
  return r;
}

json call(const json& input) { return call_fn(lib().request, input); }

json call_raw(const char* text) {
  char* out = lib().request(const_cast<char*>(text));
  if (out == nullptr) throw std::runtime_error("library returned NULL");
  json r = json::parse(out);
  check_response_shape(r);
  std::string id = r.value("id", "");
  lib().freeMemory(id.data());
  return r;
}

ChildServer::ChildServer(std::vector<std::string> argv) {
  int in_pipe[2], out_pipe[2];
  // Close-on-exec: a server started later must not hold this one's stdin
  // open, or this one never sees it close.
  if (pipe2(in_pipe, O_CLOEXEC) != 0 || pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
  pid_ = fork();
  if (pid_ == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    close(in_pipe[1]);
    close(out_pipe[0]);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  stdin_fd_ = in_pipe[1];
  // Its first line says it listens: bounded, so a server that never starts
  // fails the test instead of hanging it.
  std::string line;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{out_pipe[0], POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) != 1) break;
    char c;
    if (read(out_pipe[0], &c, 1) != 1 || c == '\n') break;
    line.push_back(c);
  }
  close(out_pipe[0]);
  if (line.empty()) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
    throw std::runtime_error("server did not start within 60 s: " + argv[0]);
  }
  info_ = json::parse(line);
}

ChildServer::~ChildServer() {
  if (stdin_fd_ >= 0) close(stdin_fd_);
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  // Bounded: a server that ignores SIGTERM gets SIGKILL after 10 s.
  for (int i = 0; i < 200; ++i) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::fprintf(stderr, "test server %d ignored SIGTERM for 10 s: killed\n", pid_);
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
}

const H1Servers& h1_servers() {
  static std::unique_ptr<ChildServer> child;
  static const H1Servers s = [] {
    child = std::make_unique<ChildServer>(
        std::vector<std::string>{"node", std::string(TLSC_SOURCE_DIR) + "/tests/servers/h1_server.js"});
    H1Servers x;
    x.http = "http://127.0.0.1:" + std::to_string(child->info()["http"].get<int>());
    x.raw = "http://127.0.0.1:" + std::to_string(child->info()["raw"].get<int>());
    return x;
  }();
  return s;
}

}  // namespace itest
