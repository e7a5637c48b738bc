#!/usr/bin/env python3
"""Drag and drop and touch in the browser viewer, in headless Chromium (SwiftShader WebGL 2) driven
through the DevTools protocol (cdp.py), which drops real files from disk as a desktop drag does and
touches the canvas as a touch screen does (touch emulation on, so the page reports touch points):

1. a POD model dropped with its two PVR textures opens with both textures found (no import-report
   warning), and the viewer's screenshot (Module.esview.screenshot) shows it;
2. a dropped folder is written with its tree, shows the browser panel, and a model inside it opens
   by its path there;
3. a corrupted copy of the model fails with a message in the page, and the previous scene stays;
4. a file that is not a model leaves the scene and says so in the status line;
5. a model too large for the page's memory is refused before it is read, the scene kept;
6. touch: the panels take touch sizes, a tap on the model selects it, one finger dragged across the
   3D view orbits, two fingers spread apart zoom in (pinch), a double tap frames the scene again.
The console must hold no WebGL or GL error and no uncaught exception. Python's standard library only.

  input_test.py --web-dir build-web [--models ../shared/models] [--chromium chromium] [--keep DIR]
Exit code 0: passed; 1: failed; 77: skipped (no page built, no Chromium, no models).
"""
import argparse
import base64
import json
import os
import re
import shutil
import struct
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
import web_site  # noqa: E402

SKIP = 77
MODEL_DIR = "pod/webglsdk"
MODEL = "webglsdk_IntroducingPOD.pod"
TEXTURES = ["tex_arm.pvr", "tex_base.pvr"]
COUNTS = "8 nodes, 4 meshes, 2 materials, 2 textures"  # esview info on the model natively


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


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


drops = 0


def drop(page, paths, count=None):
    """Drops files or folders from disk on the page and waits until the page has written them
    (`count` files; default one per path) and handed them to the viewer."""
    global drops
    data = {"items": [], "files": paths, "dragOperationsMask": 1}
    for kind in ("dragEnter", "dragOver", "drop"):
        page.call("Input.dispatchDragEvent", {"type": kind, "x": 400, "y": 300, "data": data})
    drops += 1
    want = "esview: dropped %d files into /dropped/%d" % (len(paths) if count is None else count, drops)
    check(page.wait_console(lambda l: l == want, 60), "the page did not take the drop ('%s')" % want)


def touch(page, frames):
    """Fingers down at the first frame's points, moved through the next ones, then lifted; a frame is
    a list of (x, y) in CSS pixels, one per finger. A tap (one frame) is lifted at once: the
    viewer counts a press released within a frame, and SwiftShader's frames are slow."""
    points = lambda frame: [{"x": px, "y": py, "id": i} for i, (px, py) in enumerate(frame)]
    page.call("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(frames[0])})
    if len(frames) > 1:
        page.pump(0.05)
    for frame in frames[1:]:
        page.call("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(frame)})
        page.pump(0.05)
    page.call("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.pump(0.05)


def save_screenshot(page, path):
    """The viewer's window as Module.esview.screenshot() gives it, saved as `path`."""
    png = base64.b64decode(page.evaluate(
        "Module.esview.screenshot().then((b) => { let s = ''; for (let i = 0; i < b.length; i += 0x8000)"
        " s += String.fromCharCode.apply(null, b.subarray(i, i + 0x8000)); return btoa(s); })"))
    with open(path, "wb") as f:
        f.write(png)
    return path


def dump(page):
    """The viewer's state (the script command `dump`), after a frame."""
    check(page.evaluate("Module.esview.run('dump /drop-test.json')") == 0, "dump refused")
    for _ in range(100):
        text = page.evaluate("(() => { try { return Module.FS.readFile('/drop-test.json', {encoding: 'utf8'}); }"
                             " catch (e) { return null; } })()")
        if text:
            page.evaluate("Module.FS.unlink('/drop-test.json')")
            return json.loads(text)
        page.pump(0.05)
    raise Failed("no dump")


def run(page, base, work, models):
    source = os.path.join(models, MODEL_DIR)
    page.call("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    page.navigate(base + "/esview.html")
    check(page.wait_console(lambda l: l.startswith("esview: loaded demo"), 90), "the demo did not load")
    check(page.evaluate("Module.esview.run('panel browser off')") == 0, "panel command refused")

    # 1. A model with its textures.
    drop(page, [os.path.join(source, f) for f in [MODEL] + TEXTURES])
    want = "esview: loaded /dropped/1/%s: %s" % (MODEL, COUNTS)
    check(page.wait_console(lambda l: l.startswith("esview: loaded /dropped/"), 90) == want,
          "the dropped model did not load as '%s'" % want)
    page.pump(0.5)
    shot = save_screenshot(page, os.path.join(work, "dropped-model.png"))
    fraction = model_pixels(shot)
    check(fraction >= 0.02, "the screenshot's 3D view is blank (%.1f%% differs)" % (fraction * 100))
    print("input_test: model with textures: ok (screenshot %s, %.0f%% of the centre is model)" % (shot, fraction * 100))

    # 5. Touch (before the drops that follow leave messages over the view).
    state = dump(page)
    check(state["touch_ui"]["active"], "the panels did not take touch sizes (touch_ui %s)" % state["touch_ui"])
    # The model's base, the widest part of it, and empty space, in the 3D view between the panels
    # (1024 x 625 canvas).
    x, y = 505, 300
    base_x, base_y = 505, 470
    empty_x, empty_y = 280, 80
    before = dump(page)
    touch(page, [[(base_x, base_y)]])
    tapped = dump(page)
    check(tapped["selected"] is not None and tapped["selected"] != before["selected"],
          "a tap on the model selected nothing (status %s)" % tapped["status"])
    touch(page, [[(x, y)], [(x + 40, y)], [(x + 80, y)], [(x + 120, y)]])
    orbited = dump(page)["orbit"]
    check(abs(orbited["yaw_deg"] - before["orbit"]["yaw_deg"]) > 5, "one finger did not orbit: yaw %.1f -> %.1f"
          % (before["orbit"]["yaw_deg"], orbited["yaw_deg"]))
    touch(page, [[(x - 40, y), (x + 40, y)], [(x - 80, y), (x + 80, y)], [(x - 120, y), (x + 120, y)]])
    pinched = dump(page)["orbit"]
    check(pinched["distance"] < orbited["distance"] * 0.8, "spreading two fingers did not zoom in: distance "
          "%.3f -> %.3f" % (orbited["distance"], pinched["distance"]))
    # The two taps' events sent at once: SwiftShader's slow frames hold each event the page takes
    # (a busy machine: 300 ms and more), which would make the taps too long and too far apart.
    tap = {"touchPoints": [{"x": empty_x, "y": empty_y, "id": 0}]}
    page.call_all([("Input.dispatchTouchEvent", dict(tap, type="touchStart")),
                   ("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []}),
                   ("Input.dispatchTouchEvent", dict(tap, type="touchStart")),
                   ("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})])
    page.pump(0.5)
    framed = dump(page)["orbit"]
    check(page.evaluate("Module.esview.run('fit scene')") == 0, "fit refused")
    fit = dump(page)["orbit"]  # the scene framed from the same side by the script command
    check(abs(framed["distance"] / fit["distance"] - 1) < 0.01 and abs(pinched["distance"] / fit["distance"] - 1) > 0.1,
          "a double tap did not frame the scene: distance %.3f, pinched %.3f, framed by 'fit scene' %.3f"
          % (framed["distance"], pinched["distance"], fit["distance"]))
    print("input_test: touch: ok (tap: %s selected; one finger: yaw %+.0f deg; pinch: distance x%.2f; "
          "double tap: the scene framed again)" % (tapped["selected"], orbited["yaw_deg"] - before["orbit"]["yaw_deg"],
                                                  pinched["distance"] / orbited["distance"]))

    # 2. A folder: its tree is written, the browser shows it, a model in it opens by its path.
    drop(page, [source], len(os.listdir(source)))
    folder = "/dropped/2/" + os.path.basename(source)
    state = dump(page)
    check(state["panels"]["browser"], "the browser panel did not show the dropped folder")
    listed = page.evaluate("Module.FS.readdir('%s')" % folder)
    check(all(f in listed for f in [MODEL] + TEXTURES), "the folder was not written whole: %s" % listed)
    check(page.evaluate("Module.esview.run('open %s/%s')" % (folder, MODEL)) == 0, "open refused")
    want = "esview: loaded %s/%s: %s" % (folder, MODEL, COUNTS)
    check(page.wait_console(lambda l: l == want, 90), "the model in the dropped folder did not open")
    print("input_test: folder: ok (%d files in %s)" % (len(listed) - 2, folder))

    # 3. A corrupted copy: a message, the previous scene kept.
    broken = os.path.join(work, "broken.pod")
    with open(os.path.join(source, MODEL), "rb") as f:
        data = f.read()
    with open(broken, "wb") as f:
        f.write(data[:len(data) // 3])
    drop(page, [broken])
    failed = page.wait_console(lambda l: l.startswith("esview: load failed: "), 90)
    check(failed and "broken.pod" in failed, "no load failure reported for the corrupted copy")
    message = page.evaluate("document.getElementById('message').textContent")
    check("broken.pod" in message, "the page shows no message for the corrupted copy (%r)" % message)
    state = dump(page)
    check(state["path"] == "%s/%s" % (folder, MODEL), "the previous scene was not kept: %s" % state["path"])
    print("input_test: corrupted copy: ok (%s)" % failed[len("esview: load failed: "):][:160])

    # 4. Not a model.
    notes = os.path.join(work, "notes.txt")
    with open(notes, "w") as f:
        f.write("not a model\n")
    drop(page, [notes])
    page.pump(0.5)
    state = dump(page)
    want = "notes.txt: not a model file esview opens (.pod, .ogex, .oddl, .awd, .pof, .glb, .gltf, .vp)"
    check(state["status"] == want and state["load_error"] == want, "status: %s" % state["status"])
    check("notes.txt" in page.evaluate("document.getElementById('message').textContent"), "no message in the page")
    check(state["path"] == "%s/%s" % (folder, MODEL), "the scene changed: %s" % state["path"])
    print("input_test: not a model: ok")

    # 6. Too large for the page's memory: refused before it is read, the scene kept. A sparse file:
    # nothing is written to disk.
    huge = os.path.join(work, "huge.pod")
    with open(huge, "wb") as f:
        f.truncate(1200 * 1024 * 1024)
    start = time.time()
    data = {"items": [], "files": [huge], "dragOperationsMask": 1}
    for kind in ("dragEnter", "dragOver", "drop"):
        page.call("Input.dispatchDragEvent", {"type": kind, "x": 400, "y": 300, "data": data})
    refusal = page.wait_console(lambda l: "is too large for the browser viewer" in l, 60)
    check(refusal and "huge.pod" in refusal, "no refusal of a 1200 MB model")
    check("too large" in page.evaluate("document.getElementById('message').textContent"), "no message in the page")
    state = dump(page)
    check(state["path"] == "%s/%s" % (folder, MODEL), "the scene changed: %s" % state["path"])
    os.remove(huge)
    print("input_test: too large: ok in %.1f s (%s)" % (time.time() - start, refusal[len("esview: "):]))

    errors = [l for l in page.console
              if re.search(r"WebGL: |GL_INVALID|GL error|INVALID_(ENUM|VALUE|OPERATION)|esview: warning|"
                           r"esview: page error|Uncaught|Aborted", l)]
    check(not errors, "console: " + "; ".join(errors)[:600])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web-dir", required=True)
    parser.add_argument("--models", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "models"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--keep", help="folder for the screenshot and files (default: a temporary one)")
    args = parser.parse_args()
    if not web_site.page_built(args.web_dir):
        print("input_test: skipped: no page in %s (./setup.sh web builds it)" % args.web_dir)
        return SKIP
    if not shutil.which(args.chromium):
        print("input_test: skipped: no chromium")
        return SKIP
    if not os.path.exists(os.path.join(args.models, MODEL_DIR, MODEL)):
        print("input_test: skipped: no %s in %s" % (MODEL, os.path.join(args.models, MODEL_DIR)))
        return SKIP
    work = args.keep or tempfile.mkdtemp(prefix="esview-input-test-")
    os.makedirs(work, exist_ok=True)
    server = web_site.serve(web_site.make_site(work, args.web_dir))
    base = "http://127.0.0.1:%d" % server.server_address[1]
    flags = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--window-size=1024,768"]
    start = time.time()
    try:
        with cdp.Browser(args.chromium, flags, os.path.join(work, "profile")) as browser:
            page = browser.open_page()
            try:
                run(page, base, work, os.path.abspath(args.models))
            finally:
                with open(os.path.join(work, "console.log"), "w") as f:
                    f.write("\n".join(page.console) + "\n")
    except (Failed, cdp.ProtocolError) as e:
        print("input_test: FAILED: %s (console in %s)" % (e, os.path.join(work, "console.log")))
        return 1
    finally:
        server.shutdown()
    print("input_test: passed (%.1f s)" % (time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
