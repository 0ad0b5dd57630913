#!/usr/bin/env bash
# Fetches one pinned Debian source package into a cache folder and checks
# every file against SHA256SUMS.in at the repo root. Shared by
# packaging/boringssl/fetch.sh and packaging/nghttp2/fetch.sh.
#
#   packaging/lib/debian_source.sh --package PKG --version VERSION \
#       --suites "SUITE..." --sources-file NAME.sources --cache DIR \
#       [--comment TEXT] [--log-name NAME] [--sums FILE]
#
#   --package       source package name (pins are the SHA256SUMS.in lines
#                   whose file name starts with "PKG_")
#   --version       exact Debian version, e.g. 1.52.0-1+deb12u3
#   --suites        suites for the deb-src entry, space-separated. Suites
#                   named *-security get the machine's security mirror
#                   (e.g. http://deb.debian.org/debian-security), the others
#                   its main Debian mirror; each group is one deb822 stanza.
#   --sources-file  file name under /etc/apt/sources.list.d (deb822)
#   --cache         where the downloaded files are kept
#   --comment       first line of the sources file (without "# ")
#   --log-name      prefix of the messages on stderr (default debian_source.sh)
#   --sums          pin file (default <repo>/SHA256SUMS.in)
#
# Prints nothing on stdout; on success every pinned file is in the cache with
# its pinned SHA-256. When they already are, it touches neither apt nor the
# network. Needs root only when it has to download (apt source line, apt-get
# update).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

PKG="" VERSION="" SUITES="" list_name="" cache="" comment="" log_name=debian_source.sh
sums_file="$repo/SHA256SUMS.in"
while [ $# -gt 0 ]; do
  case $1 in
    --package)      PKG=$2; shift 2 ;;
    --version)      VERSION=$2; shift 2 ;;
    --suites)       SUITES=$2; shift 2 ;;
    --sources-file) list_name=$2; shift 2 ;;
    --cache)        cache=$2; shift 2 ;;
    --comment)      comment=$2; shift 2 ;;
    --log-name)     log_name=$2; shift 2 ;;
    --sums)         sums_file=$2; shift 2 ;;
    *) echo "debian_source.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

log() { echo "$log_name: $*" >&2; }
die() { log "error: $*"; exit 1; }

for v in PKG VERSION SUITES list_name cache; do
  [ -n "${!v}" ] || die "debian_source.sh: missing argument for $v"
done
case $list_name in */*|"") die "--sources-file is a file name, not a path: $list_name" ;; esac
[ -n "$comment" ] || comment="Added by $log_name: source packages only, for $PKG."

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
# find_mirror REGEX: the first URI matching REGEX (main archive: /debian,
# security archive: /debian-security) and its Signed-By keyring ("-" if none).
find_mirror() {
  local re=$1 f uri="" key=""
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # First stanza whose URIs is a Debian archive of that kind.
    read -r uri key < <(awk -v re="$re" '
      BEGIN { RS=""; FS="\n" }
      {
        u=""; k=""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^URIs:/)      { u=$i; sub(/^URIs:[ \t]*/, "", u); split(u, a, /[ \t]+/); u=a[1] }
          if ($i ~ /^Signed-By:/) { k=$i; sub(/^Signed-By:[ \t]*/, "", k) }
        }
        if (u ~ re) { print u, (k == "" ? "-" : k); exit }
      }' "$f") || true
    [ -n "$uri" ] && break
  done
  if [ -z "$uri" ]; then
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ -f "$f" ] || continue
      read -r uri key < <(awk -v re="$re" '
        $1 == "deb" {
          k="-"; u=""
          for (i = 2; i <= NF; i++) {
            if ($i ~ /^\[/) { while ($i !~ /\]$/ && i < NF) { if ($i ~ /signed-by=/) { k=$i }; i++ }
                              if ($i ~ /signed-by=/) k=$i; continue }
            u=$i; break
          }
          gsub(/.*signed-by=|\]$/, "", k)
          if (u ~ re) { print u, k; exit }
        }' "$f") || true
      [ -n "$uri" ] && break
    done
  fi
  echo "${uri:--} ${key:--}"
}

# "URI KEYRING" for the main archive (ours: http://deb.debian.org/debian).
main_mirror() {
  local uri key
  read -r uri key < <(find_mirror '/debian/?$')
  [ "$uri" != "-" ] || uri=http://deb.debian.org/debian
  [ "$key" != "-" ] || key=/usr/share/keyrings/debian-archive-keyring.gpg
  echo "$uri $key"
}

# "URI KEYRING" for the security archive: as the machine lists it, else the
# main mirror's URI with /debian -> /debian-security (deb.debian.org serves
# both), else deb.debian.org.
security_mirror() {
  local uri key muri mkey
  read -r uri key < <(find_mirror '/debian-security/?$')
  read -r muri mkey < <(main_mirror)
  if [ "$uri" = "-" ]; then
    case $muri in
      */debian|*/debian/) uri="${muri%/}"; uri="${uri%/debian}/debian-security" ;;
      *) uri=http://deb.debian.org/debian-security ;;
    esac
  fi
  [ "$key" != "-" ] || key=$mkey
  echo "$uri $key"
}

ensure_deb_src() {
  local list=/etc/apt/sources.list.d/$list_name
  local s main=() sec=() uri key want desc=""
  for s in $SUITES; do
    case $s in *-security) sec+=("$s") ;; *) main+=("$s") ;; esac
  done
  want="# $comment"
  if [ ${#main[@]} -gt 0 ]; then
    read -r uri key < <(main_mirror)
    want+=$'\n'$(printf '%s\n' "Types: deb-src" "URIs: $uri" "Suites: ${main[*]}" "Components: main" "Signed-By: $key")
    desc="$uri ${main[*]}, $key"
  fi
  if [ ${#sec[@]} -gt 0 ]; then
    read -r uri key < <(security_mirror)
    [ ${#main[@]} -gt 0 ] && want+=$'\n'
    want+=$'\n'$(printf '%s\n' "Types: deb-src" "URIs: $uri" "Suites: ${sec[*]}" "Components: main" "Signed-By: $key")
    desc="${desc:+$desc; }$uri ${sec[*]}, $key"
  fi
  if [ -f "$list" ] && [ "$(cat "$list")" = "$want" ]; then
    return 1  # already there
  fi
  [ -w /etc/apt/sources.list.d ] || die "need root to write $list"
  log "writing $list ($desc)"
  printf '%s\n' "$want" >"$list"
  return 0
}

version_known() {
  # Not grep -q: it would stop reading at the first match, apt-cache would die
  # of SIGPIPE and pipefail would call the version unknown.
  apt-cache showsrc "$PKG" 2>/dev/null | grep -x "Version: $VERSION" >/dev/null
}

download() {
  local added=0
  # A deb-src entry only when apt does not offer the version yet: another
  # script's entry for the same suite would otherwise be listed twice.
  if ! version_known; then
    ensure_deb_src && added=1
  fi
  if [ $added = 1 ] || ! version_known; then
    log "apt-get update"
    # A mirror mid-sync fails an index that has nothing to do with us;
    # version_known below says whether ours arrived.
    apt-get update -qq || log "apt-get update failed for some indexes; looking for $PKG $VERSION all the same"
  fi
  version_known || die "$PKG $VERSION not offered by apt (apt-cache showsrc $PKG lists: $(apt-cache showsrc "$PKG" 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' '))"
  log "downloading $PKG=$VERSION into $cache"
  # apt-get drops privileges to _apt for the download; as root it warns when
  # _apt cannot write the folder and downloads unsandboxed. Silence that one.
  (cd "$cache" && apt-get source --download-only --only-source -qq "$PKG=$VERSION" 2>&1 \
     | grep -v 'unsandboxed as root' >&2) || true
}

# Without apt (a macOS runner): each pinned file straight from Debian's
# archive over HTTPS, its pool folder first (the main archive, then the
# security archive for +debNuN versions), then snapshot.debian.org, which
# keeps every file Debian ever published (its machine-readable API names
# the file by the package's version). The pins, not the transport, are the
# trust: every file is checked against SHA256SUMS.in below.
pool_dir() {  # Debian's pool folder of a source package: lib* packages use four letters
  case $PKG in lib?*) echo "${PKG:0:4}/$PKG" ;; *) echo "${PKG:0:1}/$PKG" ;; esac
}

download_direct() {
  need_download_tool
  local name base got
  for name in "${pinned_names[@]}"; do
    [ -f "$cache/$name" ] && continue
    got=0
    for base in https://deb.debian.org/debian/pool/main https://deb.debian.org/debian-security/pool/updates/main; do
      if curl -fsSL --retry 3 -o "$cache/$name.part" "$base/$(pool_dir)/$name"; then
        mv "$cache/$name.part" "$cache/$name"; got=1; break
      fi
    done
    if [ $got = 0 ]; then
      local sha1
      sha1=$(curl -fsSL --retry 3 "https://snapshot.debian.org/mr/package/$PKG/$VERSION/srcfiles?fileinfo=1" |
        python3 -c 'import json, sys
d = json.load(sys.stdin)
print(next(h for h, infos in d["fileinfo"].items() if any(i["name"] == sys.argv[1] for i in infos)))' "$name") ||
        die "$name: not in Debian's pool, and snapshot.debian.org does not list it for $PKG $VERSION"
      curl -fsSL --retry 3 -o "$cache/$name.part" "https://snapshot.debian.org/file/$sha1" ||
        die "$name: snapshot.debian.org/file/$sha1 failed"
      mv "$cache/$name.part" "$cache/$name"
    fi
    log "downloaded $name"
  done
}

need_download_tool() {
  command -v curl >/dev/null 2>&1 || die "no apt-get and no curl: cannot fetch $PKG $VERSION"
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
  # TLSC_NO_APT: the macOS way on a Debian machine (tests/packaging/debian_extract_test.sh).
  if command -v apt-get >/dev/null 2>&1 && [ -z "${TLSC_NO_APT:-}" ]; then download; else download_direct; fi
  have_all || die "the download did not produce all of: ${pinned_names[*]}"
  if ! verify; then
    (cd "$cache" && sha256sum --check --strict - <<<"$pinned") >&2 || true
    die "checksum mismatch against $sums_file"
  fi
  log "verified ${#pinned_names[@]} files against $(basename "$sums_file")"
fi
