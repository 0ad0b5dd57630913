// RequestInput -> the session's ClientOptions, with upstream's CreateClient
// rules and words, and -> the modification a request makes to an existing
// session.
#pragma once

#include "abi/request_input.h"
#include "core/error.h"
#include "http/client_options.h"

namespace tlsc {

// The profile (or customTlsClient) is resolved here into its ClientHello
// spec and HTTP/2 fingerprint. The proxy URL is stored but not checked:
// set_proxy checks it when a new session is made.
Result<ClientOptions> client_options_from_input(const RequestInput& in);

ClientModification modification_from_input(const RequestInput& in);

}  // namespace tlsc
