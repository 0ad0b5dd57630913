// The file writes streamOutputPath needs. Blocking: callers run them off
// the loop thread (Reactor::run_blocking). C stdio is the same on every OS.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace tlsc {

// Appends `text` to the file at `path` (created if missing) in writes of
// `block` bytes, then `trailer`, as upstream writes a streamed body.
// Errors: ErrorCode::file, "open <path>: <reason>" or "write <path>: ...".
std::optional<Error> append_to_file(const std::string& path, std::string_view text, size_t block,
                                    std::string_view trailer);

}  // namespace tlsc
