#!/usr/bin/env python3
"""Writes the KTX fixtures of tests/textures/ktx_test.cpp into OUT (run by the test itself).

KTX 1.1 files are written here from the layout of the KTX 1.1 specification (section 2: the
64-byte header, key/value pairs with their padding, then per level imageSize, the faces with
cubePadding, mipPadding; uncompressed rows padded to 4 bytes), in both byte orders. KTX 2.0 files
are written by ktx-parse (npm; make_ktx2.mjs) around level data prepared here; Zstandard levels are
compressed by the zstd command line, zlib levels by Python's zlib. ASTC payloads come from Arm's
astcenc (`astcenc -cl in.png out.astc 6x6 -fast`, the 16-byte .astc header stripped), with its own
decode of each level (`astcenc -dl`) beside them as the reference; ETC, PVRTC and BC payloads are
seeded pseudo-random blocks (every 8-byte block is a valid ETC1/ETC2 block), kept as .raw files
so the test can compare the surfaces and their decode with the payload as written.

Usage: make_ktx_fixtures.py OUT [--node NODE --modules NODE_MODULES] [--models SHARED_MODELS]
With --models, the shared sample pod/nsdk/gnome_texture.pvr (PVRTC1 4bpp, stored bottom-up) is also
rewrapped as KTX 1.1 (gnome_texture_from_pvr.ktx), so the test can read one payload both ways.
Writes OUT/ktx1.done when the KTX 1 files are there and OUT/ktx2.done when ktx-parse wrote the
KTX 2 files, else OUT/ktx1.missing or OUT/ktx2.missing saying why (the test shows it when it
skips); then OUT/fixtures.stamp. Exit status 0 unless a tool fails outright.
"""
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import zlib


def png_rgba(path, width, height, pixel):
    """A plain RGBA8 PNG (filter 0 rows) of pixel(x, y) -> (r, g, b, a)."""
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for x in range(width):
            raw.extend(pixel(x, y))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(bytes(raw), 9)))
        f.write(chunk(b"IEND", b""))


def astc_levels(out, name, width, height, levels, block="6x6"):
    """Encodes one picture per level with astcenc; returns the payloads (header stripped)."""
    payloads = []
    for level in range(levels):
        w, h = max(width >> level, 1), max(height >> level, 1)
        src = os.path.join(out, "%s_l%d.src.png" % (name, level))
        png_rgba(src, w, h, lambda x, y, l=level, w=w, h=h: (
            (x * 255 // max(w - 1, 1)) ^ (l * 40), (y * 255 // max(h - 1, 1)), ((x + y) * 37 + l * 60) & 255,
            255 if (x // 3 + y // 3) % 2 else 160))
        astc = os.path.join(out, "%s_l%d.astc" % (name, level))
        subprocess.run(["astcenc", "-cl", src, astc, block, "-fast", "-silent"], check=True)
        subprocess.run(["astcenc", "-dl", astc, os.path.join(out, "%s_l%d.astcenc.png" % (name, level)), "-silent"],
                       check=True)
        with open(astc, "rb") as f:
            data = f.read()
        assert data[:4] == b"\x13\xab\xa1\x5c", "not an .astc file"
        payloads.append(data[16:])
    return payloads


def random_blocks(rng, count, block_bytes):
    return bytes(rng.getrandbits(8) for _ in range(count * block_bytes))


def pad4(data):
    return data + b"\0" * ((4 - len(data) % 4) % 4)


def ktx1(path, gl_type, type_size, gl_format, internal, base, width, height, levels, faces=1, elements=0,
         kv=(), big=False, swap_unit=1):
    """levels: per level a list of [element][face] byte strings (rows already padded)."""
    e = ">" if big else "<"
    out = bytearray(b"\xabKTX 11\xbb\r\n\x1a\n")
    kv_bytes = bytearray()
    for key, value in kv:
        entry = key.encode() + b"\0" + value.encode() + b"\0"
        kv_bytes += struct.pack(e + "I", len(entry)) + pad4(entry)
    out += struct.pack(e + "13I", 0x04030201, gl_type, type_size, gl_format, internal, base, width, height, 0,
                       elements, faces, len(levels), len(kv_bytes))
    out += kv_bytes

    def swapped(data):
        if not big or swap_unit == 1:
            return data
        return b"".join(data[i:i + swap_unit][::-1] for i in range(0, len(data), swap_unit))

    for level in levels:
        non_array_cube = faces == 6 and elements == 0
        if non_array_cube:
            out += struct.pack(e + "I", len(level[0][0]))
            for face in level[0]:
                out += pad4(swapped(face))
        else:
            body = b"".join(swapped(face) for element in level for face in element)
            out += struct.pack(e + "I", len(body)) + pad4(body)
    with open(path, "wb") as f:
        f.write(out)


def rows_padded(width, height, bpp, pixel):
    """Uncompressed rows of pixel(x, y) -> bytes, each padded to 4 bytes as KTX 1 stores them."""
    data = b""
    for y in range(height):
        data += pad4(b"".join(pixel(x, y) for x in range(width)))
    return data


def write_ktx1(out, rng, astc):
    GL_RGB, GL_RGBA, GL_LA, GL_UB = 0x1907, 0x1908, 0x190A, 0x1401
    # ETC1 16x8, a full chain of 5 levels, in both byte orders (the same blocks).
    sizes = [(16, 8), (8, 4), (4, 2), (2, 1), (1, 1)]
    etc1 = [random_blocks(rng, ((w + 3) // 4) * ((h + 3) // 4), 8) for w, h in sizes]
    open(os.path.join(out, "etc1.raw"), "wb").write(b"".join(etc1))
    for big in (False, True):
        ktx1(os.path.join(out, "etc1_%s.ktx" % ("be" if big else "le")), 0, 1, 0, 0x8D64, GL_RGB, 16, 8,
             [[[lvl]] for lvl in etc1], kv=[("KTXorientation", "S=r,T=d"), ("KTXwriter", "make_ktx_fixtures.py")],
             big=big)
    # ETC2 RGBA cube 8x8, 4 levels, each face its own blocks (level-major, faces +X..-Z).
    cube = [[random_blocks(rng, ((max(8 >> l, 1) + 3) // 4) ** 2, 16) for _ in range(6)] for l in range(4)]
    open(os.path.join(out, "etc2_cube.raw"), "wb").write(b"".join(b"".join(l) for l in cube))
    ktx1(os.path.join(out, "etc2_cube.ktx"), 0, 1, 0, 0x9278, GL_RGBA, 8, 8, [[l] for l in cube], faces=6)
    # ETC1 8x8 array of 3 elements: layer 0 is kept.
    layers = [random_blocks(rng, 4, 8) for _ in range(3)]
    open(os.path.join(out, "etc1_array.raw"), "wb").write(b"".join(layers))
    ktx1(os.path.join(out, "etc1_array.ktx"), 0, 1, 0, 0x8D64, GL_RGB, 8, 8, [[[x] for x in layers]], elements=3)
    # ASTC 6x6 37x23, 3 levels, from astcenc.
    ktx1(os.path.join(out, "astc6x6.ktx"), 0, 1, 0, 0x93B4, GL_RGBA, 37, 23, [[[p]] for p in astc])
    # PVRTC1 4bpp RGBA and DXT1 RGBA 8x8.
    pvrtc = random_blocks(rng, 4, 8)
    open(os.path.join(out, "pvrtc4.raw"), "wb").write(pvrtc)
    ktx1(os.path.join(out, "pvrtc4.ktx"), 0, 1, 0, 0x8C02, GL_RGBA, 8, 8, [[[pvrtc]]])
    dxt1 = random_blocks(rng, 4, 8)
    open(os.path.join(out, "dxt1.raw"), "wb").write(dxt1)
    ktx1(os.path.join(out, "dxt1.ktx"), 0, 1, 0, 0x83F1, GL_RGBA, 8, 8, [[[dxt1]]])

    # Uncompressed. RGB8 5x3 (15-byte rows padded to 16) and its 2x1 level: pixel (x*50, y*80, 200-x*10).
    rgb = lambda x, y: bytes([x * 50, y * 80, 200 - x * 10])
    ktx1(os.path.join(out, "rgb8.ktx"), GL_UB, 1, GL_RGB, 0x8051, GL_RGB, 5, 3,
         [[[rows_padded(5, 3, 3, rgb)]], [[rows_padded(2, 1, 3, rgb)]]])
    # RGB565 3x2 big-endian: r = x*10, g = y*20 + x, b = 31 - x.
    c565 = lambda x, y: struct.pack("<H", (x * 10) << 11 | (y * 20 + x) << 5 | (31 - x))
    ktx1(os.path.join(out, "rgb565_be.ktx"), 0x8363, 2, GL_RGB, 0x8D62, GL_RGB, 3, 2, [[[rows_padded(3, 2, 2, c565)]]],
         big=True, swap_unit=2)
    # RGBA4444 2x2: r = x*15, g = y*15, b = 5, a = 10.
    c4444 = lambda x, y: struct.pack("<H", (x * 15) << 12 | (y * 15) << 8 | 5 << 4 | 10)
    ktx1(os.path.join(out, "rgba4444.ktx"), 0x8033, 2, GL_RGBA, 0x8056, GL_RGBA, 2, 2, [[[rows_padded(2, 2, 2, c4444)]]])
    # LA8 3x1: l = 10 + 100x, a = 250 - x.
    la = lambda x, y: bytes([10 + 100 * x, 250 - x])
    ktx1(os.path.join(out, "la8.ktx"), GL_UB, 1, GL_LA, GL_LA, GL_LA, 3, 1, [[[rows_padded(3, 1, 2, la)]]])
    # RGBA8 2x2 stored bottom-up (KTXorientation T=u): stored row 0 is (y=0) = the bottom row.
    rgba = lambda x, y: bytes([x * 100, y * 100, 7, 255])
    ktx1(os.path.join(out, "rgba8_bottomup.ktx"), GL_UB, 1, GL_RGBA, 0x8058, GL_RGBA, 2, 2,
         [[[rows_padded(2, 2, 4, rgba)]]], kv=[("KTXorientation", "S=r,T=u")])
    open(os.path.join(out, "ktx1.done"), "w").write("ok\n")


def ktx1_from_pvr(pvr_path, out_path):
    """Rewraps a PVR v3 file of PVRTC1 4bpp RGBA (pixel format 3) as KTX 1.1: the same levels,
    glInternalFormat COMPRESSED_RGBA_PVRTC_4BPPV1_IMG, the PVR orientation metadata (key 3) as
    KTXorientation. Returns False when the file is not such a PVR."""
    b = open(pvr_path, "rb").read()
    if len(b) < 52 or struct.unpack_from("<I", b, 0)[0] != 0x03525650:
        return False
    _, pf, _, _, h, w, _, _, faces, mips, meta = struct.unpack_from("<IQIIIIIIIII", b, 4)
    if pf != 3 or faces != 1:
        return False
    kv, at, m = b"", 0, b[52:52 + meta]
    while at + 12 <= len(m):
        fourcc, key, size = struct.unpack_from("<III", m, at)
        data = m[at + 12:at + 12 + size]
        at += 12 + size
        if fourcc == 0x03525650 and key == 3 and size >= 2:
            entry = b"KTXorientation\0" + ("S=%s,T=%s" % ("l" if data[0] else "r", "u" if data[1] else "d")).encode() + b"\0"
            kv = struct.pack("<I", len(entry)) + pad4(entry)
    out = bytearray(b"\xabKTX 11\xbb\r\n\x1a\n")
    out += struct.pack("<13I", 0x04030201, 0, 1, 0, 0x8C02, 0x1908, w, h, 0, 0, 1, mips, len(kv)) + kv
    data, at = b[52 + meta:], 0
    for level in range(mips):
        size = max(w >> level, 8) * max(h >> level, 8) * 4 // 8
        out += struct.pack("<I", size) + data[at:at + size]
        at += size
    open(out_path, "wb").write(out)
    return True


def zstd(src):
    """Compresses a level file with the zstd command (which records the content size)."""
    subprocess.run(["zstd", "-q", "-f", "-19", src, "-o", src + ".zst"], check=True)
    return src + ".zst"


def write_ktx2(out, rng, astc, node, modules):
    if not shutil.which("zstd"):
        return "the zstd command is not installed"
    if not node or not os.path.exists(os.path.join(modules, "ktx-parse", "package.json")):
        return "npm's ktx-parse is not installed in %s (./setup.sh test installs it)" % modules
    spec = []
    RGBSDA, ETC2, ASTC, ETC1S, UASTC = 1, 161, 162, 163, 166  # KHR_DF_MODEL_*

    def dfd(model, bw, bh, block_bytes, srgb=False):
        return {"colorModel": model, "block": [bw, bh], "bytes": block_bytes, "transfer": 2 if srgb else 1}

    def level_files(name, levels, scheme):
        files = []
        for i, data in enumerate(levels):
            path = os.path.join(out, "%s_l%d.bin" % (name.replace(".ktx2", ""), i))
            open(path, "wb").write(data)
            if scheme == 2:
                path = zstd(path)
            elif scheme == 3:
                path += ".zlib"
                open(path, "wb").write(zlib.compress(data, 9))
            files.append({"file": path, "uncompressedByteLength": len(data)})
        return files

    def add(name, vk, type_size, w, h, levels, scheme=0, layers=0, faces=1, **extra):
        entry = {"out": os.path.join(out, name), "vkFormat": vk, "typeSize": type_size, "width": w, "height": h,
                 "layers": layers, "faces": faces, "levelCount": len(levels), "scheme": scheme,
                 "levels": level_files(name, levels, scheme)}
        entry.update(extra)
        spec.append(entry)

    add("astc6x6.ktx2", 165, 1, 37, 23, astc, dfd=dfd(ASTC, 6, 6, 16), keyValue={"KTXorientation": "rd"})
    add("astc6x6_zstd.ktx2", 165, 1, 37, 23, astc, scheme=2, dfd=dfd(ASTC, 6, 6, 16))
    cube = open(os.path.join(out, "etc2_cube.raw"), "rb").read()
    sizes = [((max(8 >> l, 1) + 3) // 4) ** 2 * 16 for l in range(4)]
    cube_levels, at = [], 0
    for s in sizes:
        cube_levels.append(cube[at:at + 6 * s])
        at += 6 * s
    add("etc2_cube.ktx2", 151, 1, 8, 8, cube_levels, faces=6, dfd=dfd(ETC2, 4, 4, 16))
    add("etc2_cube_zlib.ktx2", 151, 1, 8, 8, cube_levels, faces=6, scheme=3, dfd=dfd(ETC2, 4, 4, 16))
    layers = open(os.path.join(out, "etc1_array.raw"), "rb").read()
    add("etc2_array_zstd.ktx2", 147, 1, 8, 8, [layers], layers=3, scheme=2, dfd=dfd(ETC2, 4, 4, 8))
    l0 = b"".join(bytes([x * 60, y * 60, 9, 200 + x]) for y in range(4) for x in range(4))
    l1 = b"".join(bytes([x * 60, y * 60, 9, 200 + x]) for y in range(2) for x in range(2))
    add("rgba8_srgb.ktx2", 43, 1, 4, 4, [l0, l1], dfd=dfd(RGBSDA, 1, 1, 4, srgb=True), keyValue={"KTXorientation": "ru"})
    c565 = b"".join(struct.pack("<H", (x * 10) << 11 | (y * 20 + x) << 5 | (31 - x)) for y in range(2) for x in range(3))
    add("r5g6b5.ktx2", 4, 2, 3, 2, [c565], dfd=dfd(RGBSDA, 1, 1, 2))
    add("uastc.ktx2", 0, 1, 4, 4, [random_blocks(rng, 1, 16)], dfd=dfd(UASTC, 4, 4, 16))
    add("basislz.ktx2", 0, 1, 4, 4, [random_blocks(rng, 1, 16)], scheme=1, dfd=dfd(ETC1S, 4, 4, 8))
    spec_path = os.path.join(out, "ktx2_spec.json")
    json.dump(spec, open(spec_path, "w"), indent=1)
    subprocess.run([node, os.path.join(os.path.dirname(os.path.abspath(__file__)), "make_ktx2.mjs"), spec_path,
                    modules], check=True)
    open(os.path.join(out, "ktx2.done"), "w").write("ok\n")
    return None


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    out = args[0]
    node = args[args.index("--node") + 1] if "--node" in args else shutil.which("node")
    models = args[args.index("--models") + 1] if "--models" in args else ""
    modules = args[args.index("--modules") + 1] if "--modules" in args else os.path.expanduser(
        "~/.cache/esview/npm/node_modules")
    os.makedirs(out, exist_ok=True)
    for name in ("ktx1.done", "ktx2.done", "ktx1.missing", "ktx2.missing", "fixtures.stamp"):
        if os.path.exists(os.path.join(out, name)):
            os.remove(os.path.join(out, name))
    rng = random.Random(35)
    if not shutil.which("astcenc"):
        for part in ("ktx1", "ktx2"):
            open(os.path.join(out, part + ".missing"), "w").write("astcenc is not installed (Debian package astcenc)")
    else:
        astc = astc_levels(out, "astc6x6", 37, 23, 3)
        write_ktx1(out, rng, astc)
        why = write_ktx2(out, rng, astc, node, modules)
        if why:
            print("make_ktx_fixtures: no KTX 2 files: " + why)
            open(os.path.join(out, "ktx2.missing"), "w").write(why)
    # A shared sample rewrapped (when the models are there): the same blocks read from PVR and KTX.
    gnome = os.path.join(models, "pod", "nsdk", "gnome_texture.pvr")
    if models and os.path.exists(gnome):
        ktx1_from_pvr(gnome, os.path.join(out, "gnome_texture_from_pvr.ktx"))
    open(os.path.join(out, "fixtures.stamp"), "w").write("ok\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
