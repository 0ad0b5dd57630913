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
  need_tools "g++-$TLSC_TARGET" "$TLSC_TARGET-gcc" "$TLSC_TARGET-g++"
  target_suffix=-$TLSC_TARGET
  target_cmake_args=(-DCMAKE_TOOLCHAIN_FILE="$toolchain")
  export CC=${CC:-$TLSC_TARGET-gcc} CXX=${CXX:-$TLSC_TARGET-g++}
fi
