#!/usr/bin/env python3
"""The layers of issue 33, each check run when its option is given:
--links / --target-dir: the GL-free layers: target/'s sources include no GL header (nor the renderer
  or glad), and the libraries the configure step lists (prepare, the converters, target) link neither
  the GL renderer nor GL's loader, however deep.
--app-dir: app/'s rooms: every source sits in cli/, viewer/ or hosts/; nothing in viewer/ includes a
  host header or the command line's (cli/, commands.h with it); hosts include no command line header
  and of the viewer only host.h and the few host-independent headers HOST_VIEWER_HEADERS names (the
  browser's entry point the ones ENTRY_VIEWER_HEADERS adds). Quoted includes are resolved from the
  project root or the including file's folder, so a relative include is held to the same rules.
--self-test: runs the app-room check on a made-up tree with a breach of each rule and on a clean one.
Prints what it checked; exit 1 on any breach."""
import argparse
import os
import re
import sys
import tempfile

FORBIDDEN_LINKS = {"renderer", "glad", "gl_calls", "gl_headless", "shaders"}
FORBIDDEN_INCLUDE = re.compile(r'#\s*include\s*[<"](GLES\d*/|EGL/|glad/|GL/|renderer/)')

ROOMS = ("cli", "viewer", "hosts")
QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# The viewer's interface to hosts, and the input helpers hosts share that know no window system.
HOST_VIEWER_HEADERS = {"host.h", "touch_gestures.h", "touch_pointer.h"}
# An entry point in hosts/ runs the viewer's loop and reports on its state as main() does.
ENTRY_VIEWER_HEADERS = {"web_main.cpp": {"viewer_loop.h", "viewer_state.h", "scene_info.h"}}
SOURCE_EXTENSIONS = (".h", ".cpp")


def app_sources(app_dir):
    for root, dirs, names in os.walk(app_dir):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(SOURCE_EXTENSIONS):
                path = os.path.join(root, name)
                yield os.path.relpath(path, app_dir).replace(os.sep, "/"), path


def resolve_app_include(app_dir, includer, target):
    """The included file as a path under app/ (e.g. 'viewer/host.h'), or None when it is not app's."""
    root = os.path.dirname(os.path.abspath(app_dir))
    candidates = [os.path.join(os.path.dirname(includer), target), os.path.join(root, target)]
    app_abs = os.path.abspath(app_dir)
    for candidate in candidates:
        candidate = os.path.abspath(candidate)
        if os.path.isfile(candidate) and candidate.startswith(app_abs + os.sep):
            return os.path.relpath(candidate, app_abs).replace(os.sep, "/")
    if target.startswith("app/"):
        return target[len("app/"):]  # a header that does not exist: judged by its path
    return None


def check_app_rooms(app_dir, problems):
    """Checks app/'s rooms; returns how many sources it read."""
    files = 0
    seen_rooms = set()
    for rel, path in app_sources(app_dir):
        files += 1
        room = rel.split("/", 1)[0] if "/" in rel else None
        if room not in ROOMS:
            problems.append(f"{path}: not in one of app/'s rooms ({', '.join(r + '/' for r in ROOMS)})")
            continue
        seen_rooms.add(room)
        with open(path, encoding="utf-8") as f:
            for number, text in enumerate(f, 1):
                m = QUOTED_INCLUDE.match(text)
                if not m:
                    continue
                included = resolve_app_include(app_dir, path, m.group(1))
                if included is None:
                    continue
                inc_room = included.split("/", 1)[0]
                inc_name = included.rsplit("/", 1)[-1]
                where = f"{path}:{number}: {text.strip()}"
                if room == "viewer" and inc_room == "hosts":
                    problems.append(f"{where}: the viewer includes a host header")
                elif room == "viewer" and inc_room == "cli":
                    problems.append(f"{where}: the viewer includes the command line")
                elif room == "hosts" and inc_room == "cli":
                    problems.append(f"{where}: a host includes the command line")
                elif room == "hosts" and inc_room == "viewer":
                    allowed = HOST_VIEWER_HEADERS | ENTRY_VIEWER_HEADERS.get(os.path.basename(path), set())
                    if included.count("/") != 1 or inc_name not in allowed:
                        problems.append(f"{where}: a host includes the viewer other than through host.h")
                elif inc_room not in ROOMS:
                    problems.append(f"{where}: includes app/{included}, in none of the rooms")
    for room in ROOMS:
        if room not in seen_rooms:
            problems.append(f"{app_dir}/{room}: no sources")
    return files


def self_test():
    """The app-room check on made-up trees: one clean, one with a breach of each rule."""
    clean = {
        "cli/main.cpp": '#include "app/cli/commands.h"\n#include "app/hosts/glfw_host.h"\n#include "app/viewer/viewer_loop.h"\n',
        "cli/commands.h": "",
        "viewer/host.h": "",
        "viewer/viewer_loop.h": '#include "app/viewer/host.h"\n#include "exit_code.h"\n',
        "viewer/exit_code.h": "",
        "viewer/viewer_state.h": "",
        "viewer/touch_gestures.h": '#include "host.h"\n',
        "hosts/glfw_host.h": '#include "app/viewer/host.h"\n#include "app/viewer/touch_gestures.h"\n',
        "hosts/web_main.cpp": '#include "app/viewer/viewer_loop.h"\n#include "app/hosts/glfw_host.h"\n',
    }
    breaches = {
        "viewer/loop.cpp": '#include "app/hosts/glfw_host.h"\n',
        "viewer/script.cpp": '#include "app/cli/commands.h"\n',
        "viewer/relative.cpp": '#include "../hosts/glfw_host.h"\n',
        "hosts/sdl_host.cpp": '#include "app/viewer/viewer_state.h"\n',
        "hosts/egl.cpp": '#include "app/cli/commands.h"\n',
        "loose.cpp": "",
    }
    failures = []
    for name, tree, expected in (("clean", clean, 0), ("breaches", {**clean, **breaches}, len(breaches))):
        with tempfile.TemporaryDirectory() as top:
            app_dir = os.path.join(top, "app")
            for rel, text in tree.items():
                os.makedirs(os.path.dirname(os.path.join(app_dir, rel)), exist_ok=True)
                with open(os.path.join(app_dir, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            problems = []
            check_app_rooms(app_dir, problems)
            for p in problems:
                print(f"  {name}: {p}")
            if len(problems) != expected:
                failures.append(f"self-test {name}: {len(problems)} problems, expected {expected}")
            if name == "breaches":
                for rel in breaches:
                    flagged = os.path.join(app_dir, rel)
                    if not any(p.startswith(flagged + ":") for p in problems):
                        failures.append(f"self-test: app/{rel} not reported")
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--links")
    parser.add_argument("--target-dir")
    parser.add_argument("--app-dir")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if bool(args.links) != bool(args.target_dir):
        parser.error("--links and --target-dir go together")
    if not (args.links or args.app_dir or args.self_test):
        parser.error("nothing to check")
    problems = []
    said = []
    if args.self_test:
        problems += self_test()
        said.append("the app-room self-test")
    if args.app_dir:
        files = check_app_rooms(args.app_dir, problems)
        said.append(f"{files} app/ sources' includes")
    if args.links:
        said.append(check_gl_free(args, problems))
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{', '.join(said)} checked, {len(problems)} problems")
    return 1 if problems else 0


def check_gl_free(args, problems):
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
    return f"{checked} libraries' link closures and {files} target/ sources"


if __name__ == "__main__":
    sys.exit(main())
