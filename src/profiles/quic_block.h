// A profile's QUIC layer: the file's "http3"."quic" block (profiles/SCHEMA.md)
// as the QuicFingerprint it describes.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "core/error.h"
#include "wire/quic_fingerprint.h"

namespace tlsc {

Result<QuicFingerprint> quic_fingerprint_from_block(const nlohmann::json& quic);

}  // namespace tlsc
