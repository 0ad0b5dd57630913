// A profile's HTTP/3 half above QUIC: the file's "http3" block (its
// settings, settings_order, grease_setting, send_grease_frames,
// pseudo_header_order and priority_param; profiles/SCHEMA.md) as the
// H3Fingerprint a connection shows. The block's shape is checked by the
// profile parser first.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "core/error.h"
#include "http/h3/h3_fingerprint.h"

namespace tlsc {

Result<H3Fingerprint> h3_fingerprint_from_block(const nlohmann::json& http3);

}  // namespace tlsc
