#!/usr/bin/env bash
# Fetches Debian's android-platform-external-boringssl source package (the
# BoringSSL we build on), checks every file against SHA256SUMS.in at the repo
# root, and unpacks the pristine orig tarball.
#
#   packaging/boringssl/fetch.sh
#
# Environment (all optional):
#   BORINGSSL_BUILD_ROOT  default <repo>/build-boringssl
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
build_root=${BORINGSSL_BUILD_ROOT:-$repo/build-boringssl}
cache=${BORINGSSL_CACHE_DIR:-$build_root/src-cache}
orig=${BORINGSSL_ORIG_DIR:-$build_root/orig}

log() { echo "fetch.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$sums_file" ] || die "$sums_file is missing"
# Our pinned lines: "<sha256>  <filename>" for this package's files (the file
# may pin other sources too; comments and blank lines are ignored).
pinned=$(grep -Ev '^[[:space:]]*(#|$)' "$sums_file" | awk -v p="${PKG}_" 'index($2, p) == 1') || true
[ -n "$pinned" ] || die "$sums_file pins no ${PKG}_* file"
mapfile -t pinned_names < <(awk '{print $2}' <<<"$pinned")

mkdir -p "$cache"

verify() {  # all pinned files in the cache match their sums
  (cd "$cache" && sha256sum --check --strict --quiet - <<<"$pinned") >/dev/null 2>&1
}

have_all() {
  local f
  for f in "${pinned_names[@]}"; do [ -f "$cache/$f" ] || return 1; done
}

# --- the deb-src line ---------------------------------------------------------
# Same mirror and keyring as the machine's own Debian sources (deb822 .sources
# files or one-line sources.list entries); only the suite and type differ.
find_mirror() {
  local f uri="" key=""
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # First stanza whose URIs is a Debian archive (not -security).
    read -r uri key < <(awk '
      BEGIN { RS=""; FS="\n" }
      {
        u=""; k=""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^URIs:/)      { u=$i; sub(/^URIs:[ \t]*/, "", u); split(u, a, /[ \t]+/); u=a[1] }
          if ($i ~ /^Signed-By:/) { k=$i; sub(/^Signed-By:[ \t]*/, "", k) }
        }
        if (u ~ /\/debian\/?$/) { print u, (k == "" ? "-" : k); exit }
      }' "$f") || true
    [ -n "$uri" ] && break
  done
  if [ -z "$uri" ]; then
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ -f "$f" ] || continue
      read -r uri key < <(awk '
        $1 == "deb" {
          k="-"; u=""
          for (i = 2; i <= NF; i++) {
            if ($i ~ /^\[/) { while ($i !~ /\]$/ && i < NF) { if ($i ~ /signed-by=/) { k=$i }; i++ }
                              if ($i ~ /signed-by=/) k=$i; continue }
            u=$i; break
          }
          gsub(/.*signed-by=|\]$/, "", k)
          if (u ~ /\/debian\/?$/) { print u, k; exit }
        }' "$f") || true
      [ -n "$uri" ] && break
    done
  fi
  [ -n "$uri" ] || uri=http://deb.debian.org/debian
  if [ -z "$key" ] || [ "$key" = "-" ]; then key=/usr/share/keyrings/debian-archive-keyring.gpg; fi
  echo "$uri $key"
}

ensure_deb_src() {
  local list=/etc/apt/sources.list.d/tls-client-boringssl-src.sources
  local uri key want
  read -r uri key < <(find_mirror)
  want=$(printf '%s\n' \
    "# Added by packaging/boringssl/fetch.sh: source packages only, for BoringSSL." \
    "Types: deb-src" "URIs: $uri" "Suites: $SUITES" "Components: main" "Signed-By: $key")
  if [ -f "$list" ] && [ "$(cat "$list")" = "$want" ]; then
    return 1  # already there
  fi
  [ -w /etc/apt/sources.list.d ] || die "need root to write $list"
  log "writing $list ($uri $SUITES, $key)"
  printf '%s\n' "$want" >"$list"
  return 0
}

version_known() {
  apt-cache showsrc "$PKG" 2>/dev/null | grep -qx "Version: $VERSION"
}

download() {
  local added=0
  ensure_deb_src && added=1
  if [ $added = 1 ] || ! version_known; then
    log "apt-get update"
    apt-get update -qq || die "apt-get update failed"
  fi
  version_known || die "$PKG $VERSION not offered by apt (apt-cache showsrc $PKG lists: $(apt-cache showsrc "$PKG" 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' '))"
  log "downloading $PKG=$VERSION into $cache"
  # apt-get drops privileges to _apt for the download; as root it warns when
  # _apt cannot write the folder and downloads unsandboxed. Silence that one.
  (cd "$cache" && apt-get source --download-only -qq "$PKG=$VERSION" 2>&1 \
     | grep -v 'unsandboxed as root' >&2) || true
}

if have_all && verify; then
  log "cache ok ($cache), no download"
else
  # Drop pinned files that are there but wrong, so apt fetches them afresh.
  while read -r sum name; do
    if [ -f "$cache/$name" ] && [ "$(sha256sum <"$cache/$name" | cut -d' ' -f1)" != "$sum" ]; then
      log "removing $name (checksum mismatch)"; rm -f "$cache/$name"
    fi
  done <<<"$pinned"
  download
  have_all || die "apt-get source did not produce all of: ${pinned_names[*]}"
  if ! verify; then
    (cd "$cache" && sha256sum --check --strict - <<<"$pinned") >&2 || true
    die "checksum mismatch against $sums_file"
  fi
  log "verified ${#pinned_names[@]} files against SHA256SUMS.in"
fi

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
