#!/usr/bin/env bash
# esview set-up on Debian 12: installs what is missing, builds, then runs the viewer or the tests.
#
#   ./setup.sh run [FILE]   build and open the viewer (no display: render the demo headless to a PNG)
#   ./setup.sh test         build (warnings as errors) and run the whole test suite
#   ./setup.sh test-sanitize  the file-handling tests (loaders, scene, preparation, converters) under
#                             AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)
#   ./setup.sh fuzz [SECONDS] every libFuzzer target for SECONDS (default 60) on its corpus (build-fuzz/)
#   ./setup.sh build-arm64    cross-build for 64-bit ARM into build-arm64/ (build-armhf: 32-bit ARM)
#   ./setup.sh test-arm64 [CTEST ARGS]  that build's test suite under qemu-user (test-armhf likewise)
#   ./setup.sh web            the browser viewer with Debian's Emscripten into build-web/ (esview.html)
#   ./setup.sh serve-web [PORT]  serve build-web/ on http://127.0.0.1:PORT/esview.html (default 8321)
#   ./setup.sh test-web       build the browser viewer and run its tests in headless Chromium (every
#                             shared sample in WebGL 2 and 1 against the native viewer's pictures)
# With CI=true or ESVIEW_REQUIRE_SHARED=1 the tests fail instead of skipping when ../shared or a test
# tool is missing; both test modes end with a line counting the skipped tests.
set -euo pipefail
cd "$(dirname "$0")"
# ccache keys on paths relative to the checkout, so build trees and clones share cached objects.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(pwd)}"

PACKAGES=(
  build-essential cmake pkg-config python3
  libglfw3-dev libsdl2-dev python3-glad libglm-dev libimgui-dev libstb-dev zlib1g-dev liblzma-dev
  libgles-dev libegl-dev libgl1-mesa-dri libegl-mesa0
  xvfb xauth weston
  libgtest-dev libbenchmark-dev libassimp-dev libmeshoptimizer-dev libfast-float-dev libcli11-dev nlohmann-json3-dev
  glslang-tools
  astcenc ccache libdraco-dev draco gltfpack
  fonts-dejavu-core
  desktop-file-utils libxml2-utils shared-mime-info libglib2.0-bin
)
# node and npm run the Khronos glTF validator in the convert tests; a node that is already there
# (with its own npm) is kept.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then PACKAGES+=(nodejs npm); fi
# What only the test modes need: ffmpeg encodes `render --video` in the command-line tests (about
# 2.5 MB on top of the list above, whose weston already pulls in its libav* libraries).
TEST_PACKAGES=(ffmpeg)
# Test tools fetched once and kept outside the checkout, so clean clones reuse them (the glTF validator).
TOOL_CACHE=${ESVIEW_TOOL_CACHE:-$HOME/.cache/esview}

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# The Khronos glTF validator from npm, a fixed version, into TOOL_CACHE/npm (tests/convert_gltf runs it
# with node). A failure is reported and left to the tests, which skip or (in CI) fail saying so.
install_gltf_validator() {
  local dir=$TOOL_CACHE/npm version=2.0.0-dev.3.10
  grep -qs "\"version\": \"$version\"" "$dir/node_modules/gltf-validator/package.json" && return 0
  echo "setup: installing gltf-validator $version (npm) into $dir"
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "gltf-validator@$version" >/dev/null ||
    echo "setup: npm could not install gltf-validator; the glTF tests will say so" >&2
}

jobs() { nproc 2>/dev/null || echo 2; }

# CI (CI=true, or ESVIEW_REQUIRE_SHARED=1) has ../shared and every test tool: a test that would skip
# for want of one fails there instead. The option is always passed so a cached ON never lingers.
require_shared() {
  if [ "${ESVIEW_REQUIRE_SHARED:-0}" = 1 ] || [ "${CI:-}" = true ]; then echo ON; else echo OFF; fi
}

run_tests() {  # run_tests DIR [CTEST ARGS...]: ctest, then one line counting skipped tests; the status is ctest's
  local dir=$1 status=0
  shift
  local junit
  junit="$(cd "$dir" && pwd)/ctest-junit.xml"
  rm -f "$junit"
  ctest --test-dir "$dir" --output-on-failure -j "$(jobs)" --output-junit "$junit" "$@" || status=$?
  local skipped
  # The first skipped="N" is the <testsuite> attribute: tests skipped or not run.
  skipped=$(grep -o -m 1 'skipped="[0-9]*"' "$junit" 2>/dev/null | tr -dc '0-9' || true)
  echo "setup: ${skipped:-?} tests skipped or not run (ctest, $dir)"
  return "$status"
}

build() {  # build DIR [cmake options...]: everything (the tests and benchmarks too)
  local dir=$1; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$dir" -j "$(jobs)"
}

# cross_build ARCH: the cross compiler and qemu-user on this machine, the target's libraries in a
# sysroot of unpacked packages (tools/cross_sysroot.sh; kept in ESVIEW_SYSROOT_CACHE, by default
# ~/.cache/esview, so clean clones reuse it), then build-ARCH with the matching toolchain file.
cross_build() {
  local arch=$1 triple
  case "$arch" in
    arm64) triple=aarch64-linux-gnu ;;
    armhf) triple=arm-linux-gnueabihf ;;
  esac
  PACKAGES+=("g++-$triple" qemu-user-static)
  install_missing
  local sysroot_dir="${ESVIEW_SYSROOT_CACHE:-$HOME/.cache/esview}/sysroot-$arch"
  tools/cross_sysroot.sh "$arch" "$sysroot_dir"
  # The native viewer whose renders the ARM build's must match (tests/cli/cross_render_test.cpp).
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j "$(jobs)" --target esview
  cmake -S . -B "build-$arch" -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE="cmake/toolchains/$triple.cmake" \
    -DESVIEW_SYSROOT="$sysroot_dir/root" -DESVIEW_WERROR=ON -DESVIEW_BUILD_BENCH=OFF \
    -DESVIEW_REQUIRE_SHARED="$(require_shared)" -DESVIEW_REFERENCE_BINARY="$(pwd)/build/esview"
  # ESVIEW_EMULATED_SUBSET=1 (.ci/run): only what the emulated suite runs (tests/CMakeLists.txt,
  # emulated_tests); the executables it leaves out show as *_NOT_BUILT, which .ci/run excludes too.
  if [ "${ESVIEW_EMULATED_SUBSET:-0}" = 1 ]; then
    cmake --build "build-$arch" -j "$(jobs)" --target emulated_tests
  else
    cmake --build "build-$arch" -j "$(jobs)"
  fi
}

# The browser viewer: Debian's Emscripten (offline; its JS optimiser finds Debian's acorn only with
# NODE_PATH), Chromium for the test, and the Debian source packages of the libraries that have no wasm
# build (Dear ImGui, xz-utils for liblzma, zlib, meshoptimizer), fetched with `apt-get source` through a private
# sources list and lists folder under build-web/ (the machine's apt configuration is left alone).
# Header-only libraries (GLM, stb, fast_float, CLI11, nlohmann-json) come from their -dev packages.
WEB_SOURCES=(imgui xz-utils zlib meshoptimizer)
web_sources() {
  local dir=build-web/sources apt_dir=build-web/apt
  mkdir -p "$dir" "$apt_dir/lists/partial"
  local missing=0 p
  for p in "${WEB_SOURCES[@]}"; do
    compgen -G "$dir/${p}-[0-9]*/" >/dev/null || missing=1
  done
  [ "$missing" = 0 ] && return 0
  # deb-src entries for the archives, suites and components the machine's own deb entries name
  # (one-line sources.list and deb822 .sources files alike), in a private copy.
  mkdir -p "$apt_dir/sources.list.d"
  rm -f "$apt_dir/sources.list.d/"*.sources
  sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list 2>/dev/null >"$apt_dir/sources.list" || true
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" >"$apt_dir/sources.list.d/$(basename "$f")"
  done
  for f in /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$apt_dir/sources.list"
  done
  local opts=(-o Dir::Etc::SourceList="$(pwd)/$apt_dir/sources.list"
              -o Dir::Etc::SourceParts="$(pwd)/$apt_dir/sources.list.d"
              -o Dir::State::Lists="$(pwd)/$apt_dir/lists" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
  echo "setup: fetching Debian sources: ${WEB_SOURCES[*]}"
  apt-get "${opts[@]}" update -qq
  for p in "${WEB_SOURCES[@]}"; do
    compgen -G "$dir/${p}-[0-9]*/" >/dev/null && continue
    (cd "$dir" && apt-get "${opts[@]}" source -qq "$p" >/dev/null)
  done
}

web_build() {
  PACKAGES+=(emscripten chromium dpkg-dev python3-glad)
  install_missing
  web_sources
  export NODE_PATH=/usr/share/nodejs
  local nice=()
  command -v nice >/dev/null && nice=(nice -n 10)
  "${nice[@]}" emcmake cmake -S . -B build-web -DCMAKE_BUILD_TYPE=Release -DESVIEW_WEB_SOURCES="$(pwd)/build-web/sources" \
    -DESVIEW_BUILD_TESTS=OFF -DESVIEW_BUILD_BENCH=OFF >/dev/null
  "${nice[@]}" cmake --build build-web -j "$(jobs)" --target esview_web
  echo "setup: built $(pwd)/build-web/esview.html (./setup.sh serve-web serves it)"
}

mode=${1:-run}
[ $# -gt 0 ] && shift
case "$mode" in
  run)
    # Only the viewer: the tests and benchmarks are built by `./setup.sh test`.
    install_missing
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
    cmake --build build -j "$(jobs)" --target esview
    if [ -n "${DISPLAY:-}" ] && ./build/esview "$@"; then
      exit 0
    fi
    target=${1:-demo}
    echo "setup: no usable display; rendering $target headless"
    ./build/esview render "$target" -o build/esview-demo.png --size 1280x720 --time 0.5
    echo "setup: wrote $(pwd)/build/esview-demo.png"
    ;;
  test)
    PACKAGES+=("${TEST_PACKAGES[@]}")
    install_missing
    install_gltf_validator
    build build -DESVIEW_WERROR=ON -DESVIEW_REQUIRE_SHARED="$(require_shared)"
    run_tests build
    ;;
  test-sanitize)
    # The in-process tests of everything that reads, checks, prepares and writes files (the label
    # "sanitize", tests/CMakeLists.txt), built at -O1 with line tables only: what ASan and UBSan need
    # for their reports, at half the compile time of -O2 -g. The renders and viewer sessions run in
    # the normal build.
    install_missing
    cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
      -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DESVIEW_WERROR=ON -DESVIEW_SANITIZE=ON \
      -DESVIEW_BUILD_BENCH=OFF -DESVIEW_REQUIRE_SHARED="$(require_shared)"
    cmake --build build-asan -j "$(jobs)" --target sanitize_tests
    ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp" \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      run_tests build-asan -L sanitize "$@"
    ;;
  fuzz)
    # The libFuzzer targets in their own tree (clang, tests and benchmarks off), then each target
    # for SECONDS (default 60) on its committed corpus and the shared samples: fuzz/run.sh.
    PACKAGES+=(clang libclang-rt-14-dev)
    install_missing
    CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DESVIEW_BUILD_FUZZ=ON \
      -DESVIEW_BUILD_TESTS=OFF -DESVIEW_BUILD_BENCH=OFF
    cmake --build build-fuzz -j "$(jobs)" --target fuzzers
    fuzz/run.sh "$@" --build build-fuzz
    ;;
  build-arm64 | build-armhf)
    cross_build "${mode#build-}"
    ;;
  test-arm64 | test-armhf)
    # Further arguments go to ctest (.ci/run leaves out the longest sessions and sweeps with -E).
    PACKAGES+=("${TEST_PACKAGES[@]}")
    cross_build "${mode#test-}"
    run_tests "build-${mode#test-}" "$@"
    ;;
  web)
    web_build
    ;;
  serve-web)
    port=${1:-8321}
    [ -f build-web/esview.html ] || web_build
    echo "setup: serving http://127.0.0.1:$port/esview.html (?model=URL, ?gles2, ?script=COMMANDS; Ctrl-C stops)"
    cd build-web && exec python3 -m http.server "$port" --bind 127.0.0.1
    ;;
  test-web)
    # The native viewer and compare_images of the `test` build (nothing to build after it), whose
    # pictures the browser's must match, then the page, then the browser tests.
    install_missing
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DESVIEW_WERROR=ON -DESVIEW_REQUIRE_SHARED="$(require_shared)" >/dev/null
    cmake --build build -j "$(jobs)" --target esview compare_images
    web_build
    status=0
    python3 tests/web/web_test.py --web-dir build-web --esview build/esview --compare build/tests/compare_images \
      --models ../shared/models || status=$?
    python3 tests/web/input_test.py --web-dir build-web --models ../shared/models || status=$?
    exit "$status"
    ;;
  *)
    echo "usage: ./setup.sh run [FILE] | test | test-sanitize | fuzz [SECONDS] | build-arm64 | test-arm64 | build-armhf | test-armhf | web | serve-web [PORT] | test-web" >&2
    exit 2
    ;;
esac
