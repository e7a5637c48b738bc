#!/usr/bin/env python3
"""The GL-free layers (issue 33): target/'s sources include no GL header (nor the renderer or glad),
and the libraries the configure step lists (prepare, the converters, target) link neither the GL
renderer nor GL's loader, however deep. Prints what it checked; exit 1 on any breach."""
import argparse
import os
import re
import sys

FORBIDDEN_LINKS = {"renderer", "glad", "gl_calls", "gl_headless", "shaders"}
FORBIDDEN_INCLUDE = re.compile(r'#\s*include\s*[<"](GLES\d*/|EGL/|glad/|GL/|renderer/)')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--links", required=True)
    parser.add_argument("--target-dir", required=True)
    args = parser.parse_args()
    problems = []
    checked = 0
    with open(args.links) as f:
        for line in f:
            if ":" not in line:
                continue
            lib, closure = line.split(":", 1)
            linked = set(closure.split())
            checked += 1
            for bad in sorted(linked & FORBIDDEN_LINKS):
                problems.append(f"{lib} links {bad}")
    if checked < 3:
        problems.append(f"only {checked} libraries listed in {args.links}")
    files = 0
    for root, _, names in os.walk(args.target_dir):
        for name in sorted(names):
            if not name.endswith((".h", ".cpp")):
                continue
            files += 1
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                for number, text in enumerate(f, 1):
                    if FORBIDDEN_INCLUDE.search(text):
                        problems.append(f"{path}:{number}: {text.strip()}")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{checked} libraries' link closures and {files} target/ sources checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
