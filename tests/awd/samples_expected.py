#!/usr/bin/env python3
"""Facts about the sample AWD files in ../shared/models/awd, derived independently of the esview
reader: a small AWD decoder written from the AWD 2.1 spec (block headers, attribute lists, scene
headers, TriangleGeometry streams) with the layouts Away3D's AWD2Parser reads where the spec is
silent (4x3 scene matrices, the header's precision flags, pivots). awd_samples_test.cpp hard-codes
what this prints; the test does not run it. Pure Python (zlib and lzma from the standard library):

    python3 samples_expected.py [MODELS_DIR]   the facts, file by file (default folder:
                                               ../../../shared/models/awd)
    python3 samples_expected.py --cpp DIR      the kFacts table of awd_samples_test.cpp

Counts follow DESIGN.md: nodes = Scene, Container, MeshInstance, Light, Camera and SkyBox blocks;
meshes = TriangleGeometry and PrimitiveGeometry blocks; textures = BitmapTexture blocks plus six
per CubeTexture. The box at rest covers the TriangleGeometry vertices the face indices use, in
world space (parents first, Away3D pivots applied); PrimitiveGeometry instances are listed with
their world matrices and properties, and the test adds their tessellated vertices.
"""
import lzma
import os
import struct
import sys
import zlib

NODE_TYPES = {21, 22, 23, 31, 41, 42}


def mat_mul(a, b):
    """4x4 column-major matrices as lists of 16 (m[c*4+r])."""
    out = [0.0] * 16
    for c in range(4):
        for r in range(4):
            out[c * 4 + r] = sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4))
    return out


def translation(x, y, z):
    m = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, x, y, z, 1.0]
    return m


def transform(m, p):
    return tuple(m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] for r in range(3))


class Reader:
    def __init__(self, data, pos=0, end=None):
        self.d, self.p = data, pos
        self.end = len(data) if end is None else end

    def take(self, n):
        if self.p + n > self.end:
            raise ValueError("short read at %d" % self.p)
        b = self.d[self.p:self.p + n]
        self.p += n
        return b

    def u8(self):
        return self.take(1)[0]

    def u16(self):
        return struct.unpack("<H", self.take(2))[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def num(self, wide):
        return struct.unpack("<d", self.take(8))[0] if wide else struct.unpack("<f", self.take(4))[0]

    def varstr(self):
        return self.take(self.u16()).decode("utf-8", "replace")

    def attrs(self):
        """A numeric attribute list: {key: bytes}."""
        n = self.u32()
        sub = Reader(self.d, self.p, self.p + n)
        self.p += n
        out = {}
        while sub.p < sub.end:
            key, length = sub.u16(), sub.u32()
            out[key] = sub.take(length)
        return out

    def user_attrs(self):
        n = self.u32()
        self.p += n


def flt(value):
    return struct.unpack("<d" if len(value) == 8 else "<f", value)[0]


def decode(path):
    data = open(path, "rb").read()
    assert data[:3] == b"AWD"
    major, minor, flags, compression, body_len = struct.unpack_from("<BBHBI", data, 3)
    body = data[12:]
    if compression == 1:
        body = zlib.decompress(body)
    elif compression == 2:
        size = struct.unpack_from("<I", body, 0)[0]
        props = body[4:9]
        header = props + struct.pack("<Q", size)
        body = lzma.LZMADecompressor(format=lzma.FORMAT_ALONE).decompress(header + body[9:])
    v21 = (major, minor) == (2, 1)
    matrix64 = v21 and bool(flags & 2)
    geo64 = v21 and bool(flags & 4)

    facts = {"file": os.path.basename(path), "bytes": len(data), "version": "%d.%d" % (major, minor),
             "compression": compression, "nodes": 0, "mesh_instances": 0, "materials": 0, "textures": 0,
             "lights": [], "cameras": 0, "meshes": [], "primitives": []}
    blocks = {}      # id -> (type, payload info)
    geometry = {}    # id -> mesh index
    node_world = {}  # id -> world matrix
    node_visible = {}
    box = [None, None]
    pos = 0
    while pos < len(body):
        bid, ns, btype, bflags, length = struct.unpack_from("<IBBBI", body, pos)
        r = Reader(body, pos + 11, pos + 11 + length)
        pos += 11 + length
        if ns != 0:
            continue
        if btype in NODE_TYPES:
            facts["nodes"] += 1
        if btype == 1:
            name = r.varstr()
            subs = r.u16()
            r.attrs()
            verts = tris = 0
            positions, used = [], set()
            for _ in range(subs):
                sub_len = r.u32()
                start = r.p
                props = r.attrs()
                props_size = r.p - start
                # The spec's length covers the streams; AwayBuilder's the properties too.
                def tiles(n):
                    p = r.p
                    while p < r.p + n:
                        if r.p + n - p < 6:
                            return False
                        p += 6 + struct.unpack_from("<I", body, p + 2)[0]
                    return p == r.p + n and r.p + n <= r.end
                stream_len = sub_len if tiles(sub_len) else sub_len - props_size
                end = r.p + stream_len
                base = len(positions)
                sub_positions, sub_indices = [], []
                while r.p < end:
                    stype, dtype, slen = r.u8(), r.u8(), r.u32()
                    raw = r.take(slen)
                    if stype == 1:
                        step = 8 if geo64 else 4
                        values = struct.unpack("<%d%s" % (slen // step, "d" if geo64 else "f"), raw)
                        sub_positions = [values[i:i + 3] for i in range(0, len(values) - 2, 3)]
                    elif stype == 2:
                        sub_indices = struct.unpack("<%dH" % (slen // 2), raw)
                r.user_attrs()
                verts += len(sub_positions)
                tris += len(sub_indices) // 3
                positions += sub_positions
                used.update(base + i for i in sub_indices[:len(sub_indices) - len(sub_indices) % 3])
            geometry[bid] = len(facts["meshes"])
            facts["meshes"].append({"name": name, "vertices": verts, "triangles": tris,
                                    "positions": positions, "used": used, "primitive": None})
        elif btype == 11:
            name = r.varstr()
            ptype = r.u8()
            props = r.attrs()
            values = {}
            for key, raw in props.items():
                if 101 <= key <= 200:
                    values[key] = flt(raw)
                elif 301 <= key <= 400:
                    values[key] = struct.unpack("<H", raw)[0]
                elif 701 <= key <= 800:
                    values[key] = 1.0 if raw[0] else 0.0
            geometry[bid] = len(facts["meshes"])
            facts["meshes"].append({"name": name, "vertices": None, "triangles": None, "positions": [],
                                    "used": set(), "primitive": (ptype, values)})
        elif btype in (21, 22, 23, 41, 42):
            parent = r.u32()
            m = [0.0] * 16
            for c in range(4):
                for row in range(3):
                    m[c * 4 + row] = r.num(matrix64)
            m[15] = 1.0
            name = r.varstr()
            pivot = (0.0, 0.0, 0.0)
            visible = True
            geo = None
            if btype == 23:
                geo = r.u32()
                count = r.u16()
                r.take(4 * count)
                facts["mesh_instances"] += 1
            if btype == 41:
                light_type = r.u8()
                facts["lights"].append("Directional" if light_type == 2 else "Point")
            if btype == 42:
                facts["cameras"] += 1
            if btype in (22, 23) and v21:
                props = r.attrs()
                pivot = tuple(flt(props[k]) if k in props else 0.0 for k in (1, 2, 3))
                visible = props.get(4, b"\x01")[0] != 0
            if any(pivot):
                m = mat_mul(mat_mul(translation(*pivot), m), translation(*(-v for v in pivot)))
            world = mat_mul(node_world[parent], m) if parent in node_world else m
            node_world[bid] = world
            node_visible[bid] = visible and node_visible.get(parent, True)
            if btype == 23 and geo in geometry and node_visible[bid]:
                mesh = facts["meshes"][geometry[geo]]
                if mesh["primitive"]:
                    facts["primitives"].append((geometry[geo], world))
                for i in sorted(mesh["used"]):
                    p = transform(world, mesh["positions"][i])
                    box[0] = p if box[0] is None else tuple(min(a, b) for a, b in zip(box[0], p))
                    box[1] = p if box[1] is None else tuple(max(a, b) for a, b in zip(box[1], p))
        elif btype == 81:
            facts["materials"] += 1
        elif btype == 82:
            facts["textures"] += 1
        elif btype == 83:
            facts["textures"] += 6
    facts["box"] = box
    # Many instances of one sphere placed without rotation (primitives_spheres.awd): their box is
    # worked out here in closed form instead of listing every instance. A sphere tessellated with
    # segmentsW a multiple of 4 and an even segmentsH has vertices at +-radius on each axis.
    facts["analytic"] = None
    if len(facts["primitives"]) > 32:
        lo, hi = None, None
        for mesh, world in facts["primitives"]:
            ptype, values = facts["meshes"][mesh]["primitive"]
            r, sw, sh = values.get(101, 50.0), values.get(301, 16), values.get(302, 12)
            assert ptype == 3 and sw % 4 == 0 and sh % 2 == 0, "only unrotated spheres are summarised"
            scale = world[0]
            assert all(abs(world[i] - (scale if i in (0, 5, 10) else 0.0)) < 1e-9 for i in range(12))
            centre = world[12:15]
            a = tuple(c - abs(scale) * r for c in centre)
            b = tuple(c + abs(scale) * r for c in centre)
            lo = a if lo is None else tuple(map(min, lo, a))
            hi = b if hi is None else tuple(map(max, hi, b))
        facts["analytic"] = (lo, hi)
        facts["primitives"] = []
    return facts


ANIM_TIMES = (0.0, 0.3, 0.75)


def quat_from(m):
    """Unit quaternion (x, y, z, w) of the rotation part of a column-major 4x4 with unit columns."""
    m00, m11, m22 = m[0], m[5], m[10]
    tr = m00 + m11 + m22
    if tr > 0:
        s = (tr + 1.0) ** 0.5 * 2
        return ((m[6] - m[9]) / s, (m[8] - m[2]) / s, (m[1] - m[4]) / s, 0.25 * s)
    if m00 > m11 and m00 > m22:
        s = (1.0 + m00 - m11 - m22) ** 0.5 * 2
        return (0.25 * s, (m[4] + m[1]) / s, (m[8] + m[2]) / s, (m[6] - m[9]) / s)
    if m11 > m22:
        s = (1.0 + m11 - m00 - m22) ** 0.5 * 2
        return ((m[4] + m[1]) / s, 0.25 * s, (m[9] + m[6]) / s, (m[8] - m[2]) / s)
    s = (1.0 + m22 - m00 - m11) ** 0.5 * 2
    return ((m[8] + m[2]) / s, (m[9] + m[6]) / s, 0.25 * s, (m[1] - m[4]) / s)


def trs_of(m):
    cols = [m[0:3], m[4:7], m[8:11]]
    sc = [sum(v * v for v in c) ** 0.5 for c in cols]
    n = [0.0] * 16
    for c in range(3):
        for r in range(3):
            n[c * 4 + r] = cols[c][r] / sc[c]
    return tuple(m[12:15]), quat_from(n), sc


def slerp(a, b, t):
    d = sum(x * y for x, y in zip(a, b))
    if d < 0:
        b, d = tuple(-x for x in b), -d
    if d > 0.9995:
        q = tuple(x + (y - x) * t for x, y in zip(a, b))
    else:
        import math
        th = math.acos(min(1.0, d))
        sa, sb = math.sin((1 - t) * th) / math.sin(th), math.sin(t * th) / math.sin(th)
        q = tuple(sa * x + sb * y for x, y in zip(a, b))
    n = sum(x * x for x in q) ** 0.5
    return tuple(x / n for x in q)


def trs_matrix(t, q, s):
    x, y, z, w = q
    r = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
         2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
         2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]
    m = [0.0] * 16
    for c in range(3):
        for k in range(3):
            m[c * 4 + k] = r[c * 3 + k] * s[c]
    m[12:15] = t
    m[15] = 1.0
    return m


def invert_affine(m):
    """Inverse of an affine column-major 4x4."""
    a = [[m[c * 4 + r] for c in range(3)] for r in range(3)]
    det = (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    inv = [[0.0] * 3 for _ in range(3)]
    for r in range(3):
        for c in range(3):
            rr = [i for i in range(3) if i != c]
            cc = [i for i in range(3) if i != r]
            minor = a[rr[0]][cc[0]] * a[rr[1]][cc[1]] - a[rr[0]][cc[1]] * a[rr[1]][cc[0]]
            inv[r][c] = (-1) ** (r + c) * minor / det
    out = [0.0] * 16
    for r in range(3):
        for c in range(3):
            out[c * 4 + r] = inv[r][c]
    for r in range(3):
        out[12 + r] = -sum(inv[r][k] * m[12 + k] for k in range(3))
    out[15] = 1.0
    return out


def decode_animation(path):
    """Clips (name, seconds) in block order, and for files whose skinned meshes a lone skeleton
    drives (no Animator block), the box at ANIM_TIMES of each clip: joints posed by linear
    translation / scale and slerped rotation between frames at their cumulative durations, each
    vertex skinned as sum w * world(instance) * global(joint) * inverseBind(joint) * v."""
    data = open(path, "rb").read()
    major, minor, flags, compression, _ = struct.unpack_from("<BBHBI", data, 3)
    body = data[12:]
    if compression == 1:
        body = zlib.decompress(body)
    elif compression == 2:
        size = struct.unpack_from("<I", body, 0)[0]
        body = lzma.LZMADecompressor(format=lzma.FORMAT_ALONE).decompress(body[4:9] + struct.pack("<Q", size) + body[9:])
    v21 = (major, minor) == (2, 1)
    m64, g64 = v21 and bool(flags & 2), v21 and bool(flags & 4)
    clips, skeletons, poses, geoms, instances, animators = [], [], {}, {}, [], 0
    world = {}
    pos = 0
    while pos < len(body):
        bid, ns, bt, _, length = struct.unpack_from("<IBBBI", body, pos)
        r = Reader(body, pos + 11, pos + 11 + length)
        pos += 11 + length
        if ns:
            continue
        if bt == 1:
            name, subs = r.varstr(), r.u16()
            r.attrs()
            g = {"pos": [], "idx": [], "jw": [], "ji": [], "tri": []}
            for _ in range(subs):
                sub_len = r.u32()
                end = r.p + sub_len
                start = r.p
                r.attrs()
                while r.p < end:
                    stype, _, slen = r.u8(), r.u8(), r.u32()
                    raw = r.take(slen)
                    step = 8 if g64 else 4
                    if stype == 1:
                        v = struct.unpack("<%d%s" % (slen // step, "d" if g64 else "f"), raw)
                        g["pos"] = [v[i:i + 3] for i in range(0, len(v) - 2, 3)]
                    elif stype == 2:
                        g["tri"] = struct.unpack("<%dH" % (slen // 2), raw)
                    elif stype == 6:
                        g["ji"] = struct.unpack("<%dH" % (slen // 2), raw)
                    elif stype == 7:
                        g["jw"] = struct.unpack("<%d%s" % (slen // step, "d" if g64 else "f"), raw)
                r.p = end if end <= r.end else r.p
                r.user_attrs()
                if subs != 1:
                    g = None
                    break
            geoms[bid] = g
        elif bt in (21, 22, 23, 41, 42):
            parent = r.u32()
            m = [0.0] * 16
            for c in range(4):
                for row in range(3):
                    m[c * 4 + row] = r.num(m64)
            m[15] = 1.0
            r.varstr()
            world[bid] = mat_mul(world[parent], m) if parent in world else m
            if bt == 23:
                instances.append((world[bid], r.u32()))
        elif bt == 101:
            r.varstr()
            joints = []
            for _ in range(r.u16() if False else 0):
                pass
            count = r.u16()
            r.attrs()
            for _ in range(count):
                r.u16()
                parent = r.u16() - 1
                r.varstr()
                ibp = [0.0] * 16
                for c in range(4):
                    for row in range(3):
                        ibp[c * 4 + row] = r.num(m64)
                ibp[15] = 1.0
                r.attrs()
                r.user_attrs()
                joints.append((parent, ibp))
            skeletons.append(joints)
        elif bt == 102:
            r.varstr()
            count = r.u16()
            r.attrs()
            mats = []
            for _ in range(count):
                if r.u8() == 1:
                    m = [0.0] * 16
                    for c in range(4):
                        for row in range(3):
                            m[c * 4 + row] = r.num(m64)
                    m[15] = 1.0
                    mats.append(m)
                else:
                    mats.append(None)
            poses[bid] = mats
        elif bt == 103:
            name, count = r.varstr(), r.u16()
            r.attrs()
            frames = [(r.u32(), r.u16()) for _ in range(count)]
            clips.append({"name": name, "ms": sum(d for _, d in frames), "frames": frames})
        elif bt in (111, 112):
            name = r.varstr()
            r.u32()
            count = r.u16() if bt == 112 else 1
            subs, nstreams = r.u16(), r.u16()
            r.take(2 * nstreams)
            r.attrs()
            ms = 0
            for _ in range(count):
                ms += r.u16()
                for _ in range(subs):
                    r.take(r.u32())
            clips.append({"name": name, "ms": ms, "frames": None})
        elif bt == 122:
            animators += 1
    facts = {"clips": [(c["name"], c["ms"] / 1000.0) for c in clips], "boxes": []}
    if len(skeletons) != 1 or animators:
        return facts
    joints = skeletons[0]
    for clip in clips:
        for t in ANIM_TIMES:
            # The frame pair around t (keys at cumulative durations, the last frame held).
            starts, acc = [], 0
            for _, d in clip["frames"]:
                starts.append(acc)
                acc += d
            ms = t * 1000.0
            i = max(k for k in range(len(starts)) if starts[k] <= ms + 1e-6)
            a = clip["frames"][i][0]
            if i + 1 < len(starts):
                b, u = clip["frames"][i + 1][0], (ms - starts[i]) / (starts[i + 1] - starts[i])
            else:
                b, u = a, 0.0
            glob = []
            for j, (parent, ibp) in enumerate(joints):
                ta, qa, sa = trs_of(poses[a][j])
                tb, qb, sb = trs_of(poses[b][j])
                local = trs_matrix([x + (y - x) * u for x, y in zip(ta, tb)], slerp(qa, qb, u),
                                   [x + (y - x) * u for x, y in zip(sa, sb)])
                glob.append(mat_mul(glob[parent], local) if parent >= 0 else local)
            palette = [mat_mul(g, ibp) for g, (_, ibp) in zip(glob, joints)]
            lo, hi = None, None
            for inst_world, geo in instances:
                g = geoms.get(geo)
                if not g:
                    continue
                n = len(g["ji"]) // max(1, len(g["pos"]))
                for v in sorted(set(g["tri"][:len(g["tri"]) - len(g["tri"]) % 3])):
                    p = g["pos"][v]
                    if n:
                        acc3 = [0.0, 0.0, 0.0]
                        for k in range(n):
                            w = g["jw"][v * n + k]
                            if w:
                                q = transform(palette[g["ji"][v * n + k]], p)
                                acc3 = [x + w * y for x, y in zip(acc3, q)]
                        p = acc3
                    p = transform(inst_world, p)
                    lo = p if lo is None else tuple(map(min, lo, p))
                    hi = p if hi is None else tuple(map(max, hi, p))
            facts["boxes"].append((clip["name"], t, lo, hi))
    return facts


def cpp_anim(folder, files):
    lines = []
    for f in files:
        a = decode_animation(os.path.join(folder, f))
        if not a["clips"]:
            continue
        clips = ", ".join('{"%s", %s}' % (n, cpp_float(d)) for n, d in a["clips"])
        boxes = ",\n      ".join('{"%s", %s, {%s}, {%s}}' % (n, cpp_float(t), ", ".join(cpp_float(v) for v in lo),
                                                            ", ".join(cpp_float(v) for v in hi))
                                 for n, t, lo, hi in a["boxes"])
        lines.append('    {"%s",\n     {%s},\n     {%s}},' % (f, clips, boxes))
    return "\n".join(lines)


def cpp_float(v):
    s = repr(float(v))
    if "e" not in s and "." not in s:
        s += ".0"
    return s + "f"


def cpp(facts_list):
    lines = []
    for f in facts_list:
        meshes = []
        for m in f["meshes"]:
            if m["primitive"]:
                ptype, values = m["primitive"]
                props = ", ".join("{%d, %s}" % (k, repr(float(v))) for k, v in sorted(values.items()))
                meshes.append('         {"%s", 0, 0, %d, {%s}},' % (m["name"], ptype, props))
            else:
                meshes.append('         {"%s", %d, %d, 0, {}},' % (m["name"], m["vertices"], m["triangles"]))
        prims = []
        for mesh, world in f["primitives"]:
            prims.append("         {%d, {%s}}," % (mesh, ", ".join(cpp_float(v) for v in world)))
        box = f["box"]
        if f["analytic"]:
            lo = box[0] or f["analytic"][0]
            hi = box[1] or f["analytic"][1]
            box = [tuple(map(min, lo, f["analytic"][0])), tuple(map(max, hi, f["analytic"][1]))]
        lines.append('    {"%s", %d, %d, %d, %d, %d, %d, %d,' % (
            f["file"], f["bytes"], f["nodes"], f["mesh_instances"], f["materials"], f["textures"], f["cameras"],
            sum(m["triangles"] or 0 for m in f["meshes"])))
        lines.append("     {%s}," % ", ".join("LightType::" + t for t in f["lights"]))
        lines.append("     {")
        lines += meshes
        lines.append("     },")
        lines.append("     {")
        lines += prims
        lines.append("     },")
        if box[0] is None:
            lines.append("     false, {}, {}},")
        else:
            lines.append("     true, {%s}, {%s}}," % (", ".join(cpp_float(v) for v in box[0]),
                                                     ", ".join(cpp_float(v) for v in box[1])))
    return "\n".join(lines)


def main():
    args = sys.argv[1:]
    as_cpp = bool(args) and args[0] == "--cpp"
    as_anim = bool(args) and args[0] == "--cpp-anim"
    if as_cpp or as_anim:
        args = args[1:]
    folder = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "models", "awd")
    files = sorted(f for f in os.listdir(folder) if f.lower().endswith(".awd"))
    if as_anim:
        print(cpp_anim(folder, files))
        return
    facts = [decode(os.path.join(folder, f)) for f in files]
    if as_cpp:
        print(cpp(facts))
        return
    for f in facts:
        print("%s: AWD %s, compression %d, %d nodes, %d mesh instances, %d meshes, %d materials, %d textures, "
              "lights %s, %d cameras" % (f["file"], f["version"], f["compression"], f["nodes"], f["mesh_instances"],
                                         len(f["meshes"]), f["materials"], f["textures"], f["lights"], f["cameras"]))
        for m in f["meshes"]:
            if m["primitive"]:
                print("    primitive %s: type %d %s" % (m["name"], m["primitive"][0], m["primitive"][1]))
            else:
                print("    mesh %s: %d vertices, %d triangles" % (m["name"], m["vertices"], m["triangles"]))
        print("    %d primitive instances; box of the triangle geometry at rest: %s" % (len(f["primitives"]), f["box"]))
        if f["analytic"]:
            print("    box of the sphere instances, in closed form: %s" % (f["analytic"],))


if __name__ == "__main__":
    main()
