#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine needs to build and test the
# library. Safe to run again.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
pkgs=(build-essential cmake ninja-build pkg-config git
      libc-ares-dev zlib1g-dev libbrotli-dev libzstd-dev
      catch2 nlohmann-json3-dev
      clang-14 libclang-rt-14-dev lld-14 clang-format-14
      python3 zstd binutils openssl ccache
      golang-go patch perl gnutls-bin dpkg-dev
      nghttp2-server h2o
      ngtcp2-client  # Debian's HTTP/3 client (GnuTLS), a peer of the HTTP/3 capture server
      ngtcp2-server caddy iproute2  # HTTP/3 servers the QUIC tests start (ss: their UDP port is bound)
      python3-websockets  # a WebSocket server the tests start (for /usr/bin/python3)
      squid tinyproxy dante-server microsocks)  # proxies the tests start on loopback
# The machine image may carry its own Node.js outside Debian's packages.
command -v node >/dev/null 2>&1 || pkgs+=(nodejs npm)
# nginx is a test peer; any Debian flavour of it will do.
[ -x /usr/sbin/nginx ] || pkgs+=(nginx-light)
# The HTTP/2 interop tests' nginx echoes POST bodies with the echo module.
pkgs+=(libnginx-mod-http-echo)
# Linux arm64, cross-built and tested under qemu-user (packaging/toolchains/):
# the cross compiler, and Debian's arm64 builds of the libraries we link and
# of the C and C++ runtimes the tests run on, through multiarch.
pkgs+=(g++-aarch64-linux-gnu qemu-user
       libc6:arm64 libstdc++6:arm64
       libc-ares-dev:arm64 zlib1g-dev:arm64 libbrotli-dev:arm64 libzstd-dev:arm64)
# Windows x64, cross-built with mingw-w64 (POSIX threads) and tested under
# wine64; BoringSSL's assembly for Windows needs NASM. Its other
# dependencies are built from Debian's sources (packaging/deps/build.sh).
pkgs+=(g++-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 wine64 nasm)
# Windows 32-bit: the i686 compilers; 32-bit wine (i386 multiarch) runs its
# tests and is installed on its own below.
pkgs+=(g++-mingw-w64-i686-posix gcc-mingw-w64-i686-posix)
i386_pkgs=(wine32:i386)
new_arch=0
for arch in arm64 i386; do
  if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
    dpkg --add-architecture "$arch"
    new_arch=1
  fi
done
missing_of() {
  local p
  for p; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
# apt-get update for amd64 and the given foreign architectures. A mirror
# caught mid-sync fails one index ("File has unexpected size. Mirror sync in
# progress?") and apt-get update with it, and apt then leaves that suite's
# other architectures unfetched: multiarch packages of those architectures
# no longer match the amd64 ones and cannot be installed. So each foreign
# architecture is fetched with amd64 alone, a broken one cannot hold back
# the others, and a few tries pass a sync that is ending.
apt_update() {
  local try a opts=(-o APT::Architectures::=amd64)
  for a; do opts+=(-o "APT::Architectures::=$a"); done
  for try in 1 2 3; do
    apt-get update -qq "${opts[@]}" && return 0
    sleep $((try * 5))
  done
  echo "setup: apt-get update failed for some indexes (above); going on with those it fetched" >&2
}
mapfile -t missing < <(missing_of "${pkgs[@]}")
if [ ${#missing[@]} -gt 0 ] || [ "$new_arch" = 1 ]; then
  apt_update arm64
fi
if [ ${#missing[@]} -gt 0 ]; then
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# 32-bit wine only runs the Windows 32-bit tests: when the mirror cannot give
# it, setup goes on and tests/run_all.sh says which of those tests did not
# run (the 32-bit DLL is still built and its exports checked).
mapfile -t missing < <(missing_of "${i386_pkgs[@]}")
if [ ${#missing[@]} -gt 0 ]; then
  apt_update i386
  apt-get install -y -qq "${missing[@]}" >/dev/null ||
    echo "setup: could not install ${missing[*]} from this mirror: the Windows 32-bit tests will not run under wine" >&2
fi
# The pinned Debian sources of BoringSSL and nghttp2 (need root once: each
# adds a deb-src entry). Their builds run from demo.sh and tests/run_all.sh.
bash "$(dirname "$0")/boringssl/fetch.sh" >/dev/null
bash "$(dirname "$0")/nghttp2/fetch.sh" >/dev/null
echo "setup: ok"
