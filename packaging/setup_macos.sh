#!/bin/bash
# What a Mac needs before packaging/release.sh and tests/run_macos.sh, the
# macOS counterpart of packaging/setup.sh (which is Debian's): Homebrew's
# bash 4+ (the scripts use mapfile and ${x,,}), GNU coreutils, sed, grep
# and patch ahead of the BSD tools, Ninja, Go (BoringSSL generates its
# error table with it) and OpenSSL 3 (the test PKI; /usr/bin/openssl is
# LibreSSL). CMake, Python 3 and Node come with GitHub's macOS runners.
#
#   bash packaging/setup_macos.sh
#
# Prints the folders to put first on PATH, one per line; in a GitHub
# workflow they are appended to $GITHUB_PATH, so the next steps have them.
# Written for macOS's own /bin/bash 3.2: it runs before Homebrew's bash.
set -euo pipefail
[ "$(uname -s)" = Darwin ] || { echo "setup_macos.sh: for macOS; on Debian, packaging/setup.sh" >&2; exit 2; }
command -v brew >/dev/null 2>&1 || { echo "setup_macos.sh: needs Homebrew (https://brew.sh)" >&2; exit 1; }
brew install --quiet bash coreutils gnu-sed grep gpatch ninja go openssl@3 >&2

# GNU patch is installed as gpatch (or patch in older formulas): a folder of
# our own gives it the name the scripts call.
shim=${TLSC_MACOS_SHIMS:-$HOME/.cache/tls-client-cpp/gnubin}
mkdir -p "$shim"
gpatch_prefix=$(brew --prefix gpatch)
for n in gpatch patch; do
  if [ -x "$gpatch_prefix/bin/$n" ]; then ln -sf "$gpatch_prefix/bin/$n" "$shim/patch"; break; fi
done
[ -x "$shim/patch" ] || { echo "setup_macos.sh: no GNU patch in $gpatch_prefix/bin" >&2; exit 1; }

dirs="$shim
$(brew --prefix coreutils)/libexec/gnubin
$(brew --prefix gnu-sed)/libexec/gnubin
$(brew --prefix grep)/libexec/gnubin
$(brew --prefix openssl@3)/bin
$(brew --prefix)/bin"
for d in $dirs; do
  [ -d "$d" ] || { echo "setup_macos.sh: $d is missing" >&2; exit 1; }
done
if [ -n "${GITHUB_PATH:-}" ]; then
  # GitHub puts the last line added first: add them in reverse.
  echo "$dirs" | tail -r >>"$GITHUB_PATH"
fi
echo "$dirs"
