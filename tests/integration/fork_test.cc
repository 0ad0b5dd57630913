// fork() after the library was used: the child gets a runtime of its own
// (no inherited sessions or requests), blocking and async requests work in
// it, and two children never repeat each other's response ids; the parent
// goes on as before. What a Python multiprocessing pool (fork start
// method), gunicorn --preload or celery prefork do to the library.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include "support.h"

using itest::call;
using itest::h1_servers;
using itest::json;
using itest::lib;

#if !defined(__SANITIZE_THREAD__)
namespace {

json get(const std::string& url, json extra = json::object()) {
  json in = {{"requestUrl", url}, {"requestMethod", "GET"}, {"timeoutSeconds", 10}};
  in.update(extra);
  return call(in);
}

// In the child: no test framework, only the library and an exit code.
// Writes "<request id> <async id>\n" to `out`.
[[noreturn]] void child(int out) {
  alarm(30);  // a hang fails the test instead of stalling it
  std::string in =
      json({{"requestUrl", h1_servers().http + "/echo"}, {"requestMethod", "GET"}, {"timeoutSeconds", 10}})
          .dump();
  json r = json::parse(lib().request(in.data()));
  if (r["status"] != 200) _exit(2);
  // The parent's session is not the child's.
  std::string cookies_in = json({{"sessionId", "fork-parent"}, {"url", h1_servers().http + "/"}}).dump();
  json cookies = json::parse(lib().getCookiesFromSession(cookies_in.data()));
  if (cookies.value("cookies", json::array()).size() != 0) _exit(3);
  json started = json::parse(lib().requestAsync(in.data()));
  if (!started.contains("id")) _exit(4);
  json done;
  for (int i = 0; i < 20 && done.is_null(); ++i) {
    for (auto& c : json::parse(lib().waitNext(1000))) {
      if (c["id"] == started["id"]) done = c;
    }
  }
  if (done.is_null() || done["status"] != 200) _exit(5);
  std::string line = r["id"].get<std::string>() + " " + started["id"].get<std::string>() + "\n";
  if (write(out, line.data(), line.size()) != static_cast<ssize_t>(line.size())) _exit(6);
  _exit(0);
}

struct ChildResult {
  int exit_code = -1;
  std::string output;
};

ChildResult run_child() {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    child(fds[1]);
  }
  close(fds[1]);
  ChildResult result;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(40);
  int status = 0;
  while (true) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  char buf[256];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) result.output.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  result.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return result;
}

}  // namespace
#endif

TEST_CASE("fork: each child gets a fresh runtime; requests and ids work there, the parent goes on",
          "[fork]") {
#if defined(__SANITIZE_THREAD__)
  WARN("not run under ThreadSanitizer, which does not follow a multi-threaded fork");
#else
  // The parent's runtime is busy: a session with a cookie, a request in flight.
  REQUIRE(get(h1_servers().http + "/set-cookie?a=1", {{"sessionId", "fork-parent"}})["status"] == 200);
  std::string slow = json({{"requestUrl", h1_servers().http + "/delay/500"},
                           {"requestMethod", "GET"},
                           {"timeoutSeconds", 10}})
                         .dump();
  json in_flight = json::parse(lib().requestAsync(slow.data()));
  REQUIRE(in_flight.contains("id"));

  ChildResult a = run_child();
  ChildResult b = run_child();
  CHECK(a.exit_code == 0);
  CHECK(b.exit_code == 0);
  INFO(a.output << b.output);
  REQUIRE(a.output.size() > 40);
  REQUIRE(b.output.size() > 40);
  CHECK(a.output != b.output);  // the two children drew different ids

  // The parent's request completes, and its session kept its cookie.
  json done;
  for (int i = 0; i < 20 && done.is_null(); ++i) {
    for (auto& c : json::parse(lib().waitNext(1000))) {
      if (c["id"] == in_flight["id"]) done = c;
    }
  }
  REQUIRE_FALSE(done.is_null());
  CHECK(done["status"] == 200);
  json cookies = itest::call_fn(lib().getCookiesFromSession,
                                {{"sessionId", "fork-parent"}, {"url", h1_servers().http + "/"}});
  CHECK(cookies["cookies"].size() == 1);
  itest::call_fn(lib().destroySession, {{"sessionId", "fork-parent"}});
#endif
}
