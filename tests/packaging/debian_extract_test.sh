#!/usr/bin/env bash
# A machine without apt and dpkg (GitHub's macOS runners) downloads
# Debian's source packages from the archive with curl
# (packaging/lib/debian_source.sh) and unpacks them with
# packaging/lib/debian_extract.sh's own steps. This checks both here: one
# package's pinned files downloaded that way into an empty folder pass their
# pins, and for every package a build unpacks, those steps give the same tree
# as `dpkg-source -x` (Debian's patches applied, nothing else different),
# from the pinned files (SHA256SUMS.in), kept in the shared cache.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/packaging/lib/debian_extract.sh"
cache=${TLSC_CACHE_DIR:-/var/cache/tls-client-cpp}/debian-extract-test
mkdir -p "$cache"
command -v dpkg-source >/dev/null || { echo "debian_extract_test: no dpkg-source to compare with"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# package version suites: as packaging/*/build.sh and fetch.sh pin them.
packages=(
  "nghttp2 1.52.0-1+deb12u3 bookworm-security"
  "c-ares 1.18.1-3 bookworm"
  "zlib 1:1.2.13.dfsg-1 bookworm"
  "brotli 1.0.9-2 bookworm"
  "libzstd 1.5.4+dfsg2-5 bookworm"
  "ngtcp2 1.24.0-1 trixie forky"
  "nghttp3 0.8.0-2 bookworm"
  "nlohmann-json3 3.11.2-2 bookworm"
  "catch2 2.13.10-1 bookworm"
)
failed=0
if TLSC_NO_APT=1 bash "$repo/packaging/lib/debian_source.sh" --package catch2 --version 2.13.10-1 --suites bookworm \
  --sources-file unused.sources --cache "$work/direct" --log-name debian_extract_test 2>"$work/direct.log" &&
  grep -q "^debian_extract_test: downloaded catch2_2.13.10.orig.tar.gz$" "$work/direct.log"; then
  echo "ok   catch2's pinned files downloaded without apt ($(ls "$work/direct" | wc -l) files)"
else
  echo "FAIL the download without apt:"; tail -5 "$work/direct.log"; failed=1
fi
for entry in "${packages[@]}"; do
  read -r pkg version suites <<<"$entry"
  bash "$repo/packaging/lib/debian_source.sh" --package "$pkg" --version "$version" --suites "$suites" \
    --sources-file "tls-client-$pkg-src.sources" --cache "$cache" --log-name debian_extract_test >/dev/null 2>&1 ||
    { echo "FAIL $pkg: the pinned files could not be fetched"; failed=1; continue; }
  dsc=$(cd "$cache" && ls "${pkg}_${version#*:}.dsc")
  (cd "$cache" && dpkg-source -x "$dsc" "$work/$pkg.dpkg") >/dev/null 2>&1
  (cd "$cache" && TLSC_NO_DPKG_SOURCE=1 debian_source_extract "$dsc" "$work/$pkg.own") >"$work/$pkg.log" 2>&1 ||
    { echo "FAIL $pkg: $(tail -1 "$work/$pkg.log")"; failed=1; continue; }
  # .pc/ is quilt's record of what dpkg-source applied; nothing builds from it.
  if diff -r --no-dereference -x .pc "$work/$pkg.dpkg" "$work/$pkg.own" >"$work/$pkg.diff"; then
    echo "ok   $pkg $version ($(grep -c '^applying ' "$work/$pkg.log" || true) Debian patches)"
  else
    echo "FAIL $pkg: the trees differ:"; head -20 "$work/$pkg.diff"; failed=1
  fi
done
exit $failed
