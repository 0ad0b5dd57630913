#!/usr/bin/env bash
# Puts a build of this library where the bindings of tls-client load
# theirs, so a program switches to it without a change of its own:
#
#   node-tls-client 2.1.0  <os.tmpdir()>/tls-client-x64.so    (Linux x86-64)
#                          <os.tmpdir()>/tls-client-arm64.so  (Linux arm64)
#                          <os.tmpdir()>/tls-client-arm64.dylib, tls-client-x86.dylib (macOS)
#       dist/utils/native.js: LibraryHandler.path is os.tmpdir() joined with
#       a name picked from process.platform and process.arch; the file is
#       downloaded (upstream's latest GitHub release) only when that path
#       does not exist. No version file, no checksum: a file there is used
#       as it is and never replaced. os.tmpdir() is $TMPDIR (else /tmp) of
#       the process that loads it: install with the same TMPDIR as the
#       program, and again after /tmp is cleaned (reboot, tmpfiles).
#   Python's tls_client    <site-packages>/tls_client/dependencies/tls-client-x86.so
#                          (Linux x86-64; -arm64.so on aarch64, -amd64.so on
#                          other Linux CPUs; -arm64.dylib, -x86.dylib on macOS)
#       tls_client/cffi.py: ctypes.cdll.LoadLibrary at import.
#
# Usage:
#   packaging/install.sh [LIBRARY] [--node DIR]... [--python | --python-dir DIR] [--uninstall]
#
#   LIBRARY          default: build/libtls-client.so (.dylib on macOS) of this repository, else
#                    dist/'s release file for this machine (packaging/release.sh)
#   --node DIR       a project whose node_modules has node-tls-client, the
#                    package folder itself, or the cache folder directly
#   --python         the tls_client that `${PYTHON:-python3}` finds
#   --python-dir DIR the tls_client package folder, or a site-packages folder holding it
#   --uninstall      remove ours and put back what was there before (saved as
#                    <name>.upstream at install); without a saved file,
#                    node-tls-client downloads upstream's on its next initTLS()
#                    and tls_client needs `pip install --force-reinstall tls_client`
#   (no target)      node-tls-client (when it resolves from the current folder,
#                    or its cache file already exists) and tls_client (when
#                    python3 finds it), whichever are found
#
# The file names come from this machine (uname -s, uname -m); a library for
# another CPU or OS, or not a build of this project, is refused. A file that
# was there and is not ours is kept as <name>.upstream (once: installing
# again does not overwrite it with ours). The new file is written next to
# the old one and renamed over it, so a program running on the old file
# keeps it. Windows: packaging/install.ps1.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
me=install.sh
python=${PYTHON:-python3}
marker=tlsClientCpp   # in destroySession's answer; upstream's library has no such text

say() { echo "$me: $*"; }
die() { echo "$me: $*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

lib='' uninstall=0 want_python=0 python_dir='' node_dirs=() explicit=0
while [ $# -gt 0 ]; do
  case "$1" in
    --node) [ $# -ge 2 ] || die "--node needs a folder"; node_dirs+=("$2"); explicit=1; shift 2 ;;
    --python) want_python=1; explicit=1; shift ;;
    --python-dir) [ $# -ge 2 ] || die "--python-dir needs a folder"; python_dir=$2; explicit=1; shift 2 ;;
    --uninstall) uninstall=1; shift ;;
    --lib) [ $# -ge 2 ] || die "--lib needs a file"; lib=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option $1 (--help)" ;;
    *) [ -z "$lib" ] || die "one library only ($lib, $1)"; lib=$1; shift ;;
  esac
done

# --- this machine: the names the bindings load, the CPU the library must be for
os=$(uname -s) cpu=$(uname -m)
case "$os" in
  Linux)
    kind=elf built=libtls-client.so
    case "$cpu" in
      x86_64|amd64) want=x86-64 node_name=tls-client-x64.so py_name=tls-client-x86.so dist_glob='tls-client-linux-ubuntu-amd64-*.so' ;;
      aarch64|arm64) want=aarch64 node_name=tls-client-arm64.so py_name=tls-client-arm64.so dist_glob='tls-client-linux-arm64-*.so' ;;
      *) die "no build of this library for Linux $cpu (x86_64 and aarch64 only)" ;;
    esac ;;
  Darwin)
    kind=macho built=libtls-client.dylib
    case "$cpu" in
      arm64) want=arm64 node_name=tls-client-arm64.dylib py_name=tls-client-arm64.dylib dist_glob='tls-client-darwin-arm64-*.dylib' ;;
      x86_64) want=x86_64 node_name=tls-client-x86.dylib py_name=tls-client-x86.dylib dist_glob='tls-client-darwin-amd64-*.dylib' ;;
      *) die "no build of this library for macOS $cpu" ;;
    esac ;;
  MINGW*|MSYS*|CYGWIN*) die "on Windows use packaging/install.ps1" ;;
  *) die "no build of this library for $os" ;;
esac

# bytes FILE OFFSET COUNT: the bytes as hex pairs, space-separated
bytes() { od -An -v -tx1 -j "$2" -N "$3" "$1" 2>/dev/null | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }

# check_library FILE: empty output if FILE is a shared library of this
# project for this machine, else why not.
check_library() {
  local f=$1 magic cls mach typ
  if [ ! -f "$f" ] || [ ! -r "$f" ]; then echo "not a readable file"; return; fi
  magic=$(bytes "$f" 0 4)
  if [ "$kind" = elf ]; then
    case "$magic" in
      "7f 45 4c 46") ;;
      "cf fa ed fe"|"ca fe ba be") echo "a Mach-O (macOS) file, not a Linux library"; return ;;
      "4d 5a"*) echo "a Windows (PE) file, not a Linux library"; return ;;
      *) echo "not an ELF file"; return ;;
    esac
    cls=$(bytes "$f" 4 2)   # EI_CLASS, EI_DATA
    [ "$cls" = "02 01" ] || { echo "not a 64-bit little-endian ELF file"; return; }
    typ=$(bytes "$f" 16 2)  # e_type
    [ "$typ" = "03 00" ] || { echo "not a shared library (ELF type $typ)"; return; }
    mach=$(bytes "$f" 18 2) # e_machine
    case "$mach" in
      "3e 00") mach=x86-64 ;;
      "b7 00") mach=aarch64 ;;
      "03 00") mach=i386 ;;
      "28 00") mach=arm ;;
      "f3 00") mach=riscv ;;
      *) mach="ELF machine $mach" ;;
    esac
  else
    case "$magic" in
      "cf fa ed fe")
        case "$(bytes "$f" 4 4)" in
          "07 00 00 01") mach=x86_64 ;;
          "0c 00 00 01") mach=arm64 ;;
          *) mach="Mach-O CPU $(bytes "$f" 4 4)" ;;
        esac
        [ "$(bytes "$f" 12 4)" = "06 00 00 00" ] || { echo "not a dynamic library (Mach-O type $(bytes "$f" 12 4))"; return; } ;;
      "ca fe ba be")  # universal: lipo says which CPUs are in it
        if command -v lipo >/dev/null 2>&1 && lipo -archs "$f" 2>/dev/null | tr ' ' '\n' | grep -qx "$want"; then
          mach=$want
        else
          mach="a universal file without $want"
        fi ;;
      "7f 45 4c 46") echo "an ELF (Linux) file, not a macOS library"; return ;;
      *) echo "not a Mach-O file"; return ;;
    esac
  fi
  [ "$mach" = "$want" ] || { echo "built for $mach, this machine is $want ($os $cpu)"; return; }
  grep -q -a -F "$marker" "$f" || { echo "not a build of tls-client-cpp (no \"$marker\" in it)"; return; }
}

refuse() {  # FILE WHY
  local msg="refusing $1: $2"
  if [ -f "$1" ] && command -v file >/dev/null 2>&1; then msg="$msg
  (file says: $(file -b "$1" | cut -c1-160))"; fi
  die "$msg"
}

is_ours() { [ -f "$1" ] && grep -q -a -F "$marker" "$1"; }

# --- the library
if [ "$uninstall" -eq 0 ]; then
  if [ -n "$lib" ]; then
    why=$(check_library "$lib")
    [ -z "$why" ] || refuse "$lib" "$why"
  else
    candidates=("$root/build/$built")
    for f in "$root"/dist/$dist_glob; do [ -e "$f" ] && candidates+=("$f"); done
    first='' first_why=''
    for f in "${candidates[@]}"; do
      [ -e "$f" ] || continue
      why=$(check_library "$f")
      if [ -z "$why" ]; then lib=$f; break; fi
      [ -n "$first" ] || { first=$f first_why=$why; }
    done
    if [ -z "$lib" ]; then
      [ -z "$first" ] || refuse "$first" "$first_why"
      die "no library: build build/$built or run packaging/release.sh, or name the file"
    fi
  fi
  lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
  say "library $lib ($want, $(wc -c <"$lib" | tr -d ' ') bytes)"
fi

# --- the targets: "<binding>|<folder>|<file name>"
targets=()

# node_cache PACKAGE_DIR: the folder node-tls-client loads from, as the
# package itself computes it (LibraryHandler.path), else os.tmpdir().
node_tmpdir() {
  if command -v node >/dev/null 2>&1; then
    node -e 'process.stdout.write(require("os").tmpdir())'
  else
    local t=${TMPDIR:-/tmp}
    [ "$t" = / ] || t=${t%/}
    printf '%s' "$t"
  fi
}
node_target_from_package() {
  local pkg=$1 ver p
  ver=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$pkg/package.json" | head -1)
  [ "$ver" = 2.1.0 ] || say "warning: node-tls-client $ver in $pkg (this script follows 2.1.0)"
  p=
  if command -v node >/dev/null 2>&1 && [ -f "$pkg/dist/utils/native.js" ]; then
    p=$(node -e 'const h = require(process.argv[1]).LibraryHandler; if (h && h.path) process.stdout.write(h.path)' \
      "$pkg/dist/utils/native.js" 2>/dev/null) || p=
  fi
  if [ -n "$p" ]; then
    [ "$(basename "$p")" = "$node_name" ] ||
      die "node-tls-client in $pkg loads $(basename "$p") (Node's process.arch), not $node_name ($os $cpu): a Node for another CPU?"
    targets+=("node-tls-client|$(dirname "$p")|$node_name")
  else
    targets+=("node-tls-client|$(node_tmpdir)|$node_name")
  fi
}
add_node() {
  local d=$1
  [ -d "$d" ] || die "--node $d: no such folder"
  d=$(cd "$d" && pwd)
  if [ -f "$d/node_modules/node-tls-client/package.json" ]; then
    node_target_from_package "$d/node_modules/node-tls-client"
  elif [ -f "$d/package.json" ] && grep -q '"name": *"node-tls-client"' "$d/package.json"; then
    node_target_from_package "$d"
  elif [ -e "$d/package.json" ] || [ -d "$d/node_modules" ]; then
    die "--node $d: a Node project without node_modules/node-tls-client (npm install node-tls-client), or give the cache folder"
  else
    targets+=("node-tls-client|$d|$node_name")  # the cache folder itself
  fi
}

python_pkg_dir() {  # the tls_client package folder python finds, without importing it (its import loads the library)
  command -v "$python" >/dev/null 2>&1 || return 0
  "$python" -c 'import importlib.util as u, sys
s = u.find_spec("tls_client")
if s and s.submodule_search_locations: sys.stdout.write(list(s.submodule_search_locations)[0])' 2>/dev/null || true
}
add_python_pkg() {
  local pkg=$1
  [ -d "$pkg/dependencies" ] || die "$pkg has no dependencies/ folder: not Python's tls_client?"
  targets+=("tls_client|$(cd "$pkg/dependencies" && pwd)|$py_name")
}

if [ "$explicit" -eq 1 ]; then
  for d in ${node_dirs[@]+"${node_dirs[@]}"}; do add_node "$d"; done
  if [ -n "$python_dir" ]; then
    [ -d "$python_dir" ] || die "--python-dir $python_dir: no such folder"
    if [ -d "$python_dir/tls_client" ]; then add_python_pkg "$python_dir/tls_client"; else add_python_pkg "$python_dir"; fi
  fi
  if [ "$want_python" -eq 1 ]; then
    p=$(python_pkg_dir)
    [ -n "$p" ] || die "--python: $python finds no tls_client (pip install tls_client, or --python-dir DIR)"
    add_python_pkg "$p"
  fi
else
  found=0
  if command -v node >/dev/null 2>&1; then
    pkg=$(node -e 'try { process.stdout.write(require("path").dirname(require.resolve("node-tls-client/package.json", { paths: [process.cwd()] }))) } catch (e) {}')
    if [ -n "$pkg" ]; then
      node_target_from_package "$pkg"; found=1
    elif [ -e "$(node_tmpdir)/$node_name" ] || [ -e "$(node_tmpdir)/$node_name.upstream" ]; then
      targets+=("node-tls-client|$(node_tmpdir)|$node_name"); found=1
    fi
  fi
  [ "$found" -eq 1 ] || say "node-tls-client: not found from $PWD, and no $node_name in $(node_tmpdir) (--node DIR)"
  p=$(python_pkg_dir)
  if [ -n "$p" ]; then add_python_pkg "$p"; else say "tls_client: $python finds none (--python-dir DIR)"; fi
  [ ${#targets[@]} -gt 0 ] || die "no binding found: give --node DIR or --python-dir DIR"
fi

# --- install or uninstall, each folder once
install_one() {  # binding dir name
  local b=$1 dir=$2 name=$3 t=$2/$3 tmp
  [ -d "$dir" ] || die "$b: no folder $dir"
  if [ -e "$t" ] && cmp -s "$lib" "$t"; then
    say "$b: $t is this library already"
    return
  fi
  if [ -e "$t" ] || [ -L "$t" ]; then
    if is_ours "$t"; then
      say "$b: replacing an earlier tls-client-cpp build in $t"
    else
      mv -f "$t" "$t.upstream" || die "$b: cannot move $t aside (permissions?)"
      say "$b: saved the file that was there as $t.upstream"
    fi
  else
    [ "$b" = node-tls-client ] || say "$b: warning: there was no $name in $dir; check that this tls_client loads that name"
  fi
  tmp=$(mktemp "$dir/.$name.XXXXXX") || die "$b: cannot write in $dir (permissions?)"
  if ! cp "$lib" "$tmp" || ! chmod 755 "$tmp" || ! mv -f "$tmp" "$t"; then
    rm -f "$tmp"; die "$b: could not write $t"
  fi
  cmp -s "$lib" "$t" || die "$b: $t differs from $lib after the copy"
  say "$b: installed $t"
}
uninstall_one() {
  local b=$1 dir=$2 name=$3 t=$2/$3
  if [ -e "$t" ]; then
    if is_ours "$t"; then
      rm -f "$t" || die "$b: cannot remove $t (permissions?)"
      say "$b: removed $t"
    else
      say "$b: $t is not a tls-client-cpp build: left as it is"
      return
    fi
  else
    say "$b: no $t"
  fi
  if [ -e "$t.upstream" ]; then
    mv -f "$t.upstream" "$t" || die "$b: cannot restore $t.upstream"
    say "$b: restored $t from $t.upstream"
  elif [ "$b" = node-tls-client ]; then
    say "$b: nothing saved; node-tls-client downloads upstream's library on its next initTLS()"
  else
    say "$b: nothing saved; pip install --force-reinstall tls_client puts upstream's back"
  fi
}

seen=" "
for entry in "${targets[@]}"; do
  IFS='|' read -r b dir name <<<"$entry"
  case "$seen" in *" $dir/$name "*) continue ;; esac
  seen="$seen$dir/$name "
  if [ "$uninstall" -eq 1 ]; then uninstall_one "$b" "$dir" "$name"; else install_one "$b" "$dir" "$name"; fi
done
