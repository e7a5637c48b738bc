#!/usr/bin/env python3
"""The browser viewer in headless Chromium (SwiftShader WebGL): the page is served from 127.0.0.1,
opens the demo and a shared POD sample in WebGL 2 and WebGL 1, runs a viewer script, and the test
reads the console (Chromium's --enable-logging), where the page prints the script's screenshot
(?print=) once the viewer has ended; Chromium is closed then.

Each case passes when the console names the WebGL version, reports the model loaded with its node and
mesh counts, has no WebGL or GL error and the run ends with exit code 0, and the screenshot has the
model's pixels in the 3D view (not one flat colour). Python's standard library only.

  web_test.py --web-dir build-web [--models ../shared/models] [--chromium chromium] [--keep DIR]
Exit code 0: passed; 1: failed; 77: skipped (no page built, no Chromium, no models for a case).
"""
import argparse
import base64
import functools
import http.server
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib

SKIP = 77

# (name, model path under the models folder or None for the demo, files beside it, nodes, meshes):
# the counts `esview info FILE --json` gives natively.
CASES = [
    ("demo", None, [], 12, 2),
    ("pod", "pod/webglsdk/webglsdk_IntroducingPOD.pod", ["tex_arm.pvr", "tex_base.pvr"], 8, 4),
]
SCRIPT = "wait 10;screenshot /shot.png;wait 2;quit"


def read_png(path):
    """(width, height, rows of RGBA bytes) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "unexpected PNG format"
            channels = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def model_pixels(path):
    """The fraction of the screenshot's central box (inside the panels, where the 3D view is) that is
    not its most common colour (the background)."""
    width, height, rows = read_png(path)
    box = [rows[y][x] for y in range(height * 3 // 10, height * 7 // 10)
           for x in range(width * 3 // 10, width * 7 // 10)]
    counts = {}
    for p in box:
        counts[p] = counts.get(p, 0) + 1
    background = max(counts.values())
    return 1.0 - background / len(box)


def serve(root):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_case(chromium, base, work, name, model, files, webgl):
    query = {"script": SCRIPT, "print": "/shot.png"}
    if model:
        query["model"] = "models/" + model
        if files:
            query["files"] = ",".join(files)
    if webgl == 1:
        query["gles2"] = ""
    url = base + "/esview.html?" + urllib.parse.urlencode(query)
    shot = os.path.join(work, "%s-webgl%d.png" % (name, webgl))
    profile = tempfile.mkdtemp(prefix="esview-chromium-", dir=work)
    cmd = [chromium, "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
           "--enable-logging=stderr", "--v=0", "--user-data-dir=" + profile, "--no-first-run",
           "--window-size=1024,768", url]
    start = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    lines = []
    timer = threading.Timer(180, proc.kill)  # a page that never ends
    timer.start()
    for raw in proc.stderr:
        line = raw.decode("utf-8", "replace")
        lines.append(line)
        if "esview: page done" in line:
            break
    timer.cancel()
    proc.kill()
    proc.wait()
    seconds = time.time() - start
    log = "".join(lines)
    console = [m.group(1) for m in re.finditer(r'CONSOLE[:(]\d+\)?\] "(.*)", source:', log)]
    chunks = [m.groups() for m in (re.match(r"esview: file /shot.png (\d+)/(\d+) (\S+)$", c) for c in console) if m]
    if chunks and len(chunks) == int(chunks[0][1]):
        with open(shot, "wb") as f:
            f.write(base64.b64decode("".join(c[2] for c in sorted(chunks, key=lambda c: int(c[0])))))
    console = [c for c in console if not c.startswith("esview: file ")]
    with open(os.path.join(work, "%s-webgl%d.log" % (name, webgl)), "w") as f:
        f.write(url + "\n" + log)
    problems = []
    version = "WebGL %d.0" % webgl
    if not any(line.startswith("esview: context") and version in line for line in console):
        problems.append("no 'esview: context ... %s' line" % version)
    loaded = [line for line in console if line.startswith("esview: loaded ")]
    want = "%d nodes, %d meshes" % (CASES_BY_NAME[name][3], CASES_BY_NAME[name][4])
    if not loaded or want not in loaded[-1]:
        problems.append("no load line with '%s' (got %s)" % (want, loaded or "none"))
    if "esview: done, exit code 0" not in console or "esview: page done 0" not in console:
        problems.append("the run did not end with exit code 0")
    errors = [line for line in log.splitlines()
              if re.search(r"WebGL: |GL_INVALID|GL error|INVALID_(ENUM|VALUE|OPERATION)|esview: load failed|"
                           r"esview: page error|esview: warning|Uncaught|Aborted", line)]
    problems += ["console: " + line.strip()[:300] for line in errors]
    if not os.path.exists(shot):
        problems.append("no screenshot")
    else:
        fraction = model_pixels(shot)
        if fraction < 0.02:
            problems.append("the 3D view is blank (%.1f%% of its centre differs from the background)" % (fraction * 100))
    status = "ok" if not problems else "FAILED"
    print("web_test: %s WebGL %d: %s (%.1f s)" % (name, webgl, status, seconds))
    for p in problems:
        print("  " + p)
    for line in console:
        if line.startswith("esview: "):
            print("    | " + line)
    return not problems


CASES_BY_NAME = {c[0]: c for c in CASES}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web-dir", required=True)
    parser.add_argument("--models", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "models"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--keep", help="folder for the screenshots and logs (default: a temporary one)")
    args = parser.parse_args()
    page = os.path.join(args.web_dir, "esview.html")
    if not all(os.path.exists(os.path.join(args.web_dir, f)) for f in ("esview.html", "esview.js", "esview.wasm")):
        print("web_test: skipped: no page in %s (./setup.sh web builds it)" % args.web_dir)
        return SKIP
    if not shutil.which(args.chromium):
        print("web_test: skipped: no chromium")
        return SKIP
    work = args.keep or tempfile.mkdtemp(prefix="esview-web-test-")
    os.makedirs(work, exist_ok=True)
    root = os.path.join(work, "site")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    for f in ("esview.html", "esview.js", "esview.wasm"):
        os.symlink(os.path.abspath(os.path.join(args.web_dir, f)), os.path.join(root, f))
    if os.path.isdir(args.models):
        os.symlink(os.path.abspath(args.models), os.path.join(root, "models"))
    server = serve(root)
    base = "http://127.0.0.1:%d" % server.server_address[1]
    ok, skipped = True, 0
    try:
        for name, model, files, _, _ in CASES:
            if model and not os.path.exists(os.path.join(args.models, model)):
                print("web_test: %s skipped: no %s in %s" % (name, model, args.models))
                skipped += 1
                continue
            for webgl in (2, 1):
                ok = run_case(args.chromium, base, work, name, model, files, webgl) and ok
    finally:
        server.shutdown()
    print("web_test: %s (screenshots and logs in %s)" % ("passed" if ok else "FAILED", work))
    if ok and skipped == len(CASES):
        return SKIP
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
