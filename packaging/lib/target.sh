# Which machine a dependency build is for; sourced by packaging/*/build.sh
# after build_steps.sh. TLSC_TARGET is empty for this machine, or a GNU
# triplet with a CMake toolchain file in packaging/toolchains/ (for example
# aarch64-linux-gnu). Sets:
#   target_suffix       "" or "-<triplet>": the build folder's and cache's name
#   target_cmake_args   the toolchain file for CMake, or nothing
#   CC, CXX             the cross compilers, unless given
target_suffix=""
target_cmake_args=()
if [ -n "${TLSC_TARGET:-}" ]; then
  toolchain=$repo/packaging/toolchains/$TLSC_TARGET.cmake
  [ -f "$toolchain" ] || die "TLSC_TARGET=$TLSC_TARGET: no toolchain file $toolchain"
  case $TLSC_TARGET in
    # mingw-w64's POSIX-threads variant: the win32 one has no std::thread.
    *-w64-mingw32) target_package="g++-mingw-w64-${TLSC_TARGET%%-*}-posix" target_cc=$TLSC_TARGET-gcc-posix target_cxx=$TLSC_TARGET-g++-posix ;;
    *) target_package="g++-$TLSC_TARGET" target_cc=$TLSC_TARGET-gcc target_cxx=$TLSC_TARGET-g++ ;;
  esac
  need_tools "${target_package//_/-}" "$target_cc" "$target_cxx"
  target_suffix=-$TLSC_TARGET
  # The digest makes each script's configure key change with the file's
  # content (CMake itself does not re-read a toolchain file); CMake ignores
  # the variable otherwise.
  target_cmake_args=(-DCMAKE_TOOLCHAIN_FILE="$toolchain" -DTLSC_TOOLCHAIN_DIGEST="$(sha256sum <"$toolchain" | cut -c1-16)")
  export CC=${CC:-$target_cc} CXX=${CXX:-$target_cxx}
fi
