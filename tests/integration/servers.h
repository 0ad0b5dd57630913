// The loopback servers tests talk to, and the test PKI: what the
// integration tests and the allocation-failure run (tests/failmalloc)
// share. No test framework here.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace itest {

using json = nlohmann::json;

// The test PKI (tests/servers/make_certs.sh), made once per process.
const std::string& cert_dir();

// Empty when a response has the shape every response must have: a
// failure (status 0) names a known errorCode, a success none.
std::string response_shape_problem(const json& r);

// A child process that prints one JSON line (its ports) and lives until its
// stdin closes.
class ChildServer {
 public:
  explicit ChildServer(std::vector<std::string> argv);
  ~ChildServer();
  const json& info() const { return info_; }

 private:
  int pid_ = -1;
  int stdin_fd_ = -1;
  json info_;
};

// tests/servers/NAME.
std::string server_script(const std::string& name);

// A ChildServer started on first use under `name` and kept for the rest of
// the process; its info. A server that reports port 0 fails the test.
const json& start_once(const std::string& name, std::vector<std::string> argv);

// The Node loopback servers of tests/servers/h1_server.js, started once.
struct H1Servers {
  std::string http;  // "http://127.0.0.1:port"
  std::string raw;
  int http6_port = 0;  // the http server again, on [::1]
};
const H1Servers& h1_servers();

}  // namespace itest
