#!/usr/bin/env bash
# The library exports exactly the ABI, and needs nothing from the dynamic
# linker but libc, libm, libpthread, libdl and the C++ runtime (docs/ARCHITECTURE.md, "Dependencies"):
# a symbol bound to Node's own OpenSSL, c-ares or zlib would break inside Node.
set -euo pipefail
lib="$1"
expected="addCookiesToSession cancelRequest cancelStream destroyAll destroySession freeMemory getCookiesFromSession readStream readStreamAll request requestAsync requestStream setNotify waitNext wsClose wsConnect wsRead wsWrite"
if [ "$(head -c 2 "$lib")" = "MZ" ]; then
  # A Windows DLL: its export table (written from abi/exports.map through a
  # .def file) is the ABI, and it imports only from Windows' own DLLs: the
  # C++ runtime, libgcc and winpthreads are linked in (no libstdc++-6.dll,
  # libgcc_s_seh-1.dll or libwinpthread-1.dll beside it).
  dump=$(x86_64-w64-mingw32-objdump -p "$lib")
  exported=$(sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p' <<<"$dump" | awk '/^\t\[/ {print $NF}' | sort | tr '\n' ' ' | sed 's/ $//')
  if [ "$exported" != "$expected" ]; then
    echo "exported symbols differ:"; echo " got:      $exported"; echo " expected: $expected"; exit 1
  fi
  needed=$(awk '/DLL Name:/ {print $3}' <<<"$dump")
  for n in $needed; do
    case "${n,,}" in
      kernel32.dll|msvcrt.dll|ws2_32.dll|advapi32.dll|crypt32.dll|iphlpapi.dll|ntdll.dll|user32.dll|bcrypt.dll) ;;
      *) echo "unexpected DLL import: $n"; exit 1 ;;
    esac
  done
  echo "exported symbols: ok ($exported); imports: $(echo $needed)"
  exit 0
fi
if [ "$(od -An -tx1 -N4 "$lib" | tr -d ' \n')" = cffaedfe ]; then
  # A Mach-O dylib (macOS; checked on GitHub's macOS runners): its exported
  # names (with Mach-O's leading underscore) are the ABI, and it loads only
  # the OS's own libraries: libSystem, libc++ and libresolv (c-ares' DNS
  # servers). Two-level namespace: each undefined symbol is bound to the
  # library it came from, so the host process's OpenSSL or zlib cannot
  # stand in for ours.
  exported=$(nm -gU "$lib" | awk '{print $3}' | sed 's/^_//' | sort | tr '\n' ' ' | sed 's/ $//')
  if [ "$exported" != "$expected" ]; then
    echo "exported symbols differ:"; echo " got:      $exported"; echo " expected: $expected"; exit 1
  fi
  self=$(otool -D "$lib" | sed -n 2p)
  needed=$(otool -L "$lib" | tail -n +2 | awk '{print $1}' | grep -v -x -F "$self" || true)
  for n in $needed; do
    case "$n" in
      /usr/lib/libSystem.B.dylib|/usr/lib/libc++.1.dylib|/usr/lib/libresolv.9.dylib) ;;
      *) echo "unexpected library: $n"; exit 1 ;;
    esac
  done
  otool -hv "$lib" | grep -q TWOLEVEL || { echo "not linked with a two-level namespace"; exit 1; }
  echo "exported symbols: ok ($exported); loads: $(echo $needed)"
  exit 0
fi
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWwDdBbRrVv]$/ {print $3}' | sed 's/@.*//' | sort | tr '\n' ' ' | sed 's/ $//')
if [ "$exported" != "$expected" ]; then
  echo "exported symbols differ:"; echo " got:      $exported"; echo " expected: $expected"; exit 1
fi
needed=$(readelf -d "$lib" | awk '/NEEDED/ {gsub(/[\[\]]/, "", $5); print $5}')
for n in $needed; do
  case "$n" in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|libstdc++.so.*|libgcc_s.so.*|ld-linux*) ;;
    *) echo "unexpected DT_NEEDED: $n"; exit 1 ;;
  esac
done
# Every undefined symbol must carry a glibc/libstdc++/libgcc version: one
# without a version could be satisfied by whatever the host process exports.
# The weak references the C++ runtime itself carries (transactional-memory
# clones, __cxa_pure_virtual) and the profiling hook are the only exceptions.
bad=$(nm -D --undefined-only "$lib" | awk '{print $NF}' | grep -v -E '@(GLIBC|GLIBCXX|CXXABI|GCC)_' | grep -v -E '^(__gmon_start__|_ITM_[A-Za-z0-9]+|_ZGTt[A-Za-z0-9]+|__cxa_pure_virtual|__cxa_finalize)$' || true)
if [ -n "$bad" ]; then
  echo "undefined symbols not from libc or the C++ runtime:"; echo "$bad"; exit 1
fi
echo "exported symbols: ok ($exported); needed: $(echo $needed)"
