#!/bin/sh
# Runs a command as a Wayland client of a private Weston; exits with the command's status.
#   with-weston.sh COMMAND [ARGS...]       (with DISPLAY set: run it under tests/tools/with-xvfb.sh)
# Weston runs on its X11 back end in the X display of $DISPLAY, with the CPU renderer. Unlike its
# headless back end, that one offers a wl_seat, without which SDL 2.26's Wayland back end crashes
# in SDL_Init: SIGSEGV storing 1 at offset 0x100 of a NULL pointer in a function Wayland_VideoInit
# calls, which is Wayland_InitMouse setting the seat input's cursor_visible when no seat created the
# input (libsdl-org/SDL#8898, reported against 2.28.5, fixed upstream in 2024). The command gets
# WAYLAND_DISPLAY and SDL_VIDEODRIVER=wayland, and no DISPLAY.
set -u
[ $# -gt 0 ] || { echo "with-weston.sh: no command given" >&2; exit 2; }
[ -n "${DISPLAY:-}" ] || { echo "with-weston.sh: no X display for Weston's X11 back end" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/esview-weston.XXXXXX") || exit 2
chmod 700 "$dir"
XDG_RUNTIME_DIR="$dir" weston --backend=x11-backend.so --use-pixman --no-config --idle-time=0 \
    --socket=wayland-esview --width=1400 --height=800 >"$dir/log" 2>&1 &
server=$!
tries=0
while [ ! -S "$dir/wayland-esview" ]; do
    if ! kill -0 "$server" 2>/dev/null || [ $tries -ge 200 ]; then
        echo "with-weston.sh: Weston did not start:" >&2
        cat "$dir/log" >&2
        kill "$server" 2>/dev/null
        rm -rf "$dir"
        exit 2
    fi
    tries=$((tries + 1))
    sleep 0.05
done
env -u DISPLAY XDG_RUNTIME_DIR="$dir" WAYLAND_DISPLAY=wayland-esview SDL_VIDEODRIVER=wayland "$@"
status=$?
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
rm -rf "$dir"
exit $status
