// A tls-client session: one HTTP client kept across calls under a
// sessionId, as upstream keeps an http.Client per sessionId.
#pragma once

#include <memory>
#include <string>

#include "http/client.h"

namespace tlsc {

class Session {
 public:
  Session(std::string id, std::shared_ptr<HttpClient> client)
      : id_(std::move(id)), client_(std::move(client)) {}

  const std::string& id() const { return id_; }
  const std::shared_ptr<HttpClient>& client() const { return client_; }

 private:
  const std::string id_;
  const std::shared_ptr<HttpClient> client_;
};

}  // namespace tlsc
