#!/usr/bin/env python3
"""Facts about the sample OpenGEX files in ../shared/models/ogex, derived independently of the
esview reader: a small OpenDDL parser written from appendix A of the OpenGEX 3.0 specification,
then the spec's own rules (node kinds, Mesh primitive counts, Transform/Translation/Rotation/Scale
matrices, Track interpolation, the Skin formula). opengex_samples_test.cpp hard-codes what this
prints; the test does not run it. Pure Python, no dependencies:

    python3 samples_expected.py [MODELS_DIR]   the derivation, file by file (default folder:
                                               ../../../shared/models/ogex), with the skinned
                                               animation's boxes and edge stretch at clip times
    python3 samples_expected.py --cpp DIR      the kFacts table of opengex_samples_test.cpp
"""
import math
import os
import re
import struct
import sys

# ---------------------------------------------------------------------------------------------
# OpenDDL (appendix A): enough of the grammar for every sample file.

TYPES = {
    "bool": "bool", "b": "bool",
    "int8": "int", "i8": "int", "int16": "int", "i16": "int", "int32": "int", "i32": "int",
    "int64": "int", "i64": "int",
    "uint8": "int", "u8": "int", "uint16": "int", "u16": "int", "uint32": "int", "u32": "int",
    "uint64": "int", "u64": "int",
    # OpenDDL 1.x names still written by older exporters
    "unsigned_int8": "int", "unsigned_int16": "int", "unsigned_int32": "int", "unsigned_int64": "int",
    "half": "f16", "h": "f16", "float16": "f16", "f16": "f16",
    "float": "f32", "f": "f32", "float32": "f32", "f32": "f32",
    "double": "f64", "d": "f64", "float64": "f64", "f64": "f64",
    "string": "string", "s": "string", "ref": "ref", "r": "ref", "type": "type", "t": "type",
}

TOKEN = re.compile(r"""
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<number>[+-]?(?=\.?[0-9])(?:0[xX][0-9A-Fa-f_]+|0[oO][0-7_]+|0[bB][01_]+|(?:[0-9][0-9_]*)?\.?[0-9_]*(?:[eE][+-]?[0-9]+)?))
  | (?P<name>[$%][A-Za-z_][A-Za-z0-9_]*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[{}\[\]()=,*])
""", re.X | re.S)


def tokenize(text):
    pos, out = 0, []
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError("bad character at %d: %r" % (pos, text[pos:pos + 20]))
        kind = m.lastgroup
        if kind != "ws":
            out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class Structure:
    def __init__(self, ident, name=None, props=None, parent=None):
        self.ident, self.name, self.props, self.parent = ident, name, props or {}, parent
        self.children = []
        self.type = None  # primitive structures: the base type
        self.array = 0    # subarray size (0 = flat)
        self.data = []

    @property
    def primitive(self):
        return self.type is not None

    def subs(self, ident=None):
        return [c for c in self.children if not c.primitive and (ident is None or c.ident == ident)]

    def prim(self):
        p = [c for c in self.children if c.primitive]
        return p[0] if p else None

    def items(self):
        """Data as a list of values (flat) or of subarrays."""
        return self.prim().data


def number(tok, base):
    t = tok.replace("_", "")
    sign = -1 if t.startswith("-") else 1
    t = t.lstrip("+-")
    if t[:2] in ("0x", "0X", "0o", "0O", "0b", "0B"):
        bits = int(t[2:], {"x": 16, "o": 8, "b": 2}[t[1].lower()])
        if base == "f32":
            return sign * struct.unpack("<f", struct.pack("<I", bits))[0]
        if base == "f64":
            return sign * struct.unpack("<d", struct.pack("<Q", bits))[0]
        if base == "f16":
            return sign * struct.unpack("<e", struct.pack("<H", bits))[0]
        return sign * bits
    if base in ("f32", "f64", "f16"):
        v = float(t) * sign
        return struct.unpack("<f", struct.pack("<f", v))[0] if base == "f32" else v
    if base == "bool":
        return bool(int(t))
    return sign * int(t)


def literal(tok, base):
    kind, text = tok
    if base == "string":
        return bytes(text[1:-1], "utf-8").decode("unicode_escape")
    if base == "ref":
        return None if text == "null" else text
    if base == "bool" and text in ("true", "false"):
        return text == "true"
    if base == "type":
        return text
    return number(text, base)


def parse(text):
    toks = tokenize(text)
    i = 0
    root = Structure("<file>")

    def peek(k=0):
        return toks[i + k] if i + k < len(toks) else (None, None)

    def take(value=None):
        nonlocal i
        t = toks[i]
        if value is not None and t[1] != value:
            raise ValueError("expected %s, found %s" % (value, t))
        i += 1
        return t

    def structure(parent):
        ident = take()[1]
        if ident in TYPES:
            s = Structure(ident, parent=parent)
            s.type = TYPES[ident]
            if peek()[1] == "[":
                take("[")
                s.array = int(take()[1])
                take("]")
                if peek()[1] == "*":
                    take("*")
            if peek()[0] == "name":
                s.name = take()[1]
            take("{")
            while peek()[1] != "}":
                if s.array:
                    if peek()[0] == "ident":
                        take()  # data state
                    take("{")
                    sub = []
                    while peek()[1] != "}":
                        sub.append(value_of(s.type))
                        if peek()[1] == ",":
                            take(",")
                    take("}")
                    s.data.append(sub)
                else:
                    s.data.append(value_of(s.type))
                if peek()[1] == ",":
                    take(",")
            take("}")
            return s
        s = Structure(ident, parent=parent)
        if peek()[0] == "name":
            s.name = take()[1]
        if peek()[1] == "(":
            take("(")
            while peek()[1] != ")":
                key = take()[1]
                val = True
                if peek()[1] == "=":
                    take("=")
                    t = take()
                    if t[0] == "string":
                        val = literal(t, "string")
                    elif t[0] == "name" or t[1] == "null":
                        val = t[1]
                    elif t[1] in ("true", "false"):
                        val = t[1] == "true"
                    else:
                        val = number(t[1], "f64" if re.search(r"[.eE]", t[1]) and not t[1][:2].lower() == "0x" else "int")
                s.props[key] = val
                if peek()[1] == ",":
                    take(",")
            take(")")
        take("{")
        while peek()[1] != "}":
            s.children.append(structure(s))
        take("}")
        return s

    def value_of(base):
        t = take()
        if base == "string":
            v = literal(t, "string")
            while peek()[0] == "string":  # adjacent strings concatenate
                v += literal(take(), "string")
            return v
        if base == "ref":
            v = t[1]
            while peek()[0] == "name" and peek()[1].startswith("%"):
                v += take()[1]
            return None if v == "null" else v
        return literal(t, base)

    while i < len(toks):
        root.children.append(structure(root))
    return root


def walk(s):
    yield s
    for c in s.children:
        yield from walk(c)


def resolve(ref, holder, root):
    """A reference ($global or %local...) seen from `holder` (A.6)."""
    parts = re.findall(r"[$%][A-Za-z_][A-Za-z0-9_]*", ref)
    if parts[0].startswith("$"):
        cur = next((s for s in walk(root) if s.name == parts[0]), None)
    else:
        cur = None
        scope = holder.parent
        while scope is not None and cur is None:
            cur = next((c for c in scope.children if c.name == parts[0]), None)
            scope = scope.parent
    for p in parts[1:]:
        cur = next((c for c in cur.children if c.name == p), None) if cur else None
    return cur


# ---------------------------------------------------------------------------------------------
# 4x4 matrices as lists of rows.

def ident4():
    return [[1.0 if r == c else 0.0 for c in range(4)] for r in range(4)]


def mul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(4)) for c in range(4)] for r in range(4)]


def apply(m, p):
    v = (p[0], p[1], p[2], 1.0)
    return tuple(sum(m[r][k] * v[k] for k in range(4)) for r in range(3))


def inverse(m):
    # Gauss-Jordan with partial pivoting
    a = [row[:] + [1.0 if r == c else 0.0 for c in range(4)] for r, row in enumerate(m)]
    for c in range(4):
        p = max(range(c, 4), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        d = a[c][c]
        a[c] = [x / d for x in a[c]]
        for r in range(4):
            if r != c:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [row[4:] for row in a]


def matrix_of(v):
    """Transform data (column-major; 16/12/9/6/4 entries, spec Transform) as rows."""
    m = ident4()
    n = len(v)
    if n == 16:
        for c in range(4):
            for r in range(4):
                m[r][c] = v[c * 4 + r]
    elif n == 12:
        for c in range(4):
            for r in range(3):
                m[r][c] = v[c * 3 + r]
    elif n == 9:
        for c in range(3):
            for r in range(3):
                m[r][c] = v[c * 3 + r]
    elif n == 6:
        m[0][0], m[1][0], m[0][1], m[1][1], m[0][3], m[1][3] = v
    elif n == 4:
        m[0][0], m[1][0], m[0][1], m[1][1] = v
    return m


def rot(axis, t):
    c, s = math.cos(t), math.sin(t)
    if axis == "x":
        return [[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]]
    if axis == "y":
        return [[c, 0, s, 0], [0, 1, 0, 0], [-s, 0, c, 0], [0, 0, 0, 1]]
    return [[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]


def element_matrix(s, values, metrics):
    """One node transform structure (spec Transform, Translation, Rotation, Scale)."""
    kind = s.props.get("kind", "axis" if s.ident == "Rotation" else "xyz")
    if s.ident == "Transform":
        return matrix_of(values)
    m = ident4()
    if s.ident == "Translation":
        if kind == "xyz":
            m[0][3], m[1][3], m[2][3] = values
        else:
            m["xyz".index(kind)][3] = values[0]
        return m
    if s.ident == "Scale":
        if kind == "xyz":
            m[0][0], m[1][1], m[2][2] = values
        else:
            m["xyz".index(kind)]["xyz".index(kind)] = values[0]
        return m
    if kind in ("x", "y", "z"):
        return rot(kind, values[0] * metrics["angle"])
    if kind == "axis":
        t = values[0] * metrics["angle"]
        ax = values[1:4]
        n = math.sqrt(sum(a * a for a in ax))
        x, y, z = (a / n for a in ax)
        c, s_, k = math.cos(t), math.sin(t), 1 - math.cos(t)
        return [[c + x * x * k, x * y * k - z * s_, x * z * k + y * s_, 0],
                [x * y * k + z * s_, c + y * y * k, y * z * k - x * s_, 0],
                [x * z * k - y * s_, y * z * k + x * s_, c + z * z * k, 0], [0, 0, 0, 1]]
    x, y, z, w = values
    n = math.sqrt(x * x + y * y + z * z + w * w)
    x, y, z, w = x / n, y / n, z / n, w / n
    return [[1 - 2 * y * y - 2 * z * z, 2 * x * y - 2 * w * z, 2 * x * z + 2 * w * y, 0],
            [2 * x * y + 2 * w * z, 1 - 2 * x * x - 2 * z * z, 2 * y * z - 2 * w * x, 0],
            [2 * x * z - 2 * w * y, 2 * y * z + 2 * w * x, 1 - 2 * x * x - 2 * y * y, 0], [0, 0, 0, 1]]


def flat(items):
    out = []
    for v in items:
        if isinstance(v, list):
            out.extend(v)
        else:
            out.append(v)
    return out


# ---------------------------------------------------------------------------------------------
# Facts

NODE_KINDS = ("Node", "BoneNode", "GeometryNode", "LightNode", "CameraNode")
TRANSFORMS = ("Transform", "Translation", "Rotation", "Scale")


def metrics_of(root):
    m = {"distance": 1.0, "angle": 1.0, "time": 1.0, "up": "z"}
    for s in root.subs("Metric"):
        v = s.items()[0]
        m[s.props["key"]] = v
    return m


def name_of(s):
    n = s.subs("Name")
    return n[0].items()[0] if n else ""


def nodes_of(root):
    """Every node structure, depth first (parents before children)."""
    out = []

    def visit(s):
        for c in s.subs():
            if c.ident in NODE_KINDS:
                out.append(c)
                visit(c)
    visit(root)
    return out


def local_matrix(node, metrics, override=None):
    """Node transform: the product of its non-object transform structures in order (spec Node)."""
    m = ident4()
    for c in node.subs():
        if c.ident in TRANSFORMS and not c.props.get("object", False):
            values = override[id(c)] if override and id(c) in override else flat(c.items())
            m = mul(m, element_matrix(c, values, metrics))
    return m


def object_matrix(node, metrics):
    m = ident4()
    for c in node.subs():
        if c.ident in TRANSFORMS and c.props.get("object", False):
            m = mul(m, element_matrix(c, flat(c.items()), metrics))
    return m


def world_matrix(node, metrics, override=None):
    chain = []
    s = node
    while s is not None and s.ident in NODE_KINDS:
        chain.append(s)
        s = s.parent
    m = ident4()
    for n in reversed(chain):
        m = mul(m, local_matrix(n, metrics, override))
    return m


def triangles_of(mesh):
    """Triangles (vertex index triples) of the lod mesh, spec Mesh table 2.2."""
    prim = mesh.props.get("primitive", "triangles")
    arrays = mesh.subs("IndexArray")
    positions = [a for a in mesh.subs("VertexArray") if a.props.get("attrib") == "position" and a.props.get("morph", 0) == 0]
    arrays_v = mesh.subs("VertexArray")
    first = positions[0] if positions else (arrays_v[0] if arrays_v else None)
    nverts = len(first.items()) if first else 0  # subarrays are vertices; a flat array has one value per vertex
    lists = [(flat(a.items()), a.props.get("restart")) for a in arrays] or [(list(range(nverts)), None)]
    tris = []
    for idx, restart in lists:
        if prim == "triangles":
            tris += [tuple(idx[3 * i:3 * i + 3]) for i in range(len(idx) // 3)]
        elif prim == "quads":
            for i in range(len(idx) // 4):
                a, b, c, d = idx[4 * i:4 * i + 4]
                tris += [(a, b, c), (a, c, d)]
        elif prim == "triangle_strip":
            runs, run = [], []
            for v in idx:
                if restart is not None and v == restart:
                    runs.append(run)
                    run = []
                else:
                    run.append(v)
            runs.append(run)
            for r in runs:
                for i in range(len(r) - 2):
                    tris.append((r[i], r[i + 1], r[i + 2]) if i % 2 == 0 else (r[i], r[i + 2], r[i + 1]))
    return prim, nverts, tris


def vertex_array(mesh, attrib):
    for a in mesh.subs("VertexArray"):
        if a.props.get("attrib") == attrib and a.props.get("index", 0) == 0 and a.props.get("morph", 0) == 0:
            return [tuple(v) + (0.0,) * (3 - len(v)) for v in a.items()]
    return None


class Skin:
    def __init__(self, skin, root):
        sk = skin.subs("Skeleton")[0]
        refs = sk.subs("BoneRefArray")[0].items()
        self.bones = [resolve(r, sk.subs("BoneRefArray")[0].prim(), root) for r in refs]
        self.bind = [matrix_of(v) for v in sk.subs("Transform")[0].items()]
        t = skin.subs("Transform")
        self.tbind = matrix_of(flat(t[0].items())) if t else ident4()
        counts = skin.subs("BoneCountArray")[0].items()
        idx = skin.subs("BoneIndexArray")[0].items()
        wts = skin.subs("BoneWeightArray")[0].items()
        self.influences, k = [], 0
        for n in counts:
            self.influences.append(list(zip(idx[k:k + n], wts[k:k + n])))
            k += n

    def positions(self, bind_positions, metrics, override=None):
        # P = sum w_i M_k B_k^-1 T_bind P (spec, Skin); M_k is the bone node's world transform.
        pal = [mul(mul(world_matrix(b, metrics, override), inverse(B)), self.tbind) for b, B in zip(self.bones, self.bind)]
        out = []
        for p, inf in zip(bind_positions, self.influences):
            acc = [0.0, 0.0, 0.0]
            for j, w in inf:
                q = apply(pal[j], p)
                acc = [a + w * x for a, x in zip(acc, q)]
            out.append(tuple(acc))
        return out


def sample_track(track, t, metrics):
    """Linear Value/Time curves (the only kind in the samples); values clamp outside the keys."""
    times = [x * metrics["time"] for x in track.subs("Time")[0].subs("Key")[0].items()]
    values = [flat([v]) if not isinstance(v, list) else v for v in track.subs("Value")[0].subs("Key")[0].items()]
    assert track.subs("Value")[0].props.get("curve", "linear") == "linear"
    if t <= times[0]:
        return values[0]
    if t >= times[-1]:
        return values[-1]
    k = max(i for i in range(len(times)) if times[i] <= t)
    s = (t - times[k]) / (times[k + 1] - times[k])
    return [a + (b - a) * s for a, b in zip(values[k], values[k + 1])]


def animation_override(root, metrics, clip, t):
    over = {}
    for node in nodes_of(root):
        for anim in node.subs("Animation"):
            if anim.props.get("clip", 0) != clip:
                continue
            for track in anim.subs("Track"):
                target = resolve(track.props["target"], track, root)
                over[id(target)] = sample_track(track, t, metrics)
    return over


def bounds(points):
    if not points:
        return None
    return ([min(p[i] for p in points) for i in range(3)], [max(p[i] for p in points) for i in range(3)])


def instance_positions(root, metrics, node, override=None):
    obj = resolve(node.subs("ObjectRef")[0].items()[0], node.subs("ObjectRef")[0].prim(), root)
    mesh = sorted(obj.subs("Mesh"), key=lambda m: m.props.get("lod", 0))[0]
    pos = vertex_array(mesh, "position")
    if pos is None:
        return [], mesh
    skins = mesh.subs("Skin")
    if skins:
        return Skin(skins[0], root).positions(pos, metrics, override), mesh
    m = mul(world_matrix(node, metrics, override), object_matrix(node, metrics))
    return [apply(m, p) for p in pos], mesh


def scene_bounds(root, metrics, override=None):
    pts = []
    for node in nodes_of(root):
        if node.ident == "GeometryNode":
            pts += instance_positions(root, metrics, node, override)[0]
    return bounds(pts)


def clips_of(root, metrics):
    clips = {}
    for node in nodes_of(root):
        for anim in node.subs("Animation"):
            c = clips.setdefault(anim.props.get("clip", 0), [math.inf, -math.inf])
            keys = [x * metrics["time"] for tr in anim.subs("Track") for x in tr.subs("Time")[0].subs("Key")[0].items()]
            begin = anim.props.get("begin")
            end = anim.props.get("end")
            c[0] = min(c[0], begin * metrics["time"] if begin is not None else min(keys))
            c[1] = max(c[1], end * metrics["time"] if end is not None else max(keys))
    names = {c.props.get("index", 0): name_of(c) for c in root.subs("Clip")}
    return [(k, names.get(k, ""), v[0], v[1]) for k, v in sorted(clips.items())]


def fmt(v):
    return "%.9g" % v


def report(path):
    text = open(path, encoding="utf-8").read()
    root = parse(text)
    metrics = metrics_of(root)
    nodes = nodes_of(root)
    print("== %s (%d bytes)" % (os.path.basename(path), os.path.getsize(path)))
    print("  metrics", metrics)
    print("  nodes %d: %s" % (len(nodes), {k: sum(1 for n in nodes if n.ident == k) for k in NODE_KINDS}))
    for n in nodes:
        print("    %s %r parent=%s" % (n.ident, name_of(n) or n.name, nodes.index(n.parent) if n.parent in nodes else -1))
    print("  meshes (GeometryObjects, file order):")
    for g in root.subs("GeometryObject"):
        mesh = sorted(g.subs("Mesh"), key=lambda m: m.props.get("lod", 0))[0]
        prim, nverts, tris = triangles_of(mesh)
        attribs = [(a.props.get("attrib"), a.props.get("index", 0), len(a.items())) for a in mesh.subs("VertexArray")]
        print("    %s: lods %d, primitive %s, vertices %d, triangles %d, skinned %s, arrays %s" % (
            g.name, len(g.subs("Mesh")), prim, nverts, len(tris), bool(mesh.subs("Skin")), attribs))
    print("  materials:")
    for m in root.subs("Material"):
        tex = [(t.props.get("attrib"), t.items()[0]) for t in m.subs("Texture")]
        print("    %r textures %s" % (name_of(m), tex))
    lights = []
    for n in nodes:
        if n.ident == "LightNode":
            o = resolve(n.subs("ObjectRef")[0].items()[0], n.subs("ObjectRef")[0].prim(), root)
            lights.append({"infinite": "directional"}.get(o.props["type"], o.props["type"]))
    print("  light nodes:", lights, " LightObjects:", [o.props.get("type") for o in root.subs("LightObject")])
    for n in nodes:
        if n.ident == "CameraNode":
            o = resolve(n.subs("ObjectRef")[0].items()[0], n.subs("ObjectRef")[0].prim(), root)
            print("  camera %r: %s" % (name_of(n), {p.props["attrib"]: p.items()[0] for p in o.subs("Param")}))
    print("  CameraObjects:", len(root.subs("CameraObject")))
    clips = clips_of(root, metrics)
    for k, name, b, e in clips:
        print("  clip %d %r: %s .. %s s (duration %s)" % (k, name, fmt(b), fmt(e), fmt(e - b)))
    b = scene_bounds(root, metrics)
    print("  rest bounds:", "none" if b is None else "min (%s) max (%s)" % (", ".join(map(fmt, b[0])), ", ".join(map(fmt, b[1]))))
    for n in nodes:
        w = world_matrix(n, metrics)
        print("    world %r: translation (%s)" % (name_of(n) or n.name, ", ".join(fmt(w[r][3]) for r in range(3))))
    return root, metrics, clips


def animated_report(root, metrics, clips):
    k, _, begin, _ = clips[0]
    geo = [n for n in nodes_of(root) if n.ident == "GeometryNode"]
    rest = {id(n): instance_positions(root, metrics, n)[0] for n in geo}
    # Every bone track changes only up to key 13 (0.5417 s) and then holds the rest transform.
    for t in (0.0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 2.5, 5.0, 10.0):
        over = animation_override(root, metrics, k, begin + t)
        b = scene_bounds(root, metrics, over)
        print("  clip %d t=%s: min (%s) max (%s)" % (k, t, ", ".join(map(fmt, b[0])), ", ".join(map(fmt, b[1]))))
        for n in geo:
            pos, mesh = instance_positions(root, metrics, n, over)
            _, _, tris = triangles_of(mesh)
            r0 = rest[id(n)]
            ratios = []
            for tri in tris:
                for a, c in ((0, 1), (1, 2), (2, 0)):
                    l0 = math.dist(r0[tri[a]], r0[tri[c]])
                    l1 = math.dist(pos[tri[a]], pos[tri[c]])
                    if l0 > 1e-6:
                        ratios.append(l1 / l0)
            pb = bounds(pos)
            print("    %r: edge ratio %s..%s; bounds min (%s) max (%s)" % (
                name_of(n), fmt(min(ratios)), fmt(max(ratios)), ", ".join(map(fmt, pb[0])), ", ".join(map(fmt, pb[1]))))


KIND_CPP = {"Node": "NodeKind::Empty", "BoneNode": "NodeKind::Bone", "GeometryNode": "NodeKind::Mesh",
            "LightNode": "NodeKind::Light", "CameraNode": "NodeKind::Camera"}
PRIM_CPP = {"triangles": "Primitive::Triangles", "triangle_strip": "Primitive::TriangleStrip", "quads": "Primitive::Quads"}
ATTR_CPP = {"position": "Semantic::Position", "normal": "Semantic::Normal", "texcoord": "Semantic::TexCoord",
            "color": "Semantic::Color", "tangent": "Semantic::Tangent", "bitangent": "Semantic::Binormal"}
SLOT_CPP = {"diffuse": "TextureSlot::Diffuse", "specular": "TextureSlot::Specular"}
LIGHT_CPP = {"infinite": "LightType::Directional", "point": "LightType::Point", "spot": "LightType::Spot"}


def cpp_str(v):
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cppf(x):
    t = fmt(x)
    return t + ("f" if "." in t or "e" in t else ".0f")


def cpp_vec(v):
    return "{" + ", ".join(cppf(x) for x in v) + "}"


def cpp_table(path):
    """The FileFact initializer of opengex_samples_test.cpp for one file."""
    root = parse(open(path, encoding="utf-8").read())
    metrics = metrics_of(root)
    nodes = nodes_of(root)
    out = ["    {%s, %d, %s," % (cpp_str(os.path.basename(path)), os.path.getsize(path),
                                "UpAxis::Z" if metrics["up"] == "z" else "UpAxis::Y")]
    out.append("     {%s}," % ", ".join(str(sum(1 for n in nodes if n.ident == k)) for k in NODE_KINDS))
    out.append("     {")
    for n in nodes:
        w = world_matrix(n, metrics)
        parent = nodes.index(n.parent) if n.parent in nodes else -1
        out.append("         {%s, %d, %s, %s}," % (cpp_str(name_of(n) or (n.name or "")[1:]), parent, KIND_CPP[n.ident],
                                                   cpp_vec([w[r][3] for r in range(3)])))
    out.append("     },")
    out.append("     {")
    for g in root.subs("GeometryObject"):
        mesh = sorted(g.subs("Mesh"), key=lambda m: m.props.get("lod", 0))[0]
        prim, nverts, tris = triangles_of(mesh)
        seen, attrs = set(), []
        for a in mesh.subs("VertexArray"):
            key = (a.props.get("attrib"), a.props.get("index", 0), a.props.get("morph", 0))
            # spec VertexArray/Mesh: a repeated attrib/index/morph and an array of another length break the mesh rules
            if key in seen or len(a.items()) != nverts:
                continue
            seen.add(key)
            attrs.append(ATTR_CPP[a.props["attrib"]])
        out.append("         {%d, %d, %s, %s, {%s}}," % (nverts, len(tris), PRIM_CPP[prim],
                                                        "true" if mesh.subs("Skin") else "false", ", ".join(attrs)))
    out.append("     },")
    out.append("     {")
    for m in root.subs("Material"):
        colors = {c.props["attrib"]: flat(c.items())[:3] for c in m.subs("Color")}
        params = {c.props["attrib"]: c.items()[0] for c in m.subs("Param")}
        tex = ["{%s, %s}" % (SLOT_CPP[t.props["attrib"]], cpp_str(t.items()[0])) for t in m.subs("Texture")
               if t.props.get("attrib") in SLOT_CPP and t.items()[0]]  # an empty file name names no texture
        out.append("         {%s, %s, %s, %s, {%s}}," % (cpp_str(name_of(m)), cpp_vec(colors.get("diffuse", [1, 1, 1])),
                                                      cpp_vec(colors.get("specular", [0, 0, 0])),
                                                      cppf(params.get("specular_power", 1.0)), ", ".join(tex)))
    out.append("     },")
    lights = []
    for n in nodes:
        if n.ident == "LightNode":
            o = resolve(n.subs("ObjectRef")[0].items()[0], n.subs("ObjectRef")[0].prim(), root)
            lights.append(LIGHT_CPP[o.props["type"]])
    out.append("     {%s}," % ", ".join(lights))
    cams = []
    for n in nodes:
        if n.ident == "CameraNode":
            o = resolve(n.subs("ObjectRef")[0].items()[0], n.subs("ObjectRef")[0].prim(), root)
            p = {q.props["attrib"]: q.items()[0] for q in o.subs("Param")}
            cams.append("{%s, %s, %s}" % (cppf(p["fov"] * metrics["angle"]), cppf(p["near"]), cppf(p["far"])))
    out.append("     {%s}," % ", ".join(cams))
    out.append("     {%s}," % ", ".join("{%s, %s}" % (cppf(b), cppf(e - b)) for _, _, b, e in clips_of(root, metrics)))
    b = scene_bounds(root, metrics)
    out.append("     %s}," % ("false, {}, {}" if b is None else "true, %s, %s" % (cpp_vec(b[0]), cpp_vec(b[1]))))
    print("\n".join(out))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--cpp":
        folder = sys.argv[2]
        for f in sorted(os.listdir(folder)):
            if f.endswith(".ogex"):
                cpp_table(os.path.join(folder, f))
        return
    here = os.path.dirname(os.path.abspath(__file__))
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "../../../shared/models/ogex")
    for f in sorted(os.listdir(folder)):
        if f.endswith(".ogex"):
            root, metrics, clips = report(os.path.join(folder, f))
            if clips and f == "assimp_animation_example.ogex":
                animated_report(root, metrics, clips)
            if f == "magnum_scene-rotation.ogex":
                for n in nodes_of(root):  # full world matrices: one per rotation kind
                    print("    world rows", [[fmt(x) for x in row[:3]] for row in world_matrix(n, metrics)[:3]])
            if clips and f == "squareys_KeyframeAnimation_sampled.ogex":
                n = nodes_of(root)[0]
                for t in (0.0, 0.1, 0.3, 0.45, 0.6, 1.0, 10.0):
                    w = world_matrix(n, metrics, animation_override(root, metrics, 0, t))
                    print("    t=%s world translation (%s) row0 (%s)" % (t, ", ".join(fmt(w[r][3]) for r in range(3)),
                                                                       ", ".join(fmt(x) for x in w[0][:3])))


if __name__ == "__main__":
    main()
