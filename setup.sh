#!/usr/bin/env bash
# esview set-up on Debian 12: installs what is missing, builds, then runs the viewer or the tests.
#
#   ./setup.sh run [FILE]   build and open the viewer (no display: render the demo headless to a PNG)
#   ./setup.sh test         build (warnings as errors) and run the whole test suite
#   ./setup.sh test-sanitize  the same with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)
set -euo pipefail
cd "$(dirname "$0")"
# ccache keys on paths relative to the checkout, so build trees and clones share cached objects.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(pwd)}"

PACKAGES=(
  build-essential cmake pkg-config python3
  libglfw3-dev python3-glad libglm-dev libimgui-dev libstb-dev zlib1g-dev liblzma-dev
  libgles-dev libegl-dev libgl1-mesa-dri libegl-mesa0
  xvfb xauth
  libgtest-dev libbenchmark-dev libassimp-dev libmeshoptimizer-dev libfast-float-dev libcli11-dev nlohmann-json3-dev
  glslang-tools
  astcenc ccache
)

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

jobs() { nproc 2>/dev/null || echo 2; }

build() {  # build DIR [cmake options...]
  local dir=$1; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$dir" -j "$(jobs)"
}

mode=${1:-run}
[ $# -gt 0 ] && shift
case "$mode" in
  run)
    install_missing
    build build
    if [ -n "${DISPLAY:-}" ] && ./build/esview "$@"; then
      exit 0
    fi
    target=${1:-demo}
    echo "setup: no usable display; rendering $target headless"
    ./build/esview render "$target" -o build/esview-demo.png --size 1280x720 --time 0.5
    echo "setup: wrote $(pwd)/build/esview-demo.png"
    ;;
  test)
    install_missing
    build build -DESVIEW_WERROR=ON
    ctest --test-dir build --output-on-failure -j "$(jobs)"
    ;;
  test-sanitize)
    install_missing
    build build-asan -DESVIEW_WERROR=ON -DESVIEW_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DESVIEW_BUILD_BENCH=OFF
    ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp" \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-asan --output-on-failure -j "$(jobs)"
    ;;
  *)
    echo "usage: ./setup.sh run [FILE] | test | test-sanitize" >&2
    exit 2
    ;;
esac
