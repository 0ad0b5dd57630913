# A Debian source package built with CMake: fetched and checked against
# SHA256SUMS.in (debian_source.sh), unpacked with Debian's patches, built
# once per set of arguments. Sourced after build_steps.sh and target.sh by
# packaging/deps/build.sh and packaging/ngtcp2/build.sh, which set:
#   build_root  where src-cache/, src/<pkg>/ and build/<name>/ go
#   inst        the install prefix
#   jobs        ninja -j
#   repo, log_tag
. "$repo/packaging/lib/debian_extract.sh"

# unpack_debian_source PKG VERSION "SUITES": the Debian-patched source tree's
# path on stdout. SUITES name the deb-src entry, added only when apt does
# not offer VERSION yet.
unpack_debian_source() {
  local pkg=$1 version=$2 suites=$3 sums_file=$repo/SHA256SUMS.in pinned dsc key src
  bash "$repo/packaging/lib/debian_source.sh" \
    --package "$pkg" --version "$version" --suites "$suites" \
    --sources-file "tls-client-$pkg-src.sources" \
    --comment "Added by tls-client-cpp's packaging/: source packages only, for $pkg." \
    --cache "$build_root/src-cache" --sums "$sums_file" --log-name "$log_tag"
  pinned=$(grep -Ev '^[[:space:]]*(#|$)' "$sums_file" | awk -v p="${pkg}_" 'index($2, p) == 1')
  dsc=$(awk '$2 ~ /\.dsc$/ {print $2}' <<<"$pinned")
  key=$(sha256sum <<<"$pinned" | cut -d' ' -f1)
  src=$build_root/src/$pkg
  if [ ! -f "$src/.unpacked-$key" ]; then
    log "unpacking $dsc (dpkg-source -x, with debian/patches)"
    rm -rf "$src" "$src.tmp"
    mkdir -p "$build_root/src"
    (cd "$build_root/src-cache" && debian_source_extract "$dsc" "$src.tmp") >"$build_root/src/$pkg.dpkg-source.out" 2>&1 \
      || { cat "$build_root/src/$pkg.dpkg-source.out" >&2; die "unpacking $dsc failed"; }
    mv "$src.tmp" "$src"
    touch "$src/.unpacked-$key"
  fi
  echo "$src"
}

# patched_tree SOURCE_DIR PATCH_DIR: a copy of SOURCE_DIR with PATCH_DIR's
# *.patch applied in name order (-p1), its path on stdout; redone when the
# tree's pins or a patch change. Our patches (packaging/<pkg>/patches/).
patched_tree() {
  local debian_src=$1 patch_dir=$2 key dst p
  local patches=()
  shopt -s nullglob
  patches=("$patch_dir"/*.patch)
  shopt -u nullglob
  key=$({ basename -a "$debian_src"/.unpacked-*; for p in "${patches[@]}"; do basename "$p"; cat "$p"; done; } |
    sha256sum | cut -d' ' -f1)
  dst=$debian_src-patched
  if [ ! -f "$dst/.patched-$key" ]; then
    need_tools patch patch
    rm -rf "$dst" "$dst.tmp"
    cp -r "$debian_src" "$dst.tmp"  # fresh mtimes: ninja rebuilds what a changed patch touched
    for p in "${patches[@]}"; do
      log "applying $(basename "$p")"
      patch -d "$dst.tmp" -p1 --batch --forward --quiet <"$p" >&2 || die "$(basename "$p") does not apply"
    done
    mv "$dst.tmp" "$dst"
    touch "$dst/.patched-$key"
  fi
  echo "$dst"
}

# cmake_build NAME SOURCE_DIR NINJA_TARGET CMAKE_ARGS...: configure once,
# build (NINJA_TARGET "install": into $inst). Static, release, each function
# and object in its own section, this target's toolchain.
cmake_build() {
  local name=$1 src=$2 target=$3; shift 3
  local bld=$build_root/build/$name
  local flags="-O2 -DNDEBUG -ffunction-sections -fdata-sections"
  local args=(-G Ninja -S "$src" -B "$bld" -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_C_FLAGS_RELEASE="$flags" -DCMAKE_INSTALL_PREFIX="$inst" -DCMAKE_INSTALL_LIBDIR=lib
    -DBUILD_SHARED_LIBS=OFF "${target_cmake_args[@]}" "$@")
  configure_once "$bld" "$(printf '%s\n' "${args[@]}" "$(command -v "${CC:-cc}")" | sha256sum | cut -d' ' -f1)" "${args[@]}"
  ninja_targets "$bld" "$name" -j "$jobs" "$target"
}
