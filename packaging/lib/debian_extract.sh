# Unpacking a Debian source package, with or without dpkg. Sourced by
# packaging/lib/debian_cmake.sh and packaging/nghttp2/fetch.sh.

# dsc_files DSC: the file names its Files: field lists.
dsc_files() {
  awk '/^Files:/ {on = 1; next} /^[^ ]/ {on = 0} on && NF == 3 {print $3}' "$1"
}

# debian_source_extract DSC DEST (in the folder holding DSC's files):
# `dpkg-source -x`, or where there is no dpkg (a macOS runner) what it does
# for a "3.0 (quilt)" package, which every package we build is: the orig
# tarball's top folder as DEST, each orig-COMPONENT tarball in DEST/COMPONENT,
# the debian/ tarball over it, and debian/patches/series applied in order
# (-p1 unless a line says otherwise; GNU patch).
# tests/packaging/debian_extract_test.sh checks that both give the same tree.
debian_source_extract() {
  local dsc=$1 dest=$2 format orig comp f line p opt
  if command -v dpkg-source >/dev/null 2>&1 && [ -z "${TLSC_NO_DPKG_SOURCE:-}" ]; then
    dpkg-source -x "$dsc" "$dest"
    return
  fi
  format=$(sed -n 's/^Format: *//p' "$dsc")
  [ "$format" = "3.0 (quilt)" ] || { echo "$dsc: format '$format', only 3.0 (quilt) is unpacked without dpkg-source"; return 1; }
  orig=""
  for f in $(dsc_files "$dsc"); do
    case $f in *.asc) ;; *.orig.tar.*) orig=$f ;; esac
  done
  [ -n "$orig" ] || { echo "$dsc lists no orig tarball"; return 1; }
  mkdir -p "$dest"
  tar -xf "$orig" -C "$dest" --strip-components=1
  for f in $(dsc_files "$dsc"); do
    case $f in
      *.asc) ;;
      *.orig-*.tar.*)
        comp=${f##*.orig-}; comp=${comp%%.tar.*}
        rm -rf "${dest:?}/$comp" && mkdir -p "$dest/$comp"
        tar -xf "$f" -C "$dest/$comp" --strip-components=1 ;;
      *.debian.tar.*) rm -rf "${dest:?}/debian" && tar -xf "$f" -C "$dest" ;;
    esac
  done
  [ -f "$dest/debian/patches/series" ] || return 0
  while read -r line; do
    line=${line%%#*}
    [ -n "${line// /}" ] || continue
    read -r p opt <<<"$line"
    echo "applying $p"
    patch -d "$dest" ${opt:--p1} --batch --forward --no-backup-if-mismatch -s -i "debian/patches/$p" || { echo "debian/patches/$p does not apply"; return 1; }
  done <"$dest/debian/patches/series"
}
