// A profile's HTTP/2 half: the file's "http2" block (null or absent means
// fhttp's defaults) as the H2Fingerprint the connection shows.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "core/error.h"
#include "http/h2/h2_fingerprint.h"

namespace tlsc {

Result<H2Fingerprint> h2_fingerprint_from_block(const nlohmann::json& http2, bool allow_http);

}  // namespace tlsc
