// The file writes streamOutputPath needs. Blocking: callers run them off
// the loop thread (Reactor::run_blocking). C stdio, opened by a UTF-8 name.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace tlsc {

// std::fopen for a UTF-8 path, as Go opens every path: fopen itself on
// POSIX; on Windows the path is turned into UTF-16 for _wfopen (fopen would
// read it in the ANSI code page). nullptr and errno set on failure.
std::FILE* open_file_utf8(const std::string& path, const char* mode);

// Appends `text` to the file at `path` (created if missing) in writes of
// `block` bytes, then `trailer`, as upstream writes a streamed body.
// Errors: ErrorCode::file, "open <path>: <reason>" or "write <path>: ...".
std::optional<Error> append_to_file(const std::string& path, std::string_view text, size_t block,
                                    std::string_view trailer);

}  // namespace tlsc
