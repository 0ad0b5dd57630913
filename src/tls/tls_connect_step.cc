#include "tls/tls_connect_step.h"

#include "tls/tls_stream.h"

namespace tlsc {

TlsConnectStep::TlsConnectStep(Reactor& reactor, MakeSsl make_ssl, TlsContext* pins, std::string verify_name)
    : reactor_(reactor), make_ssl_(std::move(make_ssl)), pins_(pins), verify_name_(std::move(verify_name)) {}

TlsConnectStep::~TlsConnectStep() {
  if (handshaking_) {
    handshaking_->close();
    // Its own call may be on the stack (a failing handshake ends the chain).
    reactor_.destroy_later(std::move(handshaking_));
  }
}

void TlsConnectStep::start(Connected below, Done done) {
  done_ = std::move(done);
  auto ssl = make_ssl_();
  if (!ssl) {
    below.stream->close();
    reactor_.destroy_later(std::move(below.stream));
    reactor_.post([this, alive = liveness_.watch(), e = ssl.error()] {
      if (alive) done_(e);
    });
    return;
  }
  handshaking_ =
      std::make_unique<TlsStream>(reactor_, std::move(below.stream), std::move(*ssl), pins_, verify_name_);
  handshaking_->start_handshake([this, alive = liveness_.watch()](std::optional<Error> error) {
    if (!alive) return;
    std::unique_ptr<TlsStream> tls = std::move(handshaking_);
    if (error) {
      reactor_.destroy_later(std::move(tls));  // inside its own call
      done_(std::move(*error));
      return;
    }
    std::string alpn = tls->alpn();
    done_(Connected{std::move(tls), std::move(alpn)});
  });
}

}  // namespace tlsc
