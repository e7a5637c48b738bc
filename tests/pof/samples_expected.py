#!/usr/bin/env python3
"""Facts about the sample POF files in ../shared/models/pof, derived independently of the esview
reader: a small POF decoder written from pof-format-spec.txt and pof-bsp-notes.md (chunks by
length, the header and subobject field orders by version, a linear scan of each subobject's BSP
ops). pof_samples_test.cpp hard-codes what this prints; the test does not run it. Pure Python:

    python3 samples_expected.py [MODELS_DIR]   the facts, file by file (default folder:
                                               ../../../shared/models/pof)
    python3 samples_expected.py --cpp DIR      the kFacts table of pof_samples_test.cpp

Counts follow DESIGN.md and issue 9: nodes = subobjects; meshes = subobjects with textured
polygons (each: distinct (vertnum, normnum, u, v) corners of its textured polygons, and their
fan triangles); polygons whose texture name contains "invisible" (any case) are not drawn, as
FreeSpace draws none (fs2open model_load_texture), so they count like FLATPOLY: in the polygon
totals, not in meshes, triangles or the box; drawn triangles = those of the LOD0 root and its
descendants, debris left out;
gun and missile points summed over slots; turrets = TGUN plus TMIS banks. The box covers the
corners of the drawn textured polygons, each subobject placed at the sum of the offsets along its
parent chain, in the file's axes.
"""
import os
import struct
import sys


class Cursor:
    def __init__(self, data, pos=0):
        self.d = data
        self.p = pos

    def i32(self):
        v = struct.unpack_from('<i', self.d, self.p)[0]
        self.p += 4
        return v

    def f32(self):
        v = struct.unpack_from('<f', self.d, self.p)[0]
        self.p += 4
        return v

    def vec(self):
        v = struct.unpack_from('<3f', self.d, self.p)
        self.p += 12
        return v

    def string(self):
        n = self.i32()
        s = self.d[self.p:self.p + n]
        self.p += n
        return s.split(b'\0')[0].decode('latin1')


def scan_bsp(data, version):
    """Linear scan: (textured polygons as [(tex, [(vert, norm, u, v)])], flat count, positions)."""
    pos = 0
    positions = []
    polys = []
    flat = 0
    while pos + 8 <= len(data):
        op, size = struct.unpack_from('<ii', data, pos)
        if op == 0:
            pos += 8
            continue
        if op == 1:
            nverts, nnorms, off = struct.unpack_from('<iii', data, pos + 8)
            counts = data[pos + 20:pos + 20 + nverts]
            q = pos + off
            for i in range(nverts):
                positions.append(struct.unpack_from('<3f', data, q))
                q += 12 + 12 * counts[i]
        elif op == 2:
            flat += 1
        elif op == 3:
            n, tex = struct.unpack_from('<ii', data, pos + 36)
            corners = []
            for k in range(n):
                v, nm, u, w = struct.unpack_from('<HHff', data, pos + 44 + 12 * k)
                corners.append((v, nm, u, w))
            polys.append((tex, corners))
        elif op == 6:
            tex, n = struct.unpack_from('<iI', data, pos + 44)
            corners = []
            for k in range(n):
                corners.append(struct.unpack_from('<IIff', data, pos + 52 + 16 * k))
            polys.append((tex, corners))
        if op == 7:
            pos += 40
        else:
            pos += size
    return polys, flat, positions


def decode(path):
    d = open(path, 'rb').read()
    assert d[:4] == b'PSPO'
    version = struct.unpack_from('<i', d, 4)[0]
    facts = {'file': os.path.basename(path), 'bytes': len(d), 'version': version,
             'special_points': 0, 'gun_points': 0, 'missile_points': 0, 'docks': 0,
             'thrusters': 0, 'eye_points': 0, 'paths': 0, 'turrets': 0, 'shield': None,
             'textures': 0}
    subs = {}
    texture_names = []
    pos = 8
    while pos + 8 <= len(d):
        cid = d[pos:pos + 4]
        length = struct.unpack_from('<i', d, pos + 4)[0]
        c = Cursor(d, pos + 8)
        if cid in (b'HDR2', b'OHDR'):
            if version >= 2116:
                c.f32(); c.i32(); c.i32()
            else:
                c.i32(); c.f32(); c.i32()
            facts['header_min'] = c.vec()
            facts['header_max'] = c.vec()
            facts['detail_levels'] = [c.i32() for _ in range(c.i32())]
            facts['debris'] = [c.i32() for _ in range(c.i32())]
        elif cid == b'TXTR':
            facts['textures'] = c.i32()
            texture_names = [c.string() for _ in range(facts['textures'])]
        elif cid == b'SPCL':
            facts['special_points'] = c.i32()
        elif cid in (b'GPNT', b'MPNT'):
            total = 0
            for _ in range(c.i32()):
                guns = c.i32()
                total += guns
                c.p += guns * (28 if version >= 2118 else 24)
            facts['gun_points' if cid == b'GPNT' else 'missile_points'] = total
        elif cid == b'DOCK':
            facts['docks'] = c.i32()
        elif cid == b'FUEL':
            facts['thrusters'] = c.i32()
        elif cid in (b' EYE', b'EYE '):
            facts['eye_points'] = c.i32()
        elif cid == b'PATH':
            facts['paths'] = c.i32()
        elif cid in (b'TGUN', b'TMIS'):
            facts['turrets'] += c.i32()
        elif cid == b'SHLD':
            nv = c.i32()
            c.p += 12 * nv
            facts['shield'] = c.i32()
        elif cid in (b'OBJ2', b'SOBJ'):
            number = c.i32()
            if version >= 2116:
                c.f32()
                parent = c.i32()
                offset = c.vec()
            else:
                parent = c.i32()
                offset = c.vec()
                c.f32()
            c.vec(); c.vec(); c.vec()
            name = c.string()
            c.string()
            c.i32(); c.i32()
            if version >= 2301:
                c.i32(); c.i32()
            c.i32()
            size = c.i32()
            polys, flat, positions = scan_bsp(d[c.p:c.p + size], version)
            subs[number] = {'name': name, 'parent': parent, 'offset': offset, 'polys': polys,
                            'flat': flat, 'positions': positions}
        pos += 8 + length

    lod0 = facts['detail_levels'][0] if facts['detail_levels'] else 0
    debris = set(facts['debris'])

    def world(n):
        x = y = z = 0.0
        seen = set()
        while n in subs and n not in seen:
            seen.add(n)
            o = subs[n]['offset']
            x, y, z = x + o[0], y + o[1], z + o[2]
            n = subs[n]['parent']
        return x, y, z

    def drawn(n):
        if n in debris:
            return False
        seen = set()
        while n in subs and n not in seen:
            if n == lod0:
                return True
            seen.add(n)
            n = subs[n]['parent']
        return False

    meshes = []
    drawn_tris = 0
    lod0_polys = lod0_flat = 0
    lo = [float('inf')] * 3
    hi = [float('-inf')] * 3
    def invisible(tex):
        return 0 <= tex < len(texture_names) and 'invisible' in texture_names[tex].lower()

    for number in sorted(subs):
        s = subs[number]
        shown = [(t, cs) for t, cs in s['polys'] if not invisible(t)]
        tris = sum(len(c) - 2 for _, c in shown)
        corners = set()
        for _, cs in shown:
            for (v, nm, u, w) in cs:
                corners.add((v, nm, struct.pack('<ff', u, w)))
        if shown:
            meshes.append((s['name'], len(corners), tris))
        if drawn(number):
            drawn_tris += tris
            lod0_polys += len(s['polys']) + s['flat']
            lod0_flat += s['flat']
            wx, wy, wz = world(number)
            for (v, nm, uv) in corners:
                p = s['positions'][v]
                for k, val in enumerate((p[0] + wx, p[1] + wy, p[2] + wz)):
                    lo[k] = min(lo[k], val)
                    hi[k] = max(hi[k], val)
    facts['nodes'] = len(subs)
    facts['meshes'] = meshes
    facts['drawn_triangles'] = drawn_tris
    facts['lod0_polygons'] = lod0_polys
    facts['lod0_flat_polygons'] = lod0_flat
    # Nothing drawn: no box (written as zeros; the tests check that there is none).
    facts['min'] = lo if drawn_tris else [0.0] * 3
    facts['max'] = hi if drawn_tris else [0.0] * 3
    return facts


def cpp_float(v):
    return repr(float(v)) + 'f'


def main():
    args = sys.argv[1:]
    cpp = False
    if args and args[0] == '--cpp':
        cpp = True
        args = args[1:]
    folder = args[0] if args else os.path.join(os.path.dirname(__file__), '../../../shared/models/pof')
    files = sorted(f for f in os.listdir(folder) if f.lower().endswith('.pof'))
    for name in files:
        f = decode(os.path.join(folder, name))
        if not cpp:
            print(f)
            continue
        shield = -1 if f['shield'] is None else f['shield']
        print('    {"%s", %d, %d, %d, %d, %d,' % (f['file'], f['bytes'], f['version'], f['nodes'], f['textures'],
                                               f['drawn_triangles']))
        print('     {%s}, {%s},' % (', '.join(map(str, f['detail_levels'])), ', '.join(map(str, f['debris']))))
        print('     {%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d},' % (
            f['special_points'], f['gun_points'], f['missile_points'], f['docks'], f['thrusters'],
            f['eye_points'], f['paths'], f['turrets'], shield, f['lod0_polygons'], f['lod0_flat_polygons']))
        print('     {')
        for (mname, verts, tris) in f['meshes']:
            print('         {"%s", %d, %d},' % (mname.replace('\\', '\\\\').replace('"', '\\"'), verts, tris))
        print('     },')
        print('     {%s}, {%s},' % (', '.join(cpp_float(v) for v in f['min']), ', '.join(cpp_float(v) for v in f['max'])))
        print('     {%s}, {%s}},' % (', '.join(cpp_float(v) for v in f['header_min']),
                                     ', '.join(cpp_float(v) for v in f['header_max'])))


if __name__ == '__main__':
    main()
