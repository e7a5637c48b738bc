#!/usr/bin/env python3
"""Load times of the largest shared sample of each format, the native viewer against the browser
viewer (wasm, headless Chromium with SwiftShader WebGL 2), in the same run: each opens the model and
reports the viewer's own figures (`dump`'s load_ms: reading and parsing, textures, preparation, GL
upload). The native viewer runs with SDL's offscreen driver (no display needed). Each model is
opened RUNS times in each and the median is printed.

  tools/web_load_times.py [--esview build/esview] [--web-dir build-web] [--models ../shared/models]
                          [--runs 3] [--chromium chromium]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "web"))
import cdp  # noqa: E402
import input_test  # noqa: E402  (dump)
import web_site  # noqa: E402

EXTENSIONS = {"pod": (".pod",), "awd": (".awd",), "ogex": (".ogex", ".oddl"), "pof": (".pof",)}
STAGES = ("read", "textures", "prepare", "upload", "total")


def largest(models, folder, extensions):
    found = []
    for root, _, files in os.walk(os.path.join(models, folder)):
        found += [os.path.join(root, f) for f in files if f.lower().endswith(extensions)]
    return max(found, key=os.path.getsize) if found else None


def native_times(esview, model, work):
    out = os.path.join(work, "native.json")
    script = os.path.join(work, "native.txt")
    with open(script, "w") as f:
        f.write("dump %s\nquit\n" % out)
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen")
    subprocess.run([esview, "--host", "sdl", model, "--script", script], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    with open(out) as f:
        return json.load(f)["load_ms"]


def web_times(page, base, url):
    page.navigate(base + "/esview.html?model=" + url)
    line = page.wait_console(lambda l: l.startswith("esview: loaded /models/") or "load failed" in l, 300)
    if not line or "load failed" in line:
        raise RuntimeError("the page did not load %s: %s" % (url, line))
    times = input_test.dump(page)["load_ms"]
    page.console.clear()
    return times


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("--esview", default=os.path.join(here, "..", "build", "esview"))
    parser.add_argument("--web-dir", default=os.path.join(here, "..", "build-web"))
    parser.add_argument("--models", default=os.path.join(here, "..", "..", "shared", "models"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="esview-load-times-")
    server = web_site.serve(web_site.make_site(work, args.web_dir, {"models": args.models}))
    base = "http://127.0.0.1:%d" % server.server_address[1]
    flags = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--window-size=1024,768"]
    rows = []
    try:
        with cdp.Browser(args.chromium, flags, os.path.join(work, "profile")) as browser:
            page = browser.open_page()
            for fmt, extensions in EXTENSIONS.items():
                model = largest(args.models, fmt, extensions)
                if not model:
                    continue
                url = "models/" + os.path.relpath(model, args.models)
                native = [native_times(args.esview, model, work) for _ in range(args.runs)]
                web = [web_times(page, base, url) for _ in range(args.runs)]
                median = lambda runs, stage: statistics.median(r[stage] for r in runs)
                rows.append((fmt, os.path.relpath(model, args.models), os.path.getsize(model),
                             {s: median(native, s) for s in STAGES}, {s: median(web, s) for s in STAGES}))
    finally:
        server.shutdown()
    print("| model | size | native ms (file, textures, prepare, upload) | wasm ms (file, textures, prepare, upload) | wasm / native |")
    print("|---|---|---|---|---|")
    for fmt, name, size, n, w in rows:
        parts = lambda t: "%.0f (%.0f, %.0f, %.0f, %.0f)" % (t["total"], t["read"], t["textures"], t["prepare"], t["upload"])
        print("| `%s` | %.2f MB | %s | %s | %.1f |" % (name, size / 1e6, parts(n), parts(w), w["total"] / max(n["total"], 1e-3)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
