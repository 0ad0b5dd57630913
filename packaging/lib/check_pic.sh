#!/usr/bin/env bash
# Checks that a static archive can be linked into a shared library (x86-64):
#
#   packaging/lib/check_pic.sh path/to/libfoo.a
#
# 1. readelf -rW: no member has an R_X86_64_PC32 or R_X86_64_32(S)
#    relocation against a symbol that member leaves undefined (how non-PIC
#    code reaches data in another object, e.g. Debian's libnghttp2.a against
#    libc's `stderr`), and none has R_X86_64_32(S) outside debug sections
#    (absolute 32-bit addresses).
# 2. The whole archive links into a shared object (cc -shared
#    -Wl,--whole-archive), which is the test the linker itself applies.
#
# Exit 0 and "check_pic.sh: ok ..." on stderr when both pass; otherwise lists
# the offending relocations (or the linker's message) and exits 1.
set -euo pipefail

log() { echo "check_pic.sh: $*" >&2; }
[ $# -eq 1 ] || { log "usage: check_pic.sh ARCHIVE.a"; exit 2; }
archive=$1
[ -f "$archive" ] || { log "error: no such file: $archive"; exit 2; }
for tool in readelf nm "${CC:-cc}"; do
  command -v "$tool" >/dev/null 2>&1 || { log "error: $tool not found (Debian: binutils, gcc)"; exit 2; }
done

# "member symbol" for every symbol a member leaves undefined.
undefined=$(nm -A -u "$archive" 2>/dev/null | awk '
  { n = split($1, p, ":"); m = p[n - 1]; if ($(NF - 1) == "U") print m, $NF }')

bad=$(readelf -rW "$archive" | awk -v undef="$undefined" '
  BEGIN {
    n = split(undef, lines, "\n")
    for (i = 1; i <= n; i++) if (lines[i] != "") u[lines[i]] = 1
  }
  /^File: / {
    m = $0; sub(/^File: .*\(/, "", m); sub(/\)$/, "", m); next
  }
  /^Relocation section / {
    sec = $3; gsub(/\047/, "", sec); next
  }
  $3 ~ /^R_X86_64_(PC32|32|32S)$/ {
    sym = $5; sub(/@.*/, "", sym)
    if ((m " " sym) in u) {
      print m ": " sec ": " $3 " against undefined symbol " sym
    } else if ($3 != "R_X86_64_PC32" && sec !~ /^\.rela\.debug/) {
      print m ": " sec ": " $3 " (absolute 32-bit address) against " sym
    }
  }')
if [ -n "$bad" ]; then
  log "error: $archive is not position-independent:"
  head -n 20 <<<"$bad" | while IFS= read -r line; do echo "  $line"; done >&2
  n=$(wc -l <<<"$bad")
  [ "$n" -le 20 ] || log "... and $((n - 20)) more"
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "${CC:-cc}" -shared -o "$tmp/check.so" -Wl,--whole-archive "$archive" -Wl,--no-whole-archive \
     >"$tmp/ld.out" 2>&1; then
  log "error: $archive does not link into a shared object:"
  head -n 20 "$tmp/ld.out" >&2
  exit 1
fi
members=$(readelf -hW "$archive" | grep -c '^File: ' || true)
log "ok: $archive ($members objects; no PC32/32 relocation against an undefined symbol; links with -shared)"
