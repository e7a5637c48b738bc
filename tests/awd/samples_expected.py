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
    if as_cpp:
        args = args[1:]
    folder = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "models", "awd")
    files = sorted(f for f in os.listdir(folder) if f.lower().endswith(".awd"))
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
