#include "servers.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>

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

std::string response_shape_problem(const json& r) {
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
                                               "websocket",     "body_too_large",
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

namespace {

// A pipe whose ends close on exec. pipe2 sets the flag atomically (Linux);
// macOS has only pipe and fcntl, where another thread's fork between the
// two could inherit an end: the tests start their servers from one thread.
bool cloexec_pipe(int fds[2]) {
#ifdef __linux__
  return pipe2(fds, O_CLOEXEC) == 0;
#else
  if (pipe(fds) != 0) return false;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  return true;
#endif
}

}  // namespace

ChildServer::ChildServer(std::vector<std::string> argv) {
  int in_pipe[2], out_pipe[2];
  // Close-on-exec: a server started later must not hold this one's stdin
  // open, or this one never sees it close.
  if (!cloexec_pipe(in_pipe) || !cloexec_pipe(out_pipe)) throw std::runtime_error("pipe");
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

std::string server_script(const std::string& name) {
  return std::string(TLSC_SOURCE_DIR) + "/tests/servers/" + name;
}

const json& start_once(const std::string& name, std::vector<std::string> argv) {
  static std::map<std::string, std::unique_ptr<ChildServer>> children;
  auto& c = children[name];
  if (!c) {
    c = std::make_unique<ChildServer>(std::move(argv));
    if (c->info().value("port", 1) == 0) throw std::runtime_error(name + " did not start");
  }
  return c->info();
}

const H1Servers& h1_servers() {
  static std::unique_ptr<ChildServer> child;
  static const H1Servers s = [] {
    child = std::make_unique<ChildServer>(
        std::vector<std::string>{"node", std::string(TLSC_SOURCE_DIR) + "/tests/servers/h1_server.js"});
    H1Servers x;
    x.http = "http://127.0.0.1:" + std::to_string(child->info()["http"].get<int>());
    x.raw = "http://127.0.0.1:" + std::to_string(child->info()["raw"].get<int>());
    x.http6_port = child->info()["http6"].get<int>();
    return x;
  }();
  return s;
}

}  // namespace itest
