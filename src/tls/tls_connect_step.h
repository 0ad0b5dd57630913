// TLS as a connect step: wraps the stream below in a TlsStream and runs the
// handshake; yields the TlsStream and the protocol ALPN chose. The SSL comes
// from whoever knows the fingerprint: the session's TlsContext for an
// origin (the profile's ClientHello, pins checked after the handshake), the
// proxy's plain context for an HTTPS proxy.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <openssl/ssl.h>

#include "net/connect_step.h"
#include "reactor/reactor.h"

namespace tlsc {

class TlsContext;
class TlsStream;

class TlsConnectStep final : public ConnectStep {
 public:
  using MakeSsl = std::function<Result<bssl::UniquePtr<SSL>>()>;

  // pins: the context whose certificate pins apply (nullptr: none).
  // verify_name: the name the certificate must show (and the error texts).
  TlsConnectStep(Reactor& reactor, MakeSsl make_ssl, TlsContext* pins, std::string verify_name);
  ~TlsConnectStep() override;
  void start(Connected below, Done done) override;

 private:
  Reactor& reactor_;
  MakeSsl make_ssl_;
  TlsContext* pins_;
  std::string verify_name_;
  Done done_;
  std::unique_ptr<TlsStream> handshaking_;
  Liveness liveness_;
};

}  // namespace tlsc
