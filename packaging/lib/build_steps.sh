# Steps the dependency build scripts (packaging/*/build.sh) share; sourced.
# The caller sets `log_tag` (its messages' prefix) before sourcing.

log() { echo "${log_tag:-build.sh}: $*" >&2; }
die() { log "error: $*"; exit 1; }

# need_tools "Debian packages hint" tool...
need_tools() {
  local hint=$1; shift
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found (Debian: $hint)"
  done
}

# configure_once BUILD_DIR KEY CMAKE_ARGS...: runs CMake only when KEY (a
# digest of everything that should reconfigure) differs from the last run's.
configure_once() {
  local bld=$1 key=$2; shift 2
  mkdir -p "$bld"
  if [ -f "$bld/build.ninja" ] && [ -f "$bld/.configured" ] && [ "$(cat "$bld/.configured")" = "$key" ]; then
    log "configured already ($bld)"
    return
  fi
  log "configuring ($bld)"
  rm -f "$bld/CMakeCache.txt"
  cmake "$@" >"$bld/cmake.out" 2>&1 || { cat "$bld/cmake.out" >&2; die "cmake failed"; }
  echo "$key" >"$bld/.configured"
}

# ninja_targets BUILD_DIR WHAT NINJA_ARGS...: builds, logs to ninja.out, says
# whether anything was rebuilt.
ninja_targets() {
  local bld=$1 what=$2; shift 2
  local start
  start=$(date +%s)
  ninja -C "$bld" "$@" >"$bld/ninja.out" 2>&1 \
    || { tail -n 60 "$bld/ninja.out" >&2; die "ninja failed (full log: $bld/ninja.out)"; }
  if grep -q '^ninja: no work to do' "$bld/ninja.out"; then
    log "$what up to date"
  else
    log "built $what in $(( $(date +%s) - start )) s (log: $bld/ninja.out)"
  fi
}
