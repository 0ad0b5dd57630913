#!/usr/bin/env bash
# Fetches Debian's nghttp2 source package (Debian 12's own version, with its
# security fixes), checks every file against SHA256SUMS.in at the repo root,
# and unpacks it with dpkg-source -x, which applies debian/patches.
#
#   packaging/nghttp2/fetch.sh
#
# Environment (all optional):
#   NGHTTP2_BUILD_ROOT      default <repo>/build-nghttp2 (a link into the shared cache, packaging/lib/shared_cache.sh)
#   NGHTTP2_CACHE_DIR       downloaded files; default $NGHTTP2_BUILD_ROOT/src-cache
#   NGHTTP2_SRC_DIR         unpacked, Debian-patched tree; default $NGHTTP2_BUILD_ROOT/src
#   NGHTTP2_DEBIAN_SUITES   suites for the deb-src entry;
#                           default "bookworm bookworm-security"
#
# stdout: the unpacked source tree. A second run finds the verified files in
# the cache and the tree unpacked, and touches neither apt nor the network.
# Needs root only when it has to download (apt source line, apt-get update).
set -euo pipefail

PKG=nghttp2
VERSION=1.52.0-1+deb12u3
# 1.52.0-1+deb12u3 is in bookworm-security (and bookworm once a point
# release takes it). *-security suites get the security mirror.
SUITES=${NGHTTP2_DEBIAN_SUITES:-bookworm bookworm-security}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
sums_file="$repo/SHA256SUMS.in"
# shellcheck source=../lib/shared_cache.sh
. "$repo/packaging/lib/shared_cache.sh"
[ -n "${NGHTTP2_BUILD_ROOT:-}" ] || use_shared_cache "$repo" nghttp2
build_root=${NGHTTP2_BUILD_ROOT:-$repo/build-nghttp2}
mkdir -p "$build_root"
build_root=$(cd "$build_root" && pwd -P)
cache=${NGHTTP2_CACHE_DIR:-$build_root/src-cache}
src=${NGHTTP2_SRC_DIR:-$build_root/src}

log() { echo "fetch.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }

# shellcheck source=../lib/debian_extract.sh
. "$repo/packaging/lib/debian_extract.sh"

bash "$repo/packaging/lib/debian_source.sh" \
  --package "$PKG" --version "$VERSION" --suites "$SUITES" \
  --sources-file tls-client-nghttp2-src.sources \
  --comment "Added by packaging/nghttp2/fetch.sh: source packages only, for nghttp2." \
  --cache "$cache" --sums "$sums_file" --log-name fetch.sh

# --- unpack with Debian's patches ---------------------------------------------
pinned=$(grep -Ev '^[[:space:]]*(#|$)' "$sums_file" | awk -v p="${PKG}_" 'index($2, p) == 1')
dsc=$(awk '$2 ~ /\.dsc$/ {print $2}' <<<"$pinned")
[ -n "$dsc" ] || die "SHA256SUMS.in pins no ${PKG}_*.dsc"
# The stamp names the hash of all pins, so a new pin re-unpacks.
key=$(sha256sum <<<"$pinned" | cut -d' ' -f1)
stamp="$src/.unpacked-$key"
if [ -f "$stamp" ]; then
  log "already unpacked: $src"
else
  log "unpacking $dsc into $src (dpkg-source -x, with debian/patches)"
  rm -rf "$src.tmp" "$src"
  mkdir -p "$(dirname "$src")"
  # dpkg-source warns that it cannot check the .dsc's OpenPGP signature
  # (no debian-keyring); the SHA-256 pins above are our trust anchor. It
  # does check the other files against the sums inside the .dsc.
  if ! (cd "$cache" && debian_source_extract "$dsc" "$src.tmp") >"$build_root/dpkg-source.out" 2>&1; then
    cat "$build_root/dpkg-source.out" >&2
    die "unpacking $dsc failed"
  fi
  sed -n 's/^dpkg-source: info: applying /  applied /p; s/^applying /  applied /p' "$build_root/dpkg-source.out" >&2
  [ -f "$src.tmp/lib/nghttp2_session.c" ] || die "no lib/nghttp2_session.c in $dsc"
  mv "$src.tmp" "$src"
  touch "$stamp"
fi
echo "$src"
