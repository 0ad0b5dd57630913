# Third-party builds live outside the clone, so that a fresh clone (CI's)
# reuses them: <repo>/build-<name> is a link to <cache>/<name>, where
# <cache> is $TLSC_CACHE_DIR, else /var/cache/tls-client-cpp (as root), else
# ~/.cache/tls-client-cpp. The build scripts key their work on what they
# build from (the pinned tarball, the patches, the script), so a cache made
# from other sources is brought up to date, not reused blindly. Sourced.

# use_shared_cache REPO NAME: makes REPO/build-NAME the link (unless it is
# already a folder or link of its own) and says which cache it uses.
use_shared_cache() {
  local repo=$1 name=$2 cache
  local link=$repo/build-$name
  [ -e "$link" ] && return 0
  # A link whose cache folder is gone (a new machine, a cleaned cache) gets
  # its folder back rather than failing the first mkdir through it.
  if [ -L "$link" ]; then
    mkdir -p "$(readlink "$link")"
    return 0
  fi
  if [ -n "${TLSC_CACHE_DIR:-}" ]; then
    cache=$TLSC_CACHE_DIR
  elif mkdir -p /var/cache/tls-client-cpp 2>/dev/null && [ -w /var/cache/tls-client-cpp ]; then
    cache=/var/cache/tls-client-cpp
  else
    cache=${HOME:-/tmp}/.cache/tls-client-cpp
  fi
  mkdir -p "$cache/$name"
  ln -s "$cache/$name" "$link"
  echo "shared_cache: build-$name -> $cache/$name (kept between clones)" >&2
}
