#!/usr/bin/env bash
# The figures of `esview convert IN OUT.pod` over every shared OpenGEX, AWD and POF sample: the
# wall time of one default conversion (read, shape, write), the size of the default POD, of the
# fully quantised one (--quantize all) and of that optimised too (--optimize: identical vertices
# merged, cache and fetch order), the ratios to the default, and the options the sample needs (each
# refusal names the option that drops what POD cannot hold; the script adds it and tries again;
# --clip takes the first clip). Prints a Markdown table.
#
#   tools/convert_figures.sh [--esview PATH] [MODELS_DIR]     (default: build/esview, ../shared/models)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
esview=$here/build/esview
if [ "${1:-}" = --esview ]; then esview=$2; shift 2; fi
models=${1:-$here/../shared/models}
[ -x "$esview" ] || { echo "convert_figures.sh: no esview at $esview (--esview PATH)" >&2; exit 2; }
out=$(mktemp -d "${TMPDIR:-/tmp}/esview-figures.XXXXXX")
trap 'rm -rf "$out"' EXIT

# Converts $1 to $2 with the remaining options plus those its refusals name; prints the options.
convert() {
    local in=$1 pod=$2; shift 2
    local opts=() err option clip
    for _ in 1 2 3 4 5 6; do
        if err=$("$esview" convert "$in" "$pod" "$@" "${opts[@]}" 2>&1 >/dev/null); then
            echo "${opts[*]}"
            return 0
        fi
        option=$(printf '%s\n' "$err" | grep -o '(--[a-z-]*' | head -1 | tr -d '(')
        [ -n "$option" ] || { echo "convert_figures.sh: $err" >&2; return 1; }
        if [ "$option" = --clip ]; then
            clip=$("$esview" info "$in" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["animation"]["clips"][0]["name"])')
            opts+=(--clip "$clip")
        else
            opts+=("$option")
        fi
    done
    return 1
}

echo "| sample | convert (ms) | default POD (bytes) | quantised (bytes) | ratio | quantised + optimised (bytes) | ratio | options |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
find "$models/ogex" "$models/awd" "$models/pof" -maxdepth 1 -type f \
    \( -iname '*.ogex' -o -iname '*.awd' -o -iname '*.pof' \) 2>/dev/null | sort | while read -r in; do
    name=${in#"$models/"}
    options=$(convert "$in" "$out/d.pod") || { echo "| $name | refused | | | | | | |"; continue; }
    # shellcheck disable=SC2086 # the options are words on purpose
    start=$(date +%s%N); "$esview" convert "$in" "$out/d.pod" $options >/dev/null; end=$(date +%s%N)
    # shellcheck disable=SC2086
    "$esview" convert "$in" "$out/q.pod" $options --quantize all >/dev/null
    # shellcheck disable=SC2086
    "$esview" convert "$in" "$out/o.pod" $options --quantize all --optimize >/dev/null
    d=$(stat -c %s "$out/d.pod"); q=$(stat -c %s "$out/q.pod"); o=$(stat -c %s "$out/o.pod")
    printf '| %s | %d | %d | %d | %.2f | %d | %.2f | %s |\n' "$name" $(((end - start) / 1000000)) "$d" "$q" \
        "$(python3 -c "print($q / $d)")" "$o" "$(python3 -c "print($o / $d)")" "$options"
done
