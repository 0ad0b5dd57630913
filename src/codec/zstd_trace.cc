// Debian's libzstd is built with tracing hooks that it references as weak
// symbols. Left undefined they would bind to whatever the host process
// exports under those names; defining them here (hidden, doing nothing)
// keeps the decoder self-contained.
#include <cstddef>

extern "C" {
struct ZSTD_DCtx_s;
struct ZSTD_Trace;
unsigned long long ZSTD_trace_decompress_begin(const ZSTD_DCtx_s*) { return 0; }
void ZSTD_trace_decompress_end(unsigned long long, const ZSTD_Trace*) {}
}
