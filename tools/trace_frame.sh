#!/usr/bin/env bash
# GL calls of one steady viewer frame, traced with apitrace (Debian package `apitrace`): the viewer
# opens MODEL under Xvfb, draws 8 frames paused, and the scene's part of the last frame (the calls
# before the panel's backend starts its part with glGetIntegerv(GL_ACTIVE_TEXTURE)) is printed as a
# count and a histogram of entry points.
#
#   tools/trace_frame.sh [--esview PATH] [--keep FILE] MODEL [viewer options, e.g. --gles2]
set -euo pipefail
esview=./build/esview
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --esview) esview=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: tools/trace_frame.sh [--esview PATH] [--keep FILE] MODEL [viewer options]" >&2; exit 2; }
model=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'pause\n' >"$work/script.txt"
xvfb-run -a -s "-screen 0 1280x720x24" apitrace trace --api egl -o "$work/viewer.trace" \
  "$esview" "$model" --frames 8 --script "$work/script.txt" "$@" >"$work/log" 2>&1 ||
  { cat "$work/log" >&2; exit 1; }
apitrace dump --call-nos=no "$work/viewer.trace" 2>/dev/null | grep -E '^(gl|egl)' >"$work/calls"
swaps=$(grep -n eglSwapBuffers "$work/calls" | tail -2 | cut -d: -f1 | tr '\n' ' ')
read -r from to <<<"$swaps"
sed -n "$((from + 1)),${to}p" "$work/calls" >"$work/frame"
panel=$(grep -n "glGetIntegerv(pname = GL_ACTIVE_TEXTURE" "$work/frame" | head -1 | cut -d: -f1)
head -n "$((panel - 1))" "$work/frame" >"$work/scene"
[ -n "$keep" ] && cp "$work/scene" "$keep"
echo "$(basename "$model") $*: $(wc -l <"$work/scene") GL calls, $(grep -c '^glDraw' "$work/scene") draw calls"
sed 's/(.*//' "$work/scene" | sort | uniq -c | sort -rn
