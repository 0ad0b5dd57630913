#!/usr/bin/env bash
# Fetches Debian's android-platform-external-boringssl source package (the
# BoringSSL we build on), checks every file against SHA256SUMS.in at the repo
# root, and unpacks the pristine orig tarball.
#
#   packaging/boringssl/fetch.sh
#
# Environment (all optional):
#   BORINGSSL_BUILD_ROOT  default <repo>/build-boringssl (a link into the shared cache, packaging/lib/shared_cache.sh)
#   BORINGSSL_CACHE_DIR   downloaded files; default $BORINGSSL_BUILD_ROOT/src-cache
#   BORINGSSL_ORIG_DIR    pristine unpacked tarball; default $BORINGSSL_BUILD_ROOT/orig
#   BORINGSSL_DEBIAN_SUITES  suites for the deb-src entry; default "trixie forky"
#
# A second run finds the verified files in the cache and touches neither apt
# nor the network. Needs root only when it has to download (apt source line,
# apt-get update).
set -euo pipefail

PKG=android-platform-external-boringssl
VERSION=14.0.0+r45-3
# Debian suites whose source indexes we add. 14.0.0+r45-3 is in forky/sid;
# trixie lists 14.0.0+r45-2, which has the same orig tarball (same SHA-256)
# and differs only in debian/ packaging, but whose files this machine's mirror
# does not serve. Order does not matter: apt-get source picks VERSION exactly.
SUITES=${BORINGSSL_DEBIAN_SUITES:-trixie forky}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
sums_file="$repo/SHA256SUMS.in"
# shellcheck source=../lib/shared_cache.sh
. "$repo/packaging/lib/shared_cache.sh"
[ -n "${BORINGSSL_BUILD_ROOT:-}" ] || use_shared_cache "$repo" boringssl
build_root=${BORINGSSL_BUILD_ROOT:-$repo/build-boringssl}
mkdir -p "$build_root"
build_root=$(cd "$build_root" && pwd -P)
cache=${BORINGSSL_CACHE_DIR:-$build_root/src-cache}
orig=${BORINGSSL_ORIG_DIR:-$build_root/orig}

log() { echo "fetch.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }

# Download (or find in the cache) and verify the pinned files: the shared
# Debian-source step, packaging/lib/debian_source.sh.
bash "$repo/packaging/lib/debian_source.sh" \
  --package "$PKG" --version "$VERSION" --suites "$SUITES" \
  --sources-file tls-client-boringssl-src.sources \
  --comment "Added by packaging/boringssl/fetch.sh: source packages only, for BoringSSL." \
  --cache "$cache" --sums "$sums_file" --log-name fetch.sh

# Our pinned lines: "<sha256>  <filename>" for this package's files.
pinned=$(grep -Ev '^[[:space:]]*(#|$)' "$sums_file" | awk -v p="${PKG}_" 'index($2, p) == 1') || true
mapfile -t pinned_names < <(awk '{print $2}' <<<"$pinned")

# --- unpack the orig tarball ------------------------------------------------
tarball=""
for f in "${pinned_names[@]}"; do
  case $f in *.orig.tar.*) tarball=$f ;; esac
done
[ -n "$tarball" ] || die "SHA256SUMS.in pins no .orig.tar.* file"
tar_sum=$(awk -v f="$tarball" '$2 == f {print $1}' <<<"$pinned")
stamp="$orig/.unpacked-$tar_sum"
if [ -f "$stamp" ]; then
  log "already unpacked: $orig"
else
  log "unpacking $tarball into $orig"
  rm -rf "$orig.tmp" "$orig"
  mkdir -p "$orig.tmp"
  tar -xf "$cache/$tarball" -C "$orig.tmp"
  # The tarball holds one top folder (android-platform-external-boringssl-
  # 14.0.0+r45/); $orig becomes that folder, so $orig/src is BoringSSL.
  top=("$orig.tmp"/*)
  if [ ${#top[@]} -eq 1 ] && [ -d "${top[0]}" ]; then
    mv "${top[0]}" "$orig"
    rmdir "$orig.tmp"
  else
    mv "$orig.tmp" "$orig"
  fi
  [ -f "$orig/src/CMakeLists.txt" ] || die "no src/CMakeLists.txt in $tarball"
  touch "$stamp"
fi
# stdout: the unpacked package root (BoringSSL itself is its src/).
echo "$orig"
