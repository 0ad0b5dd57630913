// An origin as the client reaches it: the key its connections are pooled
// under, and the plan that connects to it with the client's options.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "conn/dial_plan.h"
#include "core/url.h"
#include "http/client_options.h"
#include "http/h3/h3_dial.h"

namespace tlsc {

// The pool key of a connection of these options to the URL's origin: the
// origin, plus the proxy and its generation when there is one, so that
// connections never mix proxies and a rotated proxy gets new ones.
std::string pool_key(const Url& url, const ClientOptions& options);

// tls: the client's TLS context for an https URL, else nullptr.
DialPlan dial_plan(const Url& url, const ClientOptions& options, TlsContext* tls);

// Whether a request may go over HTTP/3 at all, as upstream's RoundTrip
// decides (https, neither forceHttp1 nor disableHttp3), and also: no proxy
// (upstream's QUIC would go around it; ours does not leave the proxy), a
// profile with a QUIC fingerprint, a build with HTTP/3. Then it races
// HTTP/3 against TCP with withProtocolRacing, or with withAltSvc once the
// origin has advertised HTTP/3.
bool may_use_h3(const Url& url, const ClientOptions& options);

// The origin as Alt-Svc names it ("https://host:port"): what the client
// remembers its alternatives under.
std::string alt_svc_origin(const Url& url);

// quic_tls: the client's QUIC TLS context. alt_port: the port of the
// origin's Alt-Svc alternative, if one is known; else the origin's port,
// as upstream's racer dials it.
H3DialPlan h3_dial_plan(const Url& url, const ClientOptions& options, TlsContext* quic_tls,
                        std::optional<uint16_t> alt_port = std::nullopt);

}  // namespace tlsc
