#!/usr/bin/env bash
# Every C++ file of the project in the format .clang-format describes
# (clang-format 14, Debian's clang-format-14). Prints the files that differ
# and exits 1; `tests/check_format.sh --fix` rewrites them instead.
# Generated sources are left as their generators write them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cf=$(command -v clang-format-14 || command -v clang-format || true)
[ -n "$cf" ] || { echo "format: clang-format-14 is not installed (packaging/setup.sh installs it)"; exit 1; }
mapfile -t files < <(cd "$root" && find src include tests profiles/tools \
  -path '*/node_modules' -prune -o \( -name '*.cc' -o -name '*.h' \) -print |
  grep -v -e '^src/charset/tables\.cc$' | LC_ALL=C sort)
if [ "${1:-}" = "--fix" ]; then
  (cd "$root" && "$cf" -i --style=file "${files[@]}")
  echo "format: ${#files[@]} files formatted"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! (cd "$root" && "$cf" --style=file "$f" | cmp -s - "$f"); then
    echo "format: $f differs from .clang-format (tests/check_format.sh --fix)"
    bad=$((bad + 1))
  fi
done
echo "format: ${#files[@]} files, $bad not formatted"
[ $bad -eq 0 ]
