// The one process-wide object: the reactor thread and everything that must
// be shared between callers (sessions, async completions, returned strings,
// streams and WebSockets named by id).
// Created on first use and never destroyed, so no exit-time destructor races
// a caller's thread or the loop.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "net/dns_resolver.h"
#include "reactor/completion_queue.h"
#include "reactor/reactor.h"
#include "runtime/async_requests.h"
#include "runtime/body_stream.h"
#include "runtime/id_registry.h"
#include "runtime/ws_channel.h"
#include "session/session_registry.h"

namespace tlsc {

// Strings handed to callers that they free by id (upstream's
// unsafePointers map).
class ReturnedStrings {
 public:
  char* keep(const std::string& id, std::string text);
  void release(const std::string& id);
  size_t size();

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::unique_ptr<std::string>> strings_;
};

class Runtime {
 public:
  static Runtime& get();

  Reactor& reactor() { return reactor_; }
  DnsResolver& resolver() { return *resolver_; }  // loop thread only
  SessionRegistry& sessions() { return *sessions_; }
  CompletionQueue& completions() { return completions_; }
  ReturnedStrings& returned() { return returned_; }
  IdRegistry<BodyStream>& streams() { return streams_; }
  IdRegistry<WsChannel>& websockets() { return websockets_; }
  AsyncRequests& async_requests() { return async_requests_; }

 private:
  Runtime();

  Reactor reactor_;
  std::unique_ptr<DnsResolver> resolver_;
  std::unique_ptr<SessionRegistry> sessions_;
  CompletionQueue completions_;
  ReturnedStrings returned_;
  IdRegistry<BodyStream> streams_;
  IdRegistry<WsChannel> websockets_;
  AsyncRequests async_requests_{reactor_};
};

}  // namespace tlsc
