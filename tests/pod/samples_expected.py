#!/usr/bin/env python3
"""Facts about the sample POD files in ../shared/models/pod/<exporter>/, derived independently of
the esview reader: a small POD decoder written from the POD format spec (pod-format-spec.txt) and,
where the spec is vague or wrong, pod-reader-notes.md. It walks the tagged blocks strictly (every
start tag has a length; a block of length 0 holds child blocks up to its end tag, id | 0x80000000;
a block with data is followed by its own end tag), then reads the scene (Num* counts checked
against the blocks found, flags, FPS), nodes, meshes (attribute lists as POD data blocks: 9000
type, 9001 components, 9002 stride, 9003 data or, when 6014 holds interleaved data, the offset into
it; faces; bone batches), materials, textures, lights and cameras. pod_samples_test.cpp hard-codes
what this prints; the test does not run it (tests/check_fact_tables.py compares the two). Pure
Python, no dependencies:

    python3 samples_expected.py [MODELS_DIR]    the facts, file by file (default folder:
                                                ../../../shared/models/pod)
    python3 samples_expected.py --cpp DIR       the kFacts table of pod_samples_test.cpp
    python3 samples_expected.py --cpp-bounds DIR  its kBounds table

Table fields follow the test: nodes, meshes and cameras/materials/textures are the blocks found;
mesh nodes is 2006; frames 2009 (0 when absent); FPS 2017 (30 when absent, notes section 2); the
fixed-point flag is bit 0 of 2016; light types are 7002 per light block (0 point, 1 directional,
2 spot). Per mesh: 6000 vertices, 6001 triangles, indexed when 6003 holds data, interleaved when
6014 holds data, 6019 batches, 6018 bones per batch, and every attribute list (6006..6013) whose
9001 is not 0, with its set (the n-th 6010 block is UV set n; 0 for the others), 9000 and 9001.

The boxes (kBounds) cover the vertices the triangles use, for every mesh node, at an integer
frame. Node animation as the file stores it (spec 2.5, notes section 4): 5007 positions (3 per
frame), 5008 rotations (4), 5009 scales (7, the first three used), 5011 matrices (16, GL column
order; the spec gives 5010 for these, but in the SDK's enum, as the notes say, 5010 is the
deprecated static matrix; no sample has either). A channel is animated when its 5012 flag bit is
set, otherwise only its first entry counts; with no 5012 block but old static blocks (5004
position, 5005 rotation, 5006 scale, 5010 matrix) a channel is animated when its animation array
exists. Index arrays 5013..5016 (none in the samples) give the float offset of each frame's entry.
The stored quaternion is the conjugate of the node's rotation, normalised here (the 16.16 ones are
slightly off unit length; used as stored, they move oolong_model_fixed's box by 0.004). Local =
T * R * S, or the matrix when there is one; world = parent world * local. In fixed-point files
(2016 bit 0) every node number is int32 / 65536. Vertex data carries its own type (9000; 9 is
16.16 fixed), and the unpack matrix 6020, when present, is applied to positions first. A mesh
without bone batches is placed by its node's world matrix at the frame. A skinned mesh is drawn
batch by batch: batch b's triangles run from its 6017 entry to the next (first triangles, as the
notes say; the spec's "offset into the vertex index list" would put 484 of cocos3d_man's body
vertices in a batch too small for their bone indices), its vertices' 6012 indices pick bones
from its slice of 6015 (node indices), and a vertex goes to
sum_k w_k * World(bone_k, frame) * inverse(World(bone_k, 0)) * World(mesh node, 0) * p:
POD stores no bind matrices, the bind pose is frame 0 (notes section 5).
"""
import math
import os
import struct
import sys

END = 0x80000000

# The kBounds cases: (file, frame).
BOUNDS_CASES = [
    ("cocos3d/cocos3d_man.pod", 0),
    ("cocos3d/cocos3d_man.pod", 5),
    ("cocos3d/cocos3d_man.pod", 10),
    ("cocos3d/cocos3d_mallet.pod", 0),
    ("cocos3d/cocos3d_mallet.pod", 33),
    ("oolong/oolong_model_fixed.pod", 66),
    ("oolong/oolong_model_float_noninterleaved.pod", 64),
]

# POD data types (spec 2.9.1): struct code, bytes, divisor for the normalised ones.
DATA_TYPES = {
    1: ("f", 4, None),  # float
    2: ("I", 4, None),  # unsigned 32-bit integer
    3: ("H", 2, None),  # unsigned short
    9: ("i", 4, 65536.0),  # 16.16 fixed
    10: ("B", 1, None),  # unsigned byte
    11: ("h", 2, None),  # short
    12: ("h", 2, 32767.0),  # normalised short
    13: ("b", 1, None),  # byte
    14: ("b", 1, 127.0),  # normalised byte
    15: ("B", 1, 255.0),  # unsigned normalised byte
    16: ("H", 2, 65535.0),  # unsigned normalised short
    17: ("I", 4, None),  # unsigned int
}
# Packed 4-byte types: one word per vertex in the file (n = 1).
PACKED_TYPES = {4, 5, 6, 7, 8}


class PodError(Exception):
    pass


class Block:
    __slots__ = ("id", "offset", "data", "children")

    def __init__(self, ident, offset, data):
        self.id = ident
        self.offset = offset
        self.data = data
        self.children = []


def read_blocks(d, pos, closing):
    """The blocks from pos up to the end tag of `closing` (None: the end of the file)."""
    out = []
    while pos < len(d):
        if pos + 8 > len(d):
            raise PodError("truncated tag at %#x" % pos)
        ident, length = struct.unpack_from("<II", d, pos)
        if ident & END:
            if closing is None or ident != (closing | END):
                raise PodError("end tag %d at %#x, expected %s" % (ident & ~END, pos, closing))
            if length:
                raise PodError("end tag with length %d at %#x" % (length, pos))
            return out, pos + 8
        block = Block(ident, pos, b"")
        pos += 8
        if pos + length > len(d):
            raise PodError("block %d at %#x runs past the end" % (ident, block.offset))
        block.data = d[pos:pos + length]
        pos += length
        if length == 0:
            # A container (or an empty leaf): children up to its end tag.
            block.children, pos = read_blocks(d, pos, ident)
        else:
            if pos + 8 > len(d) or struct.unpack_from("<II", d, pos) != (ident | END, 0):
                raise PodError("block %d at %#x is not followed by its end tag" % (ident, block.offset))
            pos += 8
        out.append(block)
    if closing is not None:
        raise PodError("no end tag for block %d" % closing)
    return out, pos


def first(blocks, ident):
    for b in blocks:
        if b.id == ident:
            return b
    return None


def every(blocks, ident):
    return [b for b in blocks if b.id == ident]


def u32(blocks, ident, default):
    b = first(blocks, ident)
    if b is None or len(b.data) < 4:
        return default
    return struct.unpack_from("<I", b.data)[0]


def i32(blocks, ident, default):
    b = first(blocks, ident)
    if b is None or len(b.data) < 4:
        return default
    return struct.unpack_from("<i", b.data)[0]


def u32s(blocks, ident):
    b = first(blocks, ident)
    if b is None:
        return []
    return list(struct.unpack_from("<%dI" % (len(b.data) // 4), b.data))


def reals(blocks, ident, fixed):
    """A Float/Fixed array (spec 3.4): float32, or int32 / 65536 in fixed-point files."""
    b = first(blocks, ident)
    if b is None:
        return None
    n = len(b.data) // 4
    if fixed:
        return [v / 65536.0 for v in struct.unpack_from("<%di" % n, b.data)]
    return list(struct.unpack_from("<%df" % n, b.data))


def text(blocks, ident):
    b = first(blocks, ident)
    if b is None:
        return None
    return b.data.split(b"\0")[0].decode("latin1")


# ---------------------------------------------------------------------------------------------
# 4x4 matrices in column-vector maths, stored as 16 floats row by row: m[r * 4 + c].

IDENTITY = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]


def mul(a, b):
    return [sum(a[r * 4 + k] * b[k * 4 + c] for k in range(4)) for r in range(4) for c in range(4)]


def apply(m, p):
    return tuple(m[r * 4] * p[0] + m[r * 4 + 1] * p[1] + m[r * 4 + 2] * p[2] + m[r * 4 + 3] for r in range(3))


def from_gl(v):
    """16 numbers in GL column order (translation in 12..14)."""
    return [v[c * 4 + r] for r in range(4) for c in range(4)]


def inverse(m):
    """Gauss-Jordan with partial pivoting."""
    a = [list(m[r * 4:r * 4 + 4]) + [1.0 if r == c else 0.0 for c in range(4)] for r in range(4)]
    for col in range(4):
        pivot = max(range(col, 4), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise PodError("singular matrix")
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [x / p for x in a[col]]
        for r in range(4):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[r][4 + c] for r in range(4) for c in range(4)]


def trs(t, q, s):
    """T * R * S; q = (x, y, z, w) is the node's rotation (already conjugated)."""
    x, y, z, w = q
    n = math.sqrt(x * x + y * y + z * z + w * w) or 1.0
    x, y, z, w = x / n, y / n, z / n, w / n
    r = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]
    m = [0.0] * 16
    for row in range(3):
        for c in range(3):
            m[row * 4 + c] = r[row][c] * s[c]
        m[row * 4 + 3] = t[row]
    m[15] = 1.0
    return m


def slerp(a, b, f):
    dot = sum(x * y for x, y in zip(a, b))
    if dot < 0:
        b, dot = [-x for x in b], -dot
    if dot > 0.9999:
        return [x + (y - x) * f for x, y in zip(a, b)]
    theta = math.acos(min(1.0, dot))
    sa, sb = math.sin((1 - f) * theta) / math.sin(theta), math.sin(f * theta) / math.sin(theta)
    return [sa * x + sb * y for x, y in zip(a, b)]


# ---------------------------------------------------------------------------------------------
# Nodes and their animation.

CHANNELS = {
    # name: (flag bit, animation array, index array, old static block, components, default)
    "position": (0x01, 5007, 5013, 5004, 3, [0.0, 0.0, 0.0]),
    "rotation": (0x02, 5008, 5014, 5005, 4, [0.0, 0.0, 0.0, 1.0]),
    "scale": (0x04, 5009, 5015, 5006, 7, [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]),
    "matrix": (0x08, 5011, 5016, 5010, 16, None),
}


def read_node(blocks, fixed):
    node = {
        "index": i32(blocks, 5000, -1),
        "name": text(blocks, 5001) or "",
        "material": i32(blocks, 5002, -1),
        "parent": i32(blocks, 5003, -1),
        "flags_block": first(blocks, 5012) is not None,
        "flags": u32(blocks, 5012, 0),
        "old_format": any(first(blocks, b) is not None for b in (5004, 5005, 5006, 5010)),
        "channels": {},
    }
    implicit = 0
    for name, (bit, anim, index, old, comps, default) in CHANNELS.items():
        data = reals(blocks, anim, fixed)
        node["channels"][name] = {
            "data": data,
            "index": u32s(blocks, index) if first(blocks, index) is not None else None,
            "static": reals(blocks, old, fixed),
        }
        if data is not None:
            implicit |= bit
    if not node["flags_block"] and node["old_format"]:
        node["flags"] = implicit
    return node


def channel_value(node, name, frame, frames):
    bit, _, _, _, comps, default = CHANNELS[name]
    ch = node["channels"][name]
    data = ch["data"]
    if data is not None and node["flags"] & bit:
        keys = len(ch["index"]) if ch["index"] is not None else len(data) // comps
        last = max(0, min(frames, keys) - 1) if frames else max(0, keys - 1)

        def entry(k):
            k = max(0, min(k, last))
            off = ch["index"][k] if ch["index"] is not None else k * comps
            return data[off:off + comps]

        f0 = math.floor(frame)
        blend = frame - f0
        a = entry(f0)
        if blend == 0 or f0 >= last or name == "matrix":
            return a
        b = entry(f0 + 1)
        if name == "rotation":
            return slerp(a, b, blend)
        return [x + (y - x) * blend for x, y in zip(a, b)]
    if data is not None and len(data) >= comps:
        return data[:comps]
    if ch["static"] is not None and len(ch["static"]) >= min(comps, 3):
        return ch["static"]
    return default


def local_matrix(node, frame, frames):
    m = channel_value(node, "matrix", frame, frames)
    if m is not None:
        return from_gl(m)
    t = channel_value(node, "position", frame, frames)
    q = channel_value(node, "rotation", frame, frames)
    s = channel_value(node, "scale", frame, frames)
    return trs(t[:3], (q[0], q[1], q[2], -q[3]), s[:3])


def world_matrices(nodes, frame, frames):
    out = [None] * len(nodes)

    def world(i, depth=0):
        if out[i] is None:
            if depth > len(nodes):
                raise PodError("parent cycle at node %d" % i)
            local = local_matrix(nodes[i], frame, frames)
            p = nodes[i]["parent"]
            out[i] = mul(world(p, depth + 1), local) if 0 <= p < len(nodes) else local
        return out[i]

    for i in range(len(nodes)):
        world(i)
    return out


# ---------------------------------------------------------------------------------------------
# Meshes.

ATTRIBUTE_LISTS = range(6006, 6014)


def read_attribute(block, vertices, interleaved):
    kids = block.children
    kind = u32(kids, 9000, 0)
    n = u32(kids, 9001, 0)
    stride = u32(kids, 9002, 0)
    data = first(kids, 9003)
    attr = {"list": block.id, "type": kind, "n": n, "stride": stride, "values": None}
    if n == 0:
        return attr
    if kind in PACKED_TYPES:
        code, size, norm = "B", 1, None
        comps = 4 * n
    else:
        if kind not in DATA_TYPES:
            raise PodError("list %d: unknown data type %d" % (block.id, kind))
        code, size, norm = DATA_TYPES[kind]
        comps = n
    if interleaved is not None:
        # Spec 2.9.4 / 3.3: 9003 holds the offset of the first vertex's element.
        buf, offset = interleaved, int.from_bytes(data.data, "little") if data is not None else 0
    else:
        buf, offset = (data.data if data is not None else b""), 0
    if not stride:
        stride = comps * size
    attr["offset"] = offset
    fmt = "<%d%s" % (comps, code)
    values = []
    for v in range(vertices):
        at = offset + v * stride
        if at + comps * size > len(buf):
            raise PodError("list %d runs past its data at vertex %d" % (block.id, v))
        vals = struct.unpack_from(fmt, buf, at)
        values.append(tuple(x / norm for x in vals) if norm else vals)
    attr["values"] = values
    return attr


def read_mesh(blocks, fixed):
    vertices = u32(blocks, 6000, 0)
    faces = u32(blocks, 6001, 0)
    inter = first(blocks, 6014)
    interleaved = inter.data if inter is not None and inter.data else None
    mesh = {
        "vertices": vertices,
        "faces": faces,
        "uvw": u32(blocks, 6002, 0),
        "interleaved": interleaved is not None,
        "strips": u32(blocks, 6005, 0),
        "strip_lengths": u32s(blocks, 6004),
        "batch_bones": u32s(blocks, 6015),
        "batch_counts": u32s(blocks, 6016),
        "batch_offsets": u32s(blocks, 6017),
        "max_bones": u32(blocks, 6018, 0),
        "batches": u32(blocks, 6019, 0),
        "unpack": reals(blocks, 6020, fixed),
        "type": u32(blocks, 6021, 0),
        "attributes": [],
        "indices": None,
    }
    faces_block = first(blocks, 6003)
    if faces_block is not None:
        kind = u32(faces_block.children, 9000, 0)
        data = first(faces_block.children, 9003)
        if data is not None and data.data:
            code = {3: "H", 17: "I"}.get(kind)
            if code is None:
                raise PodError("index type %d" % kind)
            size = struct.calcsize(code)
            mesh["indices"] = list(struct.unpack_from("<%d%s" % (len(data.data) // size, code), data.data))
    uv_set = 0
    for b in blocks:
        if b.id not in ATTRIBUTE_LISTS:
            continue
        attr = read_attribute(b, vertices, interleaved)
        attr["set"] = 0
        if b.id == 6010:
            attr["set"] = uv_set
            uv_set += 1
        mesh["attributes"].append(attr)
    if len(every(blocks, 6010)) != mesh["uvw"]:
        raise PodError("%d UVW lists for 6002 = %d" % (len(every(blocks, 6010)), mesh["uvw"]))
    return mesh


def attribute(mesh, list_id, set_=0):
    for a in mesh["attributes"]:
        if a["list"] == list_id and a["set"] == set_ and a["n"]:
            return a
    return None


def triangle_vertices(mesh, first_tri, end_tri):
    """The vertices of triangles [first_tri, end_tri) of a triangle list."""
    if mesh["strips"]:
        raise PodError("strips are not handled (no sample has them)")
    out = []
    for t in range(first_tri, end_tri):
        for k in range(3):
            out.append(mesh["indices"][3 * t + k] if mesh["indices"] is not None else 3 * t + k)
    return out


# ---------------------------------------------------------------------------------------------
# The file.

def decode(path):
    d = open(path, "rb").read()
    if len(d) >= 4 and struct.unpack_from("<I", d)[0] == 0xE8030000:
        raise PodError("big-endian POD")
    top, _ = read_blocks(d, 0, None)
    version = first(top, 1000)
    if version is None or version.data != b"AB.POD.2.0\0":
        raise PodError("version block %r" % (version.data if version else None))
    scene_block = first(top, 1001)
    if scene_block is None:
        raise PodError("no scene block")
    s = scene_block.children
    flags = u32(s, 2016, 0)
    fixed = bool(flags & 1)
    scene = {
        "bytes": len(d),
        "flags": flags,
        "fixed": fixed,
        "fps": u32(s, 2017, 30),
        "frames": u32(s, 2009, 0),
        "units": (reals(s, 2019, False) or [1.0])[0],
        "mesh_nodes": u32(s, 2006, 0),
        "clear": reals(s, 2000, fixed),
        "ambient": reals(s, 2001, fixed),
        "options": text(top, 1002) or "",
    }
    # Counts must agree with the blocks (spec 2.2; every reader refuses a mismatch).
    for count_id, block_id in ((2002, 2010), (2003, 2011), (2004, 2012), (2005, 2013), (2007, 2014), (2008, 2015)):
        if u32(s, count_id, 0) != len(every(s, block_id)):
            raise PodError("%d says %d, %d blocks %d" % (count_id, u32(s, count_id, 0), len(every(s, block_id)),
                                                       block_id))
    scene["nodes"] = [read_node(b.children, fixed) for b in every(s, 2013)]
    scene["meshes"] = [read_mesh(b.children, fixed) for b in every(s, 2012)]
    scene["textures"] = [text(b.children, 4000) for b in every(s, 2014)]
    scene["materials"] = []
    for b in every(s, 2015):
        m = b.children
        scene["materials"].append({
            "name": text(m, 3000), "diffuse_texture": i32(m, 3001, -1), "bump_texture": i32(m, 3012, -1),
            "opacity": reals(m, 3002, fixed), "diffuse": reals(m, 3004, fixed), "specular": reals(m, 3005, fixed),
            "shininess": reals(m, 3006, fixed), "effect": (text(m, 3007), text(m, 3008)), "flags": u32(m, 3026, 0)})
    scene["lights"] = []
    for b in every(s, 2011):
        m = b.children
        scene["lights"].append({
            "type": u32(m, 7002, 0), "target": i32(m, 7000, -1), "colour": reals(m, 7001, fixed),
            "falloff": reals(m, 7006, fixed)})
    scene["cameras"] = []
    for b in every(s, 2010):
        m = b.children
        scene["cameras"].append({
            "target": i32(m, 8000, -1), "fov": (reals(m, 8001, fixed) or [None])[0],
            "far": (reals(m, 8002, fixed) or [None])[0], "near": (reals(m, 8003, fixed) or [None])[0],
            "fov_frames": len(reals(m, 8004, fixed) or [])})
    # Node order (spec 3.6): mesh nodes, light nodes, camera nodes, the rest.
    groups = ((scene["mesh_nodes"], len(scene["meshes"])), (len(scene["lights"]), len(scene["lights"])),
              (len(scene["cameras"]), len(scene["cameras"])))
    start = 0
    for count, objects in groups:
        for node in scene["nodes"][start:start + count]:
            if not 0 <= node["index"] < objects:
                raise PodError("node %r: object index %d of %d" % (node["name"], node["index"], objects))
        start += count
    return scene


def mesh_fact(mesh):
    attrs = sorted((a["list"], a["set"], a["type"], a["n"]) for a in mesh["attributes"] if a["n"])
    return {
        "vertices": mesh["vertices"],
        "triangles": mesh["faces"],
        "indexed": int(mesh["indices"] is not None),
        "interleaved": int(mesh["interleaved"]),
        "batches": mesh["batches"],
        "max_bones": mesh["max_bones"],
        "attributes": attrs,
    }


def bounds(scene, frame):
    frames = scene["frames"]
    nodes = scene["nodes"]
    now = world_matrices(nodes, frame, frames)
    rest = world_matrices(nodes, 0, frames)
    bind_inverse = {}
    lo = [math.inf] * 3
    hi = [-math.inf] * 3
    for i in range(scene["mesh_nodes"]):
        mesh = scene["meshes"][nodes[i]["index"]]
        pos = attribute(mesh, 6006)
        if pos is None:
            continue
        points = [p[:3] for p in pos["values"]]
        if mesh["unpack"] is not None:
            unpack = from_gl(mesh["unpack"])
            points = [apply(unpack, p) for p in points]
        out = {}
        if not mesh["batches"]:
            for v in triangle_vertices(mesh, 0, mesh["faces"]):
                out[v] = apply(now[i], points[v])
        else:
            bone_idx = attribute(mesh, 6012)
            bone_w = attribute(mesh, 6013)
            offsets = mesh["batch_offsets"] + [mesh["faces"]]
            # Each batch draws its triangle range with its own palette. A vertex that two batches
            # share (four in cocos3d_man's body, with the same bone nodes in both) is skinned once
            # per batch, as it is drawn.
            drawn = set()
            for b in range(mesh["batches"]):
                drawn.update((v, b) for v in triangle_vertices(mesh, offsets[b], offsets[b + 1]))
            palettes = []
            for b in range(mesh["batches"]):
                bones = mesh["batch_bones"][b * mesh["max_bones"]:b * mesh["max_bones"] + mesh["batch_counts"][b]]
                palette = []
                for bone in bones:
                    if bone not in bind_inverse:
                        bind_inverse[bone] = inverse(rest[bone])
                    palette.append(mul(mul(now[bone], bind_inverse[bone]), rest[i]))
                palettes.append(palette)
            for v, b in sorted(drawn):
                acc = [0.0, 0.0, 0.0]
                for k, w in enumerate(bone_w["values"][v]):
                    if w:
                        bone = int(bone_idx["values"][v][k])
                        if bone >= len(palettes[b]):
                            raise PodError("vertex %d: bone %d in batch %d of %d bones" % (v, bone, b,
                                                                                      len(palettes[b])))
                        q = apply(palettes[b][bone], points[v])
                        acc = [a + w * c for a, c in zip(acc, q)]
                out[v, b] = acc
        for p in out.values():
            lo = [min(a, b) for a, b in zip(lo, p)]
            hi = [max(a, b) for a, b in zip(hi, p)]
    return lo, hi


# ---------------------------------------------------------------------------------------------
# Output.

def pod_files(folder):
    found = []
    for root, _, files in os.walk(folder):
        for f in files:
            if f.lower().endswith(".pod"):
                found.append(os.path.relpath(os.path.join(root, f), folder).replace(os.sep, "/"))
    return sorted(found)


def short_float(v):
    """Six significant digits, as the kBounds table writes them."""
    s = "%.6g" % v
    if "e" not in s and "." not in s:
        s += ".0"
    return s + "f"


def cpp_facts(folder):
    lines = []
    for rel in pod_files(folder):
        sc = decode(os.path.join(folder, rel))
        lines.append('    {"%s", %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, {%s},' % (
            rel, len(sc["nodes"]), len(sc["meshes"]), sc["mesh_nodes"], len(sc["cameras"]), len(sc["materials"]),
            len(sc["textures"]), sc["frames"], sc["fps"], int(sc["fixed"]), sc["bytes"],
            ", ".join(str(light["type"]) for light in sc["lights"])))
        lines.append("     {")
        for mesh in sc["meshes"]:
            f = mesh_fact(mesh)
            attrs = ", ".join("{%d, %d, %d, %d}" % a for a in f["attributes"])
            lines.append("         {%d, %d, %d, %d, %d, %d, {%s}}," % (
                f["vertices"], f["triangles"], f["indexed"], f["interleaved"], f["batches"], f["max_bones"], attrs))
        lines.append("     }},")
    return "\n".join(lines)


def frame_text(frame):
    return str(int(frame)) if float(frame).is_integer() else short_float(frame)


def cpp_bounds(folder):
    lines = []
    cache = {}
    for rel, frame in BOUNDS_CASES:
        if rel not in cache:
            cache[rel] = decode(os.path.join(folder, rel))
        lo, hi = bounds(cache[rel], frame)
        lines.append('    {"%s", %s, {%s}, {%s}},' % (rel, frame_text(frame), ", ".join(short_float(v) for v in lo),
                                                      ", ".join(short_float(v) for v in hi)))
    return "\n".join(lines)


def report(folder):
    for rel in pod_files(folder):
        sc = decode(os.path.join(folder, rel))
        print("%s: %d bytes, %s, flags %#x, %d frames at %d fps, units %g m" % (
            rel, sc["bytes"], "fixed point" if sc["fixed"] else "float", sc["flags"], sc["frames"], sc["fps"],
            sc["units"]))
        print("    %d nodes (%d mesh nodes), %d meshes, %d materials, %d textures %s, lights %s, %d cameras" % (
            len(sc["nodes"]), sc["mesh_nodes"], len(sc["meshes"]), len(sc["materials"]), len(sc["textures"]),
            sc["textures"], [light["type"] for light in sc["lights"]], len(sc["cameras"])))
        for k, n in enumerate(sc["nodes"]):
            arrays = {name: (len(c["data"]) if c["data"] is not None else "static") for name, c in n["channels"].items()
                      if c["data"] is not None or c["static"] is not None}
            print("    node %d %r: index %d, parent %d, material %d, flags %#x%s%s %s" % (
                k, n["name"], n["index"], n["parent"], n["material"], n["flags"],
                "" if n["flags_block"] else " (no 5012)", " (old blocks)" if n["old_format"] else "", arrays))
        for k, m in enumerate(sc["meshes"]):
            f = mesh_fact(m)
            print("    mesh %d: %d vertices, %d triangles, %s, %s, %d batches of up to %d bones, unpack %s" % (
                k, f["vertices"], f["triangles"], "indexed" if f["indexed"] else "not indexed",
                "interleaved" if f["interleaved"] else "separate lists", f["batches"], f["max_bones"],
                "none" if m["unpack"] is None else ("identity" if m["unpack"] == IDENTITY else m["unpack"])))
            print("        attributes (list, set, type, n): %s" % f["attributes"])
            if m["batches"]:
                print("        batch bones %s, counts %s, first triangles %s" % (
                    m["batch_bones"], m["batch_counts"], m["batch_offsets"]))
        for m in sc["materials"]:
            print("    material %r: diffuse texture %d, diffuse %s, effect %s" % (
                m["name"], m["diffuse_texture"], m["diffuse"], m["effect"]))
        for light in sc["lights"]:
            print("    light: type %d, colour %s, target %d" % (light["type"], light["colour"], light["target"]))
        for c in sc["cameras"]:
            print("    camera: fov %s, near %s, far %s, target %d, %d animated fovs" % (
                c["fov"], c["near"], c["far"], c["target"], c["fov_frames"]))
        for case, frame in BOUNDS_CASES:
            if case == rel:
                lo, hi = bounds(sc, frame)
                print("    box at frame %s: %s .. %s" % (frame, lo, hi))


def main():
    args = sys.argv[1:]
    mode = None
    if args and args[0] in ("--cpp", "--cpp-bounds"):
        mode = args[0]
        args = args[1:]
    folder = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                               "shared", "models", "pod")
    if mode == "--cpp":
        print(cpp_facts(folder))
    elif mode == "--cpp-bounds":
        print(cpp_bounds(folder))
    else:
        report(folder)


if __name__ == "__main__":
    main()
