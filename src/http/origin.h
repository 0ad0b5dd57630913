// An origin as the client reaches it: the key its connections are pooled
// under, and the plan that connects to it with the client's options.
#pragma once

#include <string>

#include "conn/dial_plan.h"
#include "core/url.h"
#include "http/client_options.h"

namespace tlsc {

// The pool key of a connection of these options to the URL's origin: the
// origin, plus the proxy and its generation when there is one, so that
// connections never mix proxies and a rotated proxy gets new ones.
std::string pool_key(const Url& url, const ClientOptions& options);

// tls: the client's TLS context for an https URL, else nullptr.
DialPlan dial_plan(const Url& url, const ClientOptions& options, TlsContext* tls);

}  // namespace tlsc
