#!/bin/sh
# Runs a command under a private Xvfb server; exits with the command's status.
#   with-xvfb.sh [-a] [-s 'SERVER ARGS'] COMMAND [ARGS...]
# The options read like xvfb-run's. Unlike xvfb-run, the server picks a free display itself
# (-displayfd), so parallel tests never race for a display number, there is no authority file to
# create and clean up, and nothing after the command can change its exit status.
set -u
server_args="-screen 0 1280x720x24"
while [ $# -gt 0 ]; do
    case "$1" in
    -a) shift ;;
    -s) server_args="$2"; shift 2 ;;
    --) shift; break ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "with-xvfb.sh: no command given" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/esview-xvfb.XXXXXX") || exit 2
# shellcheck disable=SC2086 # the server arguments are words on purpose
Xvfb -displayfd 3 -nolisten tcp $server_args 3>"$dir/display" 2>"$dir/log" &
server=$!
tries=0
while [ ! -s "$dir/display" ]; do
    if ! kill -0 "$server" 2>/dev/null || [ $tries -ge 200 ]; then
        echo "with-xvfb.sh: Xvfb did not start:" >&2
        cat "$dir/log" >&2
        kill "$server" 2>/dev/null
        rm -rf "$dir"
        exit 2
    fi
    tries=$((tries + 1))
    sleep 0.05
done
display=$(cat "$dir/display")
DISPLAY=":$display" "$@"
status=$?
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
rm -rf "$dir"
exit $status
