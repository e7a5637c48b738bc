#!/usr/bin/env python3
"""The browser viewer in headless Chromium (SwiftShader WebGL) against the native viewer: every shared
sample of every format the native viewer reads (the extensions of its format table, from
`esview info --help`) opens in WebGL 2 and in WebGL 1, and the scene's picture the viewer script
takes (`screenshot PATH WxH`: offscreen, no panels) matches the native viewer's picture of the same
model by the same script (`esview --host sdl` on SDL's offscreen driver, llvmpipe; `--gles2` for
the WebGL 1 case) under the rendering tests' golden rule (compare_images: the C++ tests'
image_compare with GoldenRule's defaults).

One page per WebGL version, served from 127.0.0.1: every sample is a ?model= of it (the k-th in
/models/k/, with the textures it names), the first opens at start, the page's ?script= hides the
panels and dumps the layout, and the test (Chromium's DevTools protocol over a pipe, cdp.py) then
sizes the page so that its 3D view is the native one's and runs the rest (Module.esview.run): each
model opened in turn (`open /models/k/NAME`), paused at its first clip's start, pictured; the demo
last; `quit`. The pictures come back from the page's in-memory file system. The native runs (one per
GL version, the same commands on the files themselves) go on meanwhile.

A sample passes in a WebGL version when the page names the version, reports the model loaded, logs
no WebGL message, GL error, exception, failed load or script error while it is open, ends with exit
code 0, prints only import-report warnings ("esview: warning: ...") that the native viewer prints
for the file too (`esview info FILE`, or for the renderer's `esview render FILE --time 0`, with
--gles2 for WebGL 1), and its picture matches the native one. Besides the shared samples, the test makes what they lack
(GENERATED): two AWD samples with LZMA bodies, and a cube per compressed format with no shared sample
(ETC1, ETC2, ETC2 with EAC alpha, ASTC 4x4 and 8x8) and DXT1/DXT5 with full mip chains, the same in
KTX 1.1 containers for ETC2, ETC2 with EAC alpha and ASTC 8x8; and it takes the project's OpenGEX
skin and morph fixtures and two of Blender's glTF files (FIXTURES), which no shared sample has. Python's
standard library only (and astcenc for the ASTC cubes).

  web_test.py --web-dir build-web --esview build/esview --compare build/tests/compare_images
              [--models ../shared/models] [--chromium chromium] [--keep DIR] [--only TEXT] [--webgl 1|2]
Exit code 0: passed; 1: failed; 77: skipped (no page built, no Chromium, no native viewer or
comparison tool, no models). With ESVIEW_REQUIRE_SHARED=1 or CI=true what would skip fails instead.
"""
import argparse
import base64
import json
import lzma
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
import web_site  # noqa: E402

SKIP = 77


def stem(sample):
    """A sample's path as a file name."""
    return re.sub(r"[^A-Za-z0-9]+", "_", sample)


# The scene's picture: offscreen at this size, as the cross-build test draws its pictures.
SHOT_SIZE = "400x300"
# The native viewer's window. The viewer frames a model for the aspect of its 3D view (the window
# less the panels, the menu and the status bar, whose sizes follow the font), so the script first
# hides the panels and dumps the state (layout.json);
# the page is then given the size (DevTools' device metrics) that makes its 3D view the native one's
# before the rest of the script runs, and the viewer frames each model for the same aspect.
WINDOW = (1024, 768)
PANELS = ["main", "browser", "tree", "inspector", "report", "stats", "skinning", "pof"]
LAYOUT = ["panel %s off" % p for p in PANELS] + ["wait 1"]
# After each open: the animation paused at the clip's start, a few frames for the view to settle.
PER_MODEL = ["pause", "start", "wait 3"]

# The project's own OpenGEX fixtures of what no shared OpenGEX sample has: a skin and morph targets
# (tests/opengex/fixtures, served as fixtures/opengex/), pictured half-way through their clip, where
# the skin bends and the morph weights blend.
# And glTF files Blender wrote (tests/gltf_writers/fixtures: the skinned tube as .glb, pictured in
# its first clip; the textured box as .gltf with its buffer and image beside it, which the page
# fetches before the model loads), as no shared sample is glTF.
FIXTURES = ["opengex/skin.ogex", "opengex/morph.ogex", "gltf_writers/blender/skinned.glb",
            "gltf_writers/blender/textured_gltf/textured.gltf"]
FIXTURES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
EXTRA = {stem("fixtures/" + f): ["time 0.5"] for f in FIXTURES}
# Warnings the native viewer gives too but neither `esview info` nor `esview render` prints (the
# preparation's lines, which only `render --gles2-strict` prints): sample -> [(text, reason)].
NATIVE_PREPARATION_WARNINGS = {
    "fixtures/opengex/skin.ogex": [
        ("mesh 'mesh': 1 vertices had more than 4 bone influences; kept the 4 strongest",
         "the fixture gives one vertex 5 influences; preparation keeps 4 on every target")],
}

# Per-sample allowances: (sample, WebGL version or 0 for both) -> (compare_images options, reason),
# each measured. Only pictures of gizmos need one: files with no mesh draw their lights, cameras and
# empties as lines, and SwiftShader and llvmpipe end a few one-pixel segments a pixel apart (2.84%
# and 3.29% of some 800 line pixels beyond 10 levels, worst pixel 171, mean colour off under 0.3).
_GIZMO_LINES = (["--model-fraction", "0.05"], "gizmo lines only, rasterized a pixel apart at segment ends")
ALLOWANCES = {
    ("models/ogex/magnum_scene-rotation.ogex", 0): _GIZMO_LINES,
    ("models/ogex/squareys_LinkedParentedObjects.ogex", 0): _GIZMO_LINES,
    ("models/pof/ls_dup.pof", 0): _GIZMO_LINES,
}


def formats(esview):
    """The model extensions of the native viewer's format table (the Formats section of its help)."""
    text = subprocess.run([esview, "info", "--help"], capture_output=True, text=True).stdout
    extensions = set()
    section = False
    for line in text.splitlines():
        if line.startswith("Formats"):
            section = True
        elif section and re.match(r"  \S", line):
            extensions.update(e.lower() for e in re.findall(r"\s(\.[A-Za-z0-9]+)", line))
        elif section and line.strip() == "":
            break
    return extensions


def lzma_awd(source):
    """Makes a function writing the shared AWD sample `source` (a zlib body) again with an LZMA body as
    Away3D's tools write it (the .lzma layout: properties, dictionary size, unknown size), beside
    links to the files of its folder (its textures): the shared samples have no LZMA body. The
    function returns False when the models folder lacks `source`."""
    def make(models, path):
        original = os.path.join(models, source)
        if not os.path.isfile(original):
            return False
        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        for f in os.listdir(os.path.dirname(original)):
            if not os.path.exists(os.path.join(folder, f)):
                os.symlink(os.path.join(os.path.dirname(original), f), os.path.join(folder, f))
        data = open(original, "rb").read()
        assert data[:3] == b"AWD" and data[7] == 1, "%s: not a zlib AWD" % source
        body = lzma.compress(zlib.decompress(data[12:]), format=lzma.FORMAT_ALONE)
        with open(path, "wb") as f:
            f.write(data[:7] + bytes([2]) + struct.pack("<I", len(body)) + body)
        return True
    return make


# Compressed textures: the shared samples hold PVRTC (PVR v2 and v3) and DXT1/DXT5 (POF's DDS) but no
# ETC or ASTC, so the test writes a textured cube per format with a PVR v3 texture: a smooth pattern
# encoded here (ETC1 individual mode, EAC alpha, DXT1 and DXT5 by small exhaustive encoders) or by
# astcenc (ASTC 4x4 and 8x8), every mip level. Whatever the encoders' quality, both viewers decode
# the same blocks.
ETC_TABLES = [(2, 8), (5, 17), (9, 29), (13, 42), (18, 60), (24, 80), (33, 106), (47, 183)]


def pattern(size):
    """A smooth, colourful opaque RGBA image: gradients, a disc and stripes."""
    px = []
    for y in range(size):
        for x in range(size):
            u, v = (x + 0.5) / size, (y + 0.5) / size
            r = int(255 * u)
            g = int(255 * v)
            b = 200 if (u - 0.5) ** 2 + (v - 0.5) ** 2 < 0.09 else int(80 + 100 * ((x // (size // 8)) % 2))
            px.append((r, g, b, 255))
    return px


def downsample(px, size):
    half = max(1, size // 2)
    out = []
    for y in range(half):
        for x in range(half):
            acc = [0, 0, 0, 0]
            for dy in (0, 1):
                for dx in (0, 1):
                    p = px[min(2 * y + dy, size - 1) * size + min(2 * x + dx, size - 1)]
                    for c in range(4):
                        acc[c] += p[c]
            out.append(tuple((a + 2) // 4 for a in acc))
    return out, half


def block(px, size, bx, by, n=4):
    return [px[min(by * n + y, size - 1) * size + min(bx * n + x, size - 1)] for y in range(n) for x in range(n)]


def etc1_block(pix):
    """ETC1 individual mode, flip 0 (left and right 2x4 halves)."""
    bases, tables, indices = [], [], [0] * 16
    for half in (0, 1):
        members = [(x, y) for y in range(4) for x in range(4) if (x >> 1) == half]
        avg = [sum(pix[y * 4 + x][c] for x, y in members) / 8 for c in range(3)]
        base4 = [max(0, min(15, int(round(a / 17)))) for a in avg]
        base = [b * 17 for b in base4]
        best = None
        for t, (a, b) in enumerate(ETC_TABLES):
            mods = (a, b, -a, -b)
            err, chosen = 0, []
            for x, y in members:
                p = pix[y * 4 + x]
                e, i = min((sum((max(0, min(255, base[c] + m)) - p[c]) ** 2 for c in range(3)), i)
                           for i, m in enumerate(mods))
                err += e
                chosen.append((x, y, i))
            if best is None or err < best[0]:
                best = (err, t, chosen)
        bases.append(base4)
        tables.append(best[1])
        for x, y, i in best[2]:
            indices[x * 4 + y] = i
    hi = (bases[0][0] << 28 | bases[1][0] << 24 | bases[0][1] << 20 | bases[1][1] << 16 | bases[0][2] << 12 |
          bases[1][2] << 8 | tables[0] << 5 | tables[1] << 2)
    msb = lsb = 0
    for k, i in enumerate(indices):
        msb |= (i >> 1) << k
        lsb |= (i & 1) << k
    return struct.pack(">II", hi, msb << 16 | lsb)


def rgb565(p):
    return (p[0] >> 3) << 11 | (p[1] >> 2) << 5 | p[2] >> 3


def expand565(c):
    r, g, b = c >> 11, (c >> 5) & 63, c & 31
    return ((r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2))


def dxt1_block(pix):
    lum = [p[0] * 3 + p[1] * 6 + p[2] for p in pix]
    c0, c1 = rgb565(pix[lum.index(max(lum))]), rgb565(pix[lum.index(min(lum))])
    if c0 < c1:
        c0, c1 = c1, c0
    if c0 == c1:
        return struct.pack("<HHI", c0, c1, 0)
    e0, e1 = expand565(c0), expand565(c1)
    palette = [e0, e1, tuple((2 * a + b) // 3 for a, b in zip(e0, e1)), tuple((a + 2 * b) // 3 for a, b in zip(e0, e1))]
    bits = 0
    for k, p in enumerate(pix):
        i = min(range(4), key=lambda i: sum((palette[i][c] - p[c]) ** 2 for c in range(3)))
        bits |= i << (2 * k)
    return struct.pack("<HHI", c0, c1, bits)


def encode(px, size, fmt):
    """The surface of one level in `fmt`: etc1, etc2 (the same blocks, ETC1's individual mode), etc2a
    (with an EAC alpha block), dxt1, dxt5."""
    out = bytearray()
    blocks = (size + 3) // 4
    for by in range(blocks):
        for bx in range(blocks):
            pix = block(px, size, bx, by)
            if fmt in ("etc1", "etc2"):
                out += etc1_block(pix)
            elif fmt == "etc2a":  # EAC alpha 255 (base 255, multiplier 1, table 0, index 4: +2, clamped)
                alpha = 255 << 56 | 1 << 52
                for k in range(16):
                    alpha |= 4 << (45 - 3 * k)
                out += struct.pack(">Q", alpha) + etc1_block(pix)
            elif fmt == "dxt1":
                out += dxt1_block(pix)
            elif fmt == "dxt5":  # alpha 255 and 255: every index 0 is 255
                out += bytes([255, 255, 0, 0, 0, 0, 0, 0]) + dxt1_block(pix)
    return bytes(out)


def png(px, size):
    raw = b"".join(b"\0" + bytes(c for p in px[y * size:(y + 1) * size] for c in p) for y in range(size))
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# PVR v3 pixel format ids.
PVR_IDS = {"etc1": 6, "etc2": 22, "etc2a": 23, "dxt1": 7, "dxt5": 11, "astc4x4": 27, "astc8x8": 34}


def mip_levels(fmt, size):
    """The pattern's whole mip chain in `fmt`, level 0 first (so that a GPU sampling the format and a
    software decode with its generated mipmaps filter alike)."""
    levels, px, s = [], pattern(size), size
    while True:
        if fmt.startswith("astc"):
            with tempfile.TemporaryDirectory() as tmp:
                open(os.path.join(tmp, "in.png"), "wb").write(png(px, s))
                subprocess.run(["astcenc", "-cl", os.path.join(tmp, "in.png"), os.path.join(tmp, "out.astc"),
                                fmt[4:], "-fast", "-silent"], check=True, capture_output=True)
                levels.append(open(os.path.join(tmp, "out.astc"), "rb").read()[16:])
        else:
            levels.append(encode(px, s, fmt))
        if s == 1:
            return levels
        px, s = downsample(px, s)


def pvr(fmt, size=64):
    """A PVR v3 file of the pattern in `fmt` with its whole mip chain."""
    levels = mip_levels(fmt, size)
    header = struct.pack("<4sIQIIIIIIIII", b"PVR\x03", 0, PVR_IDS[fmt], 0, 0, size, size, 1, 1, 1, len(levels), 0)
    return header + b"".join(levels)


# KTX 1.1 glInternalFormat and glBaseInternalFormat of the formats the KTX cubes use.
KTX_FORMATS = {"etc2": (0x9274, 0x1907), "etc2a": (0x9278, 0x1908), "astc8x8": (0x93B7, 0x1908)}


def ktx(fmt, size=64):
    """The same pattern and mip chain as pvr(), in a KTX 1.1 container (the spec's layout, little
    endian: identifier, 13 header words, no key/value data, each level's size before its data)."""
    levels = mip_levels(fmt, size)
    internal, base = KTX_FORMATS[fmt]
    header = (b"\xabKTX 11\xbb\r\n\x1a\n" +
              struct.pack("<13I", 0x04030201, 0, 1, 0, internal, base, size, size, 0, 0, 1, len(levels), 0))
    return header + b"".join(struct.pack("<I", len(l)) + l + b"\0" * (-len(l) % 4) for l in levels)


def cube_ogex(texture):
    """An OpenGEX cube (z up), each face textured 0..1 with `texture`."""
    faces = [((1, 0, 0), (0, 1, 0), (0, 0, 1)), ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
             ((0, 1, 0), (-1, 0, 0), (0, 0, 1)), ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
             ((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 0, -1), (1, 0, 0), (0, -1, 0))]
    pos, nrm, uv, idx = [], [], [], []
    for n, u, v in faces:
        base = len(pos)
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            pos.append(tuple(n[i] + su * u[i] + sv * v[i] for i in range(3)))
            nrm.append(n)
            uv.append(((su + 1) / 2, (sv + 1) / 2))
        idx += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
    fmt = lambda rows: ", ".join("{" + ", ".join("%g" % c for c in r) + "}" for r in rows)
    return ('Metric (key = "up") {string {"z"}}\n'
            'GeometryNode $node1 {Name {string {"cube"}} ObjectRef {ref {$geometry1}} MaterialRef {ref {$material1}}}\n'
            'GeometryObject $geometry1 {Mesh (primitive = "triangles") {\n'
            '  VertexArray (attrib = "position") {float[3] {%s}}\n'
            '  VertexArray (attrib = "normal") {float[3] {%s}}\n'
            '  VertexArray (attrib = "texcoord") {float[2] {%s}}\n'
            '  IndexArray {unsigned_int16[3] {%s}}\n}}\n'
            'Material $material1 {Color (attrib = "diffuse") {float[3] {{1, 1, 1}}}\n'
            '  Texture (attrib = "diffuse") {string {"%s"}}}\n') % (fmt(pos), fmt(nrm), fmt(uv), fmt(idx), texture)


def texture_cube(fmt, container="pvr"):
    """Makes a function writing a cube (.ogex) and its texture tex_FMT.pvr (or tex_FMT.ktx); False
    without astcenc for ASTC."""
    def make(models, path):
        if fmt.startswith("astc") and not shutil.which("astcenc"):
            return False
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(os.path.join(os.path.dirname(path), "tex_%s.%s" % (fmt, container)), "wb") as f:
            f.write(pvr(fmt) if container == "pvr" else ktx(fmt))
        with open(path, "w") as f:
            f.write(cube_ogex("tex_%s.%s" % (fmt, container)))
        return True
    return make


# Models the test makes (served path, maker(models folder, path)), for what the shared samples lack.
GENERATED = [
    ("generated/awd/Head_PhongSpec_lzma.awd", lzma_awd("awd/Head_PhongSpec.awd")),
    ("generated/awd/PolarBear_Skeleton_ABexport_lzma.awd", lzma_awd("awd/PolarBear_Skeleton_ABexport.awd")),
] + [("generated/textures/cube_%s.ogex" % fmt, texture_cube(fmt)) for fmt in PVR_IDS] + [
    ("generated/ktx/cube_%s.ogex" % fmt, texture_cube(fmt, "ktx")) for fmt in KTX_FORMATS]


def discover(models, extensions):
    """The model files under the models folder (relative paths, sorted), as the native tests find them."""
    found = []
    for folder, _, files in os.walk(models):
        for f in files:
            if os.path.splitext(f)[1].lower() in extensions:
                found.append(os.path.relpath(os.path.join(folder, f), models))
    return sorted(found)


def shown(sample):
    """A sample as the results name it: a shared one by its path under the models folder."""
    return sample[len("models/"):] if sample.startswith("models/") else sample


def normalise_warning(text, folder):
    """A warning with the model's folder (native path or the page's) as <dir>."""
    return text.replace(folder.rstrip("/") + "/", "<dir>/").strip()


def native_warnings(esview, root, sample):
    """The import-report warnings `esview info FILE` prints natively (FILE: `sample` under `root`)."""
    path = sample if sample == "demo" else os.path.join(root, sample)
    out = subprocess.run([esview, "info", path], capture_output=True, text=True)
    lines = (out.stdout + out.stderr).splitlines()
    return {normalise_warning(l[len("warning: "):], os.path.dirname(path)) for l in lines if l.startswith("warning: ")}


def layout_script(shot_prefix):
    """The script's first part: the panels hidden, the state dumped as shot_prefix + "layout.json"."""
    return LAYOUT + ["dump %slayout.json" % shot_prefix]


def models_script(opens, shot_prefix):
    """The script's second part: for each (path to open or None for the model open already, picture
    name), open it, settle, take the picture as shot_prefix + name + ".png"; the state as
    shot_prefix + "end.json"; quit."""
    lines = ["wait 2"]
    for path, name in opens:
        if path:
            lines.append("open " + path)
        lines += PER_MODEL + EXTRA.get(name, [])
        lines.append("screenshot %s%s.png %s" % (shot_prefix, name, SHOT_SIZE))
    lines += ["dump %send.json" % shot_prefix, "quit"]
    return lines


def native_render_warnings(esview, root, sample, webgl):
    """The warnings `esview render FILE --time 0` (--gles2 for WebGL 1) prints natively: the renderer's,
    for the first clip's start that the script pictures."""
    path = sample if sample == "demo" else os.path.join(root, sample)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [esview, "render", path, "-o", os.path.join(tmp, "render.png"), "--size", SHOT_SIZE, "--time", "0"]
        out = subprocess.run(cmd + (["--gles2"] if webgl == 1 else []), capture_output=True, text=True)
    prefix = path + ": warning: "
    return {normalise_warning(l[len(prefix):], os.path.dirname(path))
            for l in (out.stdout + out.stderr).splitlines() if l.startswith(prefix)}


def run_native(esview, root, samples, webgl, out_dir, window, script_lines=None):
    """The native pictures of the demo and `samples` (paths under `root`: one viewer run on SDL's
    offscreen driver that
    starts with the demo and opens each sample in turn) in a window of size `window`, into out_dir
    (or the run of `script_lines` instead). Returns (exit code, output)."""
    os.makedirs(out_dir, exist_ok=True)
    opens = [(None, "demo")] + [(os.path.abspath(os.path.join(root, s)), stem(s)) for s in samples]
    script = os.path.join(out_dir, "script.txt")
    prefix = os.path.abspath(out_dir) + "/"
    with open(script, "w") as f:
        f.write("\n".join(script_lines or layout_script(prefix) + models_script(opens, prefix)) + "\n")
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", ESVIEW_CONFIG_DIR=os.path.abspath(out_dir))
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    cmd = [esview, "--host", "sdl", "--size", "%dx%d" % window, "demo", "--script", script]
    if webgl == 1:
        cmd.append("--gles2")
    result = subprocess.run(cmd, capture_output=True, text=True, cwd=out_dir, env=env, timeout=600)
    with open(os.path.join(out_dir, "native.log"), "w") as f:
        f.write(" ".join(cmd) + "\n" + result.stdout + result.stderr)
    return result.returncode, result.stdout + result.stderr


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


# The files the page's script wrote (named /shot-NAME in its in-memory file system) by NAME, as
# base64 text.
READ_SHOTS = """(() => {
  const out = {};
  for (const name of Module.FS.readdir('/')) {
    if (!name.startsWith('shot-')) continue;
    const bytes = Module.FS.readFile('/' + name);
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    out[name.substring(5)] = btoa(text);
  }
  return JSON.stringify(out);
})()"""


def run_page(chromium, url, script, view, work, tag, timeout):
    """Opens `url` in headless Chromium (SwiftShader); once its script has written layout.json, sizes
    the page so that its 3D view is `view` (width, height), runs `script` (Module.esview.run), waits
    until the page says it is done (or gives up after `timeout` s), reads the files the script
    wrote. Returns (console lines, {file name: bytes}, problems)."""
    flags = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--window-size=%d,%d" % WINDOW]
    problems, files = [], {}
    profile = os.path.join(work, "profile-" + tag)
    shutil.rmtree(profile, ignore_errors=True)
    end = re.compile(r"esview: page done|Uncaught|Aborted")
    with cdp.Browser(chromium, flags, profile) as browser:
        page = browser.open_page()
        page.call("Page.addScriptToEvaluateOnNewDocument", {"source": LOG_UPLOADS})
        page.navigate(url)
        deadline = time.time() + timeout
        try:
            layout = None
            while time.time() < deadline and not any(end.search(line) for line in page.console):
                text = page.evaluate("(() => { try { return Module.FS.readFile('/shot-layout.json', "
                                     "{encoding: 'utf8'}); } catch (e) { return null; } })()")
                if text:
                    layout = json.loads(text)
                    break
                page.pump(0.2)
            if not layout:
                raise cdp.ProtocolError("no layout.json from the page")
            shown = layout["viewport"]
            width, height = page.evaluate("[innerWidth, innerHeight]")
            page.call("Emulation.setDeviceMetricsOverride", {
                "width": int(view[0] + width - shown[2]), "height": int(view[1] + height - shown[3]),
                "deviceScaleFactor": 1, "mobile": False})
            # The first part of the script may still be ending: it is running until its last frame.
            while page.evaluate("Module.esview.run(%s)" % json.dumps(script)) != 0:
                if time.time() > deadline:
                    raise cdp.ProtocolError("the page refused the script")
                page.pump(0.1)
            if not page.wait_console(lambda line: end.search(line) is not None, max(1, deadline - time.time())):
                problems.append("the page did not end in %d s" % timeout)
            page.pump(0.2)  # what the last frame logged
            files = {k: base64.b64decode(v) for k, v in json.loads(page.evaluate(READ_SHOTS) or "{}").items()}
            files["extensions.json"] = json.dumps(page.evaluate(
                "(() => { const c = document.getElementById('canvas'); "
                "return (c.getContext('webgl2') || c.getContext('webgl')).getSupportedExtensions(); })()")).encode()
        except (cdp.ProtocolError, ValueError, KeyError, TypeError) as e:
            problems.append("page: %s" % e)
        console = list(page.console)
    shutil.rmtree(profile, ignore_errors=True)
    with open(os.path.join(work, tag + ".log"), "w") as f:
        f.write(url + "\n" + "\n".join(console) + "\n")
    return console, files, problems


# Logs each compressed texture upload's level 0 with its internal format, before the page's scripts
# run: which format went up compressed, and which was decoded in software (none logged).
LOG_UPLOADS = """for (const proto of [WebGLRenderingContext.prototype, WebGL2RenderingContext.prototype]) {
  const upload = proto.compressedTexImage2D;
  proto.compressedTexImage2D = function(target, level, format, ...rest) {
    if (level === 0) console.log('esview-test: compressed upload 0x' + format.toString(16));
    return upload.call(this, target, level, format, ...rest);
  };
}"""

# The compressed uploads (internal formats) a model's textures must make where the context lists a
# WebGL extension, the first listed of (extension, formats); without any, nothing goes up compressed
# (the textures are decoded to RGBA8 in software). The generated cubes: ETC1 goes up as ETC1 with
# WEBGL_compressed_texture_etc1, else as ETC2 RGB8 with WEBGL_compressed_texture_etc. A shared sample
# with PVRTC textures (SwiftShader has no PVRTC: the software path) and one with DXT1.
UPLOADS = {
    "generated/textures/cube_etc1.ogex": [("WEBGL_compressed_texture_etc1", [0x8D64]),
                                          ("WEBGL_compressed_texture_etc", [0x9274])],
    "generated/textures/cube_etc2.ogex": [("WEBGL_compressed_texture_etc", [0x9274])],
    "generated/textures/cube_etc2a.ogex": [("WEBGL_compressed_texture_etc", [0x9278])],
    "generated/textures/cube_dxt1.ogex": [("WEBGL_compressed_texture_s3tc", [0x83F1])],
    "generated/textures/cube_dxt5.ogex": [("WEBGL_compressed_texture_s3tc", [0x83F3])],
    "generated/textures/cube_astc4x4.ogex": [("WEBGL_compressed_texture_astc", [0x93B0])],
    "generated/textures/cube_astc8x8.ogex": [("WEBGL_compressed_texture_astc", [0x93B7])],
    "generated/ktx/cube_etc2.ogex": [("WEBGL_compressed_texture_etc", [0x9274])],
    "generated/ktx/cube_etc2a.ogex": [("WEBGL_compressed_texture_etc", [0x9278])],
    "generated/ktx/cube_astc8x8.ogex": [("WEBGL_compressed_texture_astc", [0x93B7])],
    # Marble.pvr and MarbleNormalMap.pvr: PVRTC 4 bpp RGBA (PVR v3).
    "models/pod/nsdk/nsdk_Bumpmap_scene.pod": [("WEBGL_compressed_texture_pvrtc", [0x8C02, 0x8C02])],
}


def expected_uploads(sample, extensions):
    """The compressed uploads `sample` must make (UPLOADS), or None when it is not checked."""
    if sample not in UPLOADS:
        return None
    for extension, formats in UPLOADS[sample]:
        if extension in extensions:
            return formats
    return []


# Console lines that fail the page: WebGL's own messages and its driver's (Chromium logs them with
# the source "rendering"), GL errors the viewer saw, exceptions, failed loads and script errors.
ERROR_LINE = re.compile(r"WebGL: |\[\.WebGL-|^rendering: |GL_INVALID|GL error|INVALID_(ENUM|VALUE|OPERATION)|"
                        r"Uncaught|Aborted|^esview: (load failed|page error)")


def check_console(console, webgl):
    """The page's own problems, and per model path (as the page's load lines name it) its load line,
    warnings and errors: each line after a model's load line is that model's."""
    problems = []
    version = "WebGL %d.0" % webgl
    if not any(line.startswith("esview: context") and version in line for line in console):
        problems.append("no 'esview: context ... %s' line" % version)
    if "esview: done, exit code 0" not in console or "esview: page done 0" not in console:
        problems.append("the run did not end with exit code 0")
    per_model, current, uploads = {}, None, []
    for line in console:
        m = re.match(r"esview: loaded (\S+): (.*)$", line)
        if m:
            current = m.group(1)
            # The scene's textures went up before its load line.
            per_model.setdefault(current, {"loaded": m.group(2), "warnings": [], "errors": [], "uploads": uploads})
            uploads = []
            continue
        m = re.match(r"esview-test: compressed upload (0x[0-9a-f]+)$", line)
        if m:
            uploads.append(int(m.group(1), 16))
            continue
        error = ERROR_LINE.search(line) or (line.startswith("esview: ") and not re.match(
            r"esview: (context|done,|page done|warning: )", line))  # a script error, a failed fetch
        # Chromium's lines end with the page's (long) address.
        text = re.sub(r" https?://\S+$", "", re.sub(r"\[\.WebGL-0x[0-9a-f]+\]", "[.WebGL]", line.strip()))
        if not error and not line.startswith("esview: warning: "):
            continue
        if current is None:
            problems.append("console: " + text[:300])
        elif error:
            per_model[current]["errors"].append(text[:300])
        else:
            per_model[current]["warnings"].append(text[len("esview: warning: "):])
    return problems, per_model


def summary(lines, most=3):
    """The distinct lines (at most `most`, with how many times each came)."""
    counts = {}
    for line in lines:
        counts[line] = counts.get(line, 0) + 1
    out = ["%s%s" % (line, " (%d times)" % n if n > 1 else "") for line, n in list(counts.items())[:most]]
    if len(counts) > most:
        out.append("and %d other lines" % (len(counts) - most))
    return out


def compare(tool, actual, expected, diff, options):
    result = subprocess.run([tool, actual, expected, "--diff", diff] + options, capture_output=True, text=True)
    return result.returncode == 0, (result.stdout + result.stderr).strip()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web-dir", required=True)
    parser.add_argument("--esview", required=True, help="the native viewer")
    parser.add_argument("--compare", required=True, help="the compare_images tool")
    parser.add_argument("--models", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "models"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--keep", help="folder for the pictures and logs (default: a temporary one)")
    parser.add_argument("--only", help="only the samples whose path contains this text")
    parser.add_argument("--webgl", type=int, choices=(1, 2), help="only this WebGL version")
    args = parser.parse_args()
    args.esview, args.compare = os.path.abspath(args.esview), os.path.abspath(args.compare)
    require = os.environ.get("ESVIEW_REQUIRE_SHARED") == "1" or os.environ.get("CI") == "true"

    def skip(reason):
        print("web_test: %s: %s" % ("FAILED (required)" if require else "skipped", reason))
        return 1 if require else SKIP

    if not web_site.page_built(args.web_dir):
        return skip("no page in %s (./setup.sh web builds it)" % args.web_dir)
    if not shutil.which(args.chromium):
        return skip("no chromium")
    for tool in (args.esview, args.compare):
        if not os.access(tool, os.X_OK):
            return skip("no %s" % tool)
    extensions = formats(args.esview)
    if not extensions:
        print("web_test: FAILED: no formats in `%s info --help`" % args.esview)
        return 1
    samples = discover(args.models, extensions) if os.path.isdir(args.models) else []
    if not samples:
        return skip("no models (%s) in %s" % (" ".join(sorted(extensions)), args.models))
    # Paths in the served folder: the shared samples under models/, the generated ones beside them.
    samples = (["models/" + s for s in samples] + [g for g, _ in GENERATED] +
               ["fixtures/" + f for f in FIXTURES if os.path.isfile(os.path.join(FIXTURES_DIR, f.split("/")[0],
                                                                                "fixtures", f.split("/", 1)[1]))])
    if args.only:
        samples = [s for s in samples if args.only in s]
        if not samples:
            print("web_test: FAILED: no sample path contains '%s'" % args.only)
            return 1
    started = time.time()
    work = os.path.abspath(args.keep or tempfile.mkdtemp(prefix="esview-web-test-"))
    os.makedirs(work, exist_ok=True)
    links = {"models": args.models}
    for folder in sorted({f.split("/")[0] for f in FIXTURES}):
        links["fixtures/" + folder] = os.path.join(FIXTURES_DIR, folder, "fixtures")
    root = web_site.make_site(work, args.web_dir, links)
    for sample, make in GENERATED:
        if sample in samples and not make(os.path.abspath(args.models), os.path.join(root, sample)):
            samples.remove(sample)
    server = web_site.serve(root)
    base = "http://127.0.0.1:%d" % server.server_address[1]

    warnings = {s: native_warnings(args.esview, root, s) for s in ["demo"] + samples}
    # The k-th ?model= goes to /models/k/; the page opens the first, the script the others, then the demo.
    page_paths = {s: "/models/%d/%s" % (k, os.path.basename(s)) for k, s in enumerate(samples)}
    page_paths["demo"] = "demo"
    opens = [(None if k == 0 else page_paths[s], stem(s)) for k, s in enumerate(samples)] + [("demo", "demo")]
    results = {}  # (sample, webgl) -> problems
    page_results = {}  # webgl -> the page's own problems
    notes, timings = [], []
    versions = [args.webgl] if args.webgl else [2, 1]
    try:
        # The native 3D view's size with the panels hidden, which the pages are given.
        probe_dir = os.path.join(work, "native-layout")
        code, output = run_native(args.esview, root, [], 2, probe_dir, WINDOW,
                                  LAYOUT + ["dump %s/layout.json" % probe_dir, "quit"])
        view = read_json(os.path.join(probe_dir, "layout.json")).get("viewport")
        if code != 0 or not view:
            print("web_test: FAILED: the native viewer's layout run (exit code %d):\n%s" % (code, output[-3000:]))
            return 1
        # The native pictures, made while the pages run (both wait on frames and loads more than
        # they use the processor).
        native = {}

        def native_runs():
            for webgl in versions:
                t = time.time()
                out_dir = os.path.join(work, "native-webgl%d" % webgl)
                try:
                    result = run_native(args.esview, root, samples, webgl, out_dir, WINDOW)
                except (OSError, subprocess.SubprocessError) as e:
                    result = (-1, str(e))
                native[webgl] = result + (out_dir, time.time() - t)

        native_thread = threading.Thread(target=native_runs)
        native_thread.start()
        pages = {}
        for webgl in versions:
            t = time.time()
            tag = "webgl%d" % webgl
            shot_dir = os.path.join(work, tag)
            os.makedirs(shot_dir, exist_ok=True)
            query = [("model", s) for s in samples]
            query.append(("script", ";".join(layout_script("/shot-"))))
            if webgl == 1:
                query.append(("gles2", ""))
            url = base + "/esview.html?" + urllib.parse.urlencode(query)
            pages[webgl] = run_page(args.chromium, url, "\n".join(models_script(opens, "/shot-")), view[2:], work, tag,
                                    120 + 10 * len(samples))
            timings.append("WebGL %d page %.0f s" % (webgl, time.time() - t))
            for name, data in pages[webgl][1].items():
                with open(os.path.join(shot_dir, name), "wb") as f:
                    f.write(data)
        native_thread.join()
        for webgl in versions:
            console, shots, page_problems = pages[webgl]
            shot_dir = os.path.join(work, "webgl%d" % webgl)
            code, output, native_dir, seconds = native[webgl]
            timings.append("native %s %.0f s" % ("ES 3" if webgl == 2 else "ES 2", seconds))
            if code != 0:
                print("web_test: FAILED: the native viewer ended with exit code %d:\n%s" % (code, output[-3000:]))
                return 1
            a = read_json(os.path.join(shot_dir, "end.json")).get("viewport")
            b = read_json(os.path.join(native_dir, "end.json")).get("viewport")
            if not a or not b or a[2:] != b[2:]:
                page_problems.append("the 3D view's size at the end: %s in the page, %s natively" % (a, b))
            more, per_model = check_console(console, webgl)
            extensions = json.loads(shots.get("extensions.json", b"[]"))
            page_problems += more
            page_results[webgl] = page_problems
            for s in ["demo"] + samples:
                problems = []
                model = per_model.get(page_paths[s])
                if not model:
                    problems.append("no 'esview: loaded %s' line" % page_paths[s])
                else:
                    problems += ["console: " + line for line in summary(model["errors"])]
                    unknown = [w for w in model["warnings"]
                               if normalise_warning(w, os.path.dirname(page_paths[s])) not in warnings[s]]
                    known = [text for text, _ in NATIVE_PREPARATION_WARNINGS.get(s, [])]
                    unknown = [w for w in unknown if w not in known]
                    if unknown:  # perhaps the renderer's, which `esview render` prints
                        drawn = native_render_warnings(args.esview, root, s, webgl)
                        unknown = [w for w in unknown if normalise_warning(w, os.path.dirname(page_paths[s])) not in drawn]
                    problems += ["warning not printed natively: " + w[:300] for w in summary(unknown)]
                    want = expected_uploads(s, extensions)
                    if want is not None and model["uploads"] != want:
                        problems.append("compressed uploads %s, expected %s (WebGL extensions: %s)" % (
                            [hex(u) for u in model["uploads"]], [hex(u) for u in want],
                            " ".join(e for e in extensions if "compressed" in e)))
                name = stem(s) + ".png"
                actual, expected = os.path.join(shot_dir, name), os.path.join(native_dir, name)
                if name not in shots:
                    problems.append("no picture from the page")
                elif not os.path.exists(expected):
                    problems.append("no native picture")
                else:
                    options, reason = ALLOWANCES.get((s, webgl), ALLOWANCES.get((s, 0), ([], "")))
                    ok, line = compare(args.compare, actual, expected, actual[:-4] + ".diff.png", options)
                    if not ok:
                        problems.append(line)
                    elif options:
                        notes.append("%s WebGL %d within its allowance (%s: %s): %s" % (shown(s), webgl, " ".join(options),
                                                                                    reason, line))
                results[(s, webgl)] = problems
    finally:
        server.shutdown()
    failed = 0
    for webgl, problems in sorted(page_results.items()):
        for p in problems:
            print("web_test: WebGL %d page: %s" % (webgl, p))
        failed += bool(problems)
    for (s, webgl), problems in sorted(results.items()):
        print("web_test: %s WebGL %d: %s" % (shown(s), webgl, "ok" if not problems else "FAILED"))
        for p in problems:
            print("  " + p)
        failed += bool(problems)
    for note in notes:
        print("web_test: " + note)
    print("web_test: times: " + ", ".join(timings))
    passed = sum(1 for problems in results.values() if not problems)
    print("web_test: %s: %d of %d cases (%d models and the demo, WebGL %s) in %.0f s; pictures and logs in %s" % (
        "passed" if not failed else "FAILED", passed, len(results), len(samples),
        " and ".join(str(v) for v in versions), time.time() - started, work))
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
