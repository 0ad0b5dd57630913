#include "http/h3/h3_dial.h"

#include <nghttp3/nghttp3.h>

#include <optional>
#include <utility>
#include <vector>

#include "conn/quic/quic_connection.h"
#include "http/h3/h3_connection.h"
#include "tls/tls_context.h"

namespace tlsc {
namespace {

// quic-go dials what net.ResolveUDPAddr gives: the first IPv4 address when
// there is one, else the first.
const SocketAddress& address_quic_go_picks(const std::vector<SocketAddress>& addresses) {
  for (const SocketAddress& a : addresses) {
    if (a.is_v4()) return a;
  }
  return addresses.front();
}

class H3DialRun final : public H3Dial {
 public:
  H3DialRun(Reactor& reactor, H3DialPlan plan, std::string pool_key, Done done, Retired retired)
      : reactor_(reactor),
        plan_(std::move(plan)),
        pool_key_(std::move(pool_key)),
        done_(std::move(done)),
        retired_(std::move(retired)) {}

  ~H3DialRun() override {
    // Not ready yet: the attempt ends with us, and says nothing more.
    liveness_.revoke();
    done_ = nullptr;
    if (connection_) connection_->close(make_error(ErrorCode::cancelled, "context canceled"));
  }

  void start(DnsResolver& resolver) {
    resolver.resolve(plan_.host, plan_.port, plan_.families,
                     [this, alive = liveness_.watch()](Result<std::vector<SocketAddress>> r) {
                       if (alive) on_resolved(std::move(r));
                     });
  }

 private:
  void on_resolved(Result<std::vector<SocketAddress>> addresses) {
    // quic-go's net.ResolveUDPAddr error reads as the resolver's own.
    if (!addresses) return finish(addresses.error());
    if (addresses->empty())
      return finish(make_error(ErrorCode::dns, "lookup " + plan_.host + ": no such host"));
    QuicConnectOptions options;
    options.peer = address_quic_go_picks(*addresses);
    options.host = plan_.host;
    options.port = plan_.port;
    options.fingerprint = *plan_.quic;
    H3Limits limits;
    limits.max_header_bytes = plan_.max_header_bytes;
    auto made = H3Connection::connect(
        reactor_, *plan_.tls, std::move(options), *plan_.h3, limits, pool_key_,
        [this, alive = liveness_.watch()](std::optional<Error> failed) {
          if (!alive) return;
          std::shared_ptr<H3Connection> c = std::move(connection_);
          connection_.reset();
          if (failed) {
            if (c) c->close(*failed);
            reactor_.destroy_later(std::move(c));  // we may be inside it
            return finish(std::move(*failed));
          }
          finish(std::shared_ptr<HttpConnection>(std::move(c)));
        },
        [retired = retired_](H3Connection* c) {
          if (retired) retired(c);
        });
    if (!made) return finish(made.error());
    connection_ = std::move(*made);
  }

  void finish(Result<std::shared_ptr<HttpConnection>> r) {
    Done done = std::move(done_);
    done_ = nullptr;
    // Last: the owner may destroy us inside the call.
    if (done) done(std::move(r));
  }

  Reactor& reactor_;
  H3DialPlan plan_;
  std::string pool_key_;
  Done done_;
  Retired retired_;
  std::shared_ptr<H3Connection> connection_;  // until it is ready
  Liveness liveness_;
};

}  // namespace

bool http3_available() { return true; }

std::vector<std::pair<std::string, std::string>> http3_library_versions() {
  return {{"ngtcp2", ngtcp2_library_version()}, {"nghttp3", nghttp3_version(0)->version_str}};
}

bool prepare_http3_tls(TlsOptions& options) {
  options.prepare_context = prepare_quic_context;
  return true;
}

std::unique_ptr<H3Dial> dial_h3(Reactor& reactor, DnsResolver& resolver, H3DialPlan plan,
                                std::string pool_key, H3Dial::Done done, H3Dial::Retired retired) {
  auto dial = std::make_unique<H3DialRun>(reactor, std::move(plan), std::move(pool_key), std::move(done),
                                          std::move(retired));
  dial->start(resolver);
  return dial;
}

}  // namespace tlsc
