// POF reader (../shared/specs/pof-format-spec.txt, pof-bsp-notes.md): the PSPO header, then chunks
// read by id or skipped by length. Subobjects become scene nodes with their BSP geometry as meshes
// (pof_bsp.h); everything else lands in Scene::pof (scene/pof_extras.h) in the file's axes.
//
// Problems: a header or chunk that cannot be framed (bad magic, a chunk running past the end of the
// file), or a header, texture list or subobject chunk whose fields run past its end, fails the
// load. Everything else is a violation: `check` lists it, a load keeps going with a warning.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "loaders/byte_reader.h"
#include "loaders/diagnostics.h"
#include "loaders/formats.h"
#include "loaders/pof/pof_bsp.h"
#include "scene/pof_extras.h"

namespace esv {
namespace pof {
namespace {

// fs2open's first version with the FS2 field orders (radius first in HDR2/OBJ2).
constexpr int32_t kFs2FieldOrder = 2116;
constexpr int32_t kMassVersion = 1903;
constexpr int32_t kCrossSectionVersion = 2014;
constexpr int32_t kMuzzleLightVersion = 2007;
constexpr int32_t kThrusterPropertiesVersion = 2117;
// fs2open's POF 21.18: each gun and missile point carries an external angle offset (a float) after
// its normal. The chunk spec predates it; the 2301 samples have it.
constexpr int32_t kGunAngleVersion = 2118;
constexpr int32_t kTranslationVersion = 2301;

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llX", static_cast<unsigned long long>(v));
    return buf;
}

std::string num(uint64_t v) {
    return std::to_string(v);
}

std::string numText(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    return buf;
}

// A vector in the file's axes, for the inspector.
std::string vecText(const glm::vec3& v) {
    return "(" + numText(v.x) + ", " + numText(v.y) + ", " + numText(v.z) + ")";
}

// A chunk id as text: printable bytes as they are, others as \xNN.
std::string chunkName(const uint8_t* id) { return printableBytes(id, 4); }

uint32_t fourcc(const char* s) {
    return static_cast<uint32_t>(static_cast<uint8_t>(s[0])) |
           static_cast<uint32_t>(static_cast<uint8_t>(s[1])) << 8 |
           static_cast<uint32_t>(static_cast<uint8_t>(s[2])) << 16 |
           static_cast<uint32_t>(static_cast<uint8_t>(s[3])) << 24;
}

glm::vec3 vec3(ByteReader& r) {
    const float x = r.f32();
    const float y = r.f32();
    const float z = r.f32();
    return {x, y, z};
}

// The display axes: POF is left-handed, the viewer right-handed (pof-bsp-notes.md, Axes).
glm::vec3 toDisplay(const glm::vec3& v) {
    return {v.x, v.y, -v.z};
}

struct Subobject {
    std::string chunk;  // "chunk OBJ2" or "chunk SOBJ", for messages
    PofExtras::Subobject info;
    BspData bsp;
    bool bspUsable = false;
};

// "chunk OBJ2 / subobject 3 'turret01'": where a subobject's problems are reported.
std::string subobjectPlace(const Subobject& s) {
    return s.chunk + " / subobject " + std::to_string(s.info.number) + " '" + s.info.name + "'";
}

std::string lowerCase(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// What the parts of Reader::build share: nodes by subobject number, parents, texture slots.
struct BuildState {
    std::map<int32_t, int32_t> nodeOf;        // subobject number -> node
    std::vector<int32_t> parent;              // node -> parent node, -1 for a root
    std::vector<uint32_t> slotOfTexture;      // texture -> material slot, kTextureNotDrawn if invisible
    std::vector<std::string> invisibleNames;  // quoted, for the info line
    uint64_t invisiblePolygons = 0, invisibleSubobjects = 0;
    std::vector<int32_t> allMaterials;  // one per TXTR name: a mesh node's material list
    int32_t fallbackMaterial = -1;      // "(no texture)", added when a mesh first needs it

    // The node of a subobject number; -1 when no subobject has it.
    int32_t nodeFor(int32_t number) const {
        auto it = nodeOf.find(number);
        return it == nodeOf.end() ? -1 : it->second;
    }
};

class Reader {
public:
    Reader(const std::string& path, const LoadOptions& options, Scene& scene, std::vector<Problem>& problems)
        : m_scene(scene), m_diag(path, options, scene, problems) {}

    void run(const std::vector<uint8_t>& bytes);
    bool failed() const { return m_diag.failed(); }

private:
    // Diagnostics (loaders/diagnostics.h).
    void fatal(uint64_t offset, const std::string& where, const std::string& message) {
        m_diag.fatal(offset, where, message);
    }
    void violation(uint64_t offset, const std::string& where, const std::string& message) {
        m_diag.violation(offset, where, message);
    }
    // A problem inside the current chunk: fatal in the header, texture list and subobject
    // fields (m_essential), a violation elsewhere.
    void chunkProblem(uint64_t offset, const std::string& where, const std::string& message);

    // Reads a count of items at least `minItemSize` bytes each; false (after a problem) when it is
    // negative or the items cannot fit in what is left of the chunk.
    bool count(ByteReader& r, const std::string& where, const char* what, size_t minItemSize, uint32_t& out,
               bool allowMinusOne = false);
    // A POF string (int32 length, then that many bytes, maybe NUL-padded).
    bool string(ByteReader& r, const std::string& where, const char* what, std::string& out);
    // Reports a read that ran past the end of the chunk (`r` failed) or bytes left unread.
    bool finish(ByteReader& r, const std::string& where, bool essential);

    void readHeader(ByteReader r, const std::string& where);
    void readTextures(ByteReader r, const std::string& where);
    void readInfo(ByteReader r);
    void readPaths(ByteReader r, const std::string& where);
    void readSpecialPoints(ByteReader r, const std::string& where);
    void readShield(ByteReader r, const std::string& where);
    void readEyes(ByteReader r, const std::string& where);
    void readFiringPoints(ByteReader r, const std::string& where,
                          std::vector<std::vector<PofExtras::FiringPoint>>& out);
    void readTurrets(ByteReader r, const std::string& where, bool missile);
    void readDocks(ByteReader r, const std::string& where);
    void readThrusters(ByteReader r, const std::string& where);
    void readSubobject(ByteReader r, const std::string& where);
    void readInsignia(ByteReader r, const std::string& where);
    void readAutoCenter(ByteReader r, const std::string& where);
    void readGlowBanks(ByteReader r, const std::string& where);
    void readShieldTree(ByteReader r, const std::string& where, const std::string& id);

    void build();
    void buildMaterials();
    void keepFirstSubobjects(BuildState& b);
    void linkParents(BuildState& b);
    void breakParentLoops(BuildState& b);
    void markLodsAndDebris(BuildState& b);
    void markDrawn(const BuildState& b);
    void findInvisibleTextures(BuildState& b);
    void buildNode(int32_t i, BuildState& b);
    void checkPolygonTextures(const Subobject& s);
    void addNodeAttributes(const PofExtras::Subobject& o, Node& node) const;
    void attachMesh(Subobject& s, Node& node, BuildState& b);
    void reportInvisible(const BuildState& b);

    Scene& m_scene;
    Diagnostics m_diag;
    std::shared_ptr<PofExtras> m_pof = std::make_shared<PofExtras>();
    std::vector<Subobject> m_subobjects;
    int32_t m_version = 0;
    int32_t m_headerSubobjects = -1;  // the count the header states
    bool m_haveHeader = false, m_haveTextures = false;
    uint64_t m_headerOffset = 0;
    std::string m_headerName = "OHDR";
    bool m_essential = false;      // the current chunk cannot be done without
    bool m_chunkReported = false;  // a problem of the current chunk is already reported
};

// ---------------------------------------------------------------------------------------------
// Diagnostics

void Reader::chunkProblem(uint64_t offset, const std::string& where, const std::string& message) {
    m_chunkReported = true;
    if (m_essential)
        fatal(offset, where, message);
    else
        violation(offset, where, message);
}

bool Reader::count(ByteReader& r, const std::string& where, const char* what, size_t minItemSize,
                   uint32_t& out, bool allowMinusOne) {
    const uint64_t at = r.offset();
    const int32_t n = r.i32();
    out = 0;
    if (!r.ok()) return false;
    if (n == -1 && allowMinusOne) return true;
    if (n < 0) {
        chunkProblem(at, where, std::string(what) + " count " + std::to_string(n) + " is negative");
        r.fail();
        return false;
    }
    if (!r.canReadArray(static_cast<uint64_t>(n), minItemSize)) {
        chunkProblem(at, where,
                     std::string(what) + " count " + std::to_string(n) + " needs at least " +
                         num(uint64_t(n) * minItemSize) + " bytes; the chunk has " + num(r.remaining()) +
                         " left");
        r.fail();
        return false;
    }
    out = static_cast<uint32_t>(n);
    return true;
}

bool Reader::string(ByteReader& r, const std::string& where, const char* what, std::string& out) {
    const uint64_t at = r.offset();
    const int32_t length = r.i32();
    if (!r.ok()) return false;
    if (length < 0 || static_cast<uint64_t>(length) > r.remaining()) {
        chunkProblem(at, where,
                     std::string(what) + " length " + std::to_string(length) + " does not fit in the " +
                         num(r.remaining()) + " bytes left of the chunk");
        r.fail();
        return false;
    }
    out = r.string(static_cast<size_t>(length));
    return true;
}

bool Reader::finish(ByteReader& r, const std::string& where, bool essential) {
    if (!r.ok()) {
        // count() and string() report their own failures before failing the reader; a plain read
        // past the end is reported here.
        if (!m_chunkReported) {
            m_essential = essential;
            chunkProblem(r.offset(), where,
                         "the chunk ends before its fields do (" + num(r.size()) + " bytes)");
        }
        return false;
    }
    if (!r.atEnd())
        violation(r.offset(), where, num(r.remaining()) + " bytes after the chunk's fields are not read");
    return true;
}

// ---------------------------------------------------------------------------------------------
// Chunks

void Reader::readHeader(ByteReader r, const std::string& where) {
    PofExtras& p = *m_pof;
    uint32_t subobjects = 0;
    if (m_version >= kFs2FieldOrder) {
        p.maxRadius = r.f32();
        p.flags = r.i32();
        subobjects = r.u32();
    } else {
        subobjects = r.u32();
        p.maxRadius = r.f32();
        p.flags = r.i32();
    }
    m_headerSubobjects = static_cast<int32_t>(subobjects);
    p.boundsMin = vec3(r);
    p.boundsMax = vec3(r);
    uint32_t n = 0;
    bool ok = r.ok() && count(r, where, "detail level", 4, n);
    for (uint32_t i = 0; ok && i < n; ++i) p.detailLevels.push_back(r.i32());
    ok = ok && count(r, where, "debris", 4, n);
    for (uint32_t i = 0; ok && i < n; ++i) p.debris.push_back(r.i32());
    if (ok && m_version >= kMassVersion) {
        p.mass = r.f32();
        p.massCenter = vec3(r);
        for (int row = 0; row < 3; ++row)
            for (int col = 0; col < 3; ++col) p.momentOfInertia[row][col] = r.f32();
    }
    if (ok && r.ok() && m_version >= kCrossSectionVersion) {
        // -1 (not 0) when there is no cross-section data.
        ok = count(r, where, "cross section", 8, n, true);
        if (ok) {
            p.crossSectionCount = static_cast<int32_t>(n);
            if (n == 0) std::memcpy(&p.crossSectionCount, r.current() - 4, 4);
            for (uint32_t i = 0; i < n; ++i) {
                const float depth = r.f32();
                const float radius = r.f32();
                p.crossSections.push_back({depth, radius});
            }
        }
    }
    if (ok && r.ok() && m_version >= kMuzzleLightVersion) {
        ok = count(r, where, "muzzle light", 16, n);
        for (uint32_t i = 0; ok && i < n; ++i) {
            PofExtras::MuzzleLight l;
            l.location = vec3(r);
            l.type = r.i32();
            p.muzzleLights.push_back(l);
        }
    }
    if (!ok) r.fail();
    finish(r, where, true);
}

void Reader::readTextures(ByteReader r, const std::string& where) {
    uint32_t n = 0;
    if (!count(r, where, "texture", 4, n)) return (void)finish(r, where, true);
    for (uint32_t i = 0; i < n; ++i) {
        std::string name;
        if (!string(r, where, "texture name", name)) return (void)finish(r, where, true);
        m_pof->textureNames.push_back(std::move(name));
    }
    finish(r, where, true);
}

void Reader::readInfo(ByteReader r) {
    // NUL-separated strings filling the chunk.
    const char* text = reinterpret_cast<const char*>(r.data());
    size_t start = 0;
    for (size_t i = 0; i <= r.size(); ++i) {
        if (i == r.size() || text[i] == '\0') {
            if (i > start) m_pof->info.emplace_back(text + start, i - start);
            start = i + 1;
        }
    }
}

void Reader::readPaths(ByteReader r, const std::string& where) {
    uint32_t n = 0;
    if (!count(r, where, "path", 12, n)) return (void)finish(r, where, false);
    for (uint32_t i = 0; i < n; ++i) {
        PofExtras::Path path;
        uint32_t verts = 0;
        if (!string(r, where, "path name", path.name) || !string(r, where, "path parent", path.parent) ||
            !count(r, where, "path vertex", 20, verts))
            return (void)finish(r, where, false);
        for (uint32_t v = 0; v < verts; ++v) {
            PofExtras::PathVertex pv;
            pv.position = vec3(r);
            pv.radius = r.f32();
            uint32_t turrets = 0;
            if (!count(r, where, "path turret", 4, turrets)) return (void)finish(r, where, false);
            for (uint32_t t = 0; t < turrets; ++t) pv.turrets.push_back(r.i32());
            path.vertices.push_back(std::move(pv));
        }
        m_pof->paths.push_back(std::move(path));
    }
    finish(r, where, false);
}

void Reader::readSpecialPoints(ByteReader r, const std::string& where) {
    uint32_t n = 0;
    if (!count(r, where, "special point", 24, n)) return (void)finish(r, where, false);
    for (uint32_t i = 0; i < n; ++i) {
        PofExtras::SpecialPoint s;
        if (!string(r, where, "special point name", s.name) ||
            !string(r, where, "special point properties", s.properties))
            return (void)finish(r, where, false);
        s.point = vec3(r);
        s.radius = r.f32();
        if (!r.ok()) return (void)finish(r, where, false);
        m_pof->specialPoints.push_back(std::move(s));
    }
    finish(r, where, false);
}

void Reader::readShield(ByteReader r, const std::string& where) {
    PofExtras& p = *m_pof;
    p.hasShield = true;
    uint32_t n = 0;
    if (!count(r, where, "shield vertex", 12, n)) return (void)finish(r, where, false);
    p.shieldVertices.reserve(n);
    for (uint32_t i = 0; i < n; ++i) p.shieldVertices.push_back(vec3(r));
    const uint64_t facesAt = r.offset();
    if (!count(r, where, "shield face", 36, n)) return (void)finish(r, where, false);
    p.shieldFaces.reserve(n);
    bool reported = false;
    for (uint32_t i = 0; i < n; ++i) {
        PofExtras::ShieldFace f;
        f.normal = vec3(r);
        for (auto& v : f.vertices) v = r.i32();
        for (auto& v : f.neighbors) v = r.i32();
        for (int32_t v : f.vertices)
            if (!reported && (v < 0 || static_cast<size_t>(v) >= p.shieldVertices.size())) {
                violation(facesAt, where,
                          "shield face " + num(i) + " uses vertex " + std::to_string(v) + " of " +
                              num(p.shieldVertices.size()));
                reported = true;
            }
        p.shieldFaces.push_back(f);
    }
    finish(r, where, false);
}

void Reader::readEyes(ByteReader r, const std::string& where) {
    uint32_t n = 0;
    if (!count(r, where, "eye point", 28, n)) return (void)finish(r, where, false);
    for (uint32_t i = 0; i < n; ++i) {
        PofExtras::EyePoint e;
        e.subobject = r.i32();
        e.offset = vec3(r);
        e.normal = vec3(r);
        m_pof->eyePoints.push_back(e);
    }
    finish(r, where, false);
}

void Reader::readFiringPoints(ByteReader r, const std::string& where,
                              std::vector<std::vector<PofExtras::FiringPoint>>& out) {
    uint32_t slots = 0;
    if (!count(r, where, "slot", 4, slots)) return (void)finish(r, where, false);
    for (uint32_t s = 0; s < slots; ++s) {
        uint32_t guns = 0;
        const bool angle = m_version >= kGunAngleVersion;
        if (!count(r, where, "gun", angle ? 28 : 24, guns)) return (void)finish(r, where, false);
        std::vector<PofExtras::FiringPoint> slot;
        slot.reserve(guns);
        for (uint32_t g = 0; g < guns; ++g) {
            PofExtras::FiringPoint f;
            f.position = vec3(r);
            f.normal = vec3(r);
            if (angle) f.externalAngleOffset = r.f32();
            slot.push_back(f);
        }
        out.push_back(std::move(slot));
    }
    finish(r, where, false);
}

void Reader::readTurrets(ByteReader r, const std::string& where, bool missile) {
    uint32_t banks = 0;
    if (!count(r, where, "turret bank", 24, banks)) return (void)finish(r, where, false);
    for (uint32_t b = 0; b < banks; ++b) {
        PofExtras::TurretBank bank;
        bank.missile = missile;
        bank.subobject = r.i32();
        bank.physicalParent = r.i32();
        bank.normal = vec3(r);
        uint32_t points = 0;
        if (!r.ok() || !count(r, where, "firing point", 12, points)) return (void)finish(r, where, false);
        for (uint32_t i = 0; i < points; ++i) bank.points.push_back(vec3(r));
        m_pof->turrets.push_back(std::move(bank));
    }
    finish(r, where, false);
}

void Reader::readDocks(ByteReader r, const std::string& where) {
    uint32_t n = 0;
    if (!count(r, where, "dock", 12, n)) return (void)finish(r, where, false);
    for (uint32_t i = 0; i < n; ++i) {
        PofExtras::Dock d;
        uint32_t paths = 0, points = 0;
        if (!string(r, where, "dock properties", d.properties) || !count(r, where, "dock path", 4, paths))
            return (void)finish(r, where, false);
        for (uint32_t k = 0; k < paths; ++k) d.paths.push_back(r.i32());
        if (!count(r, where, "dock point", 24, points)) return (void)finish(r, where, false);
        for (uint32_t k = 0; k < points; ++k) {
            PofExtras::FiringPoint f;
            f.position = vec3(r);
            f.normal = vec3(r);
            d.points.push_back(f);
        }
        m_pof->docks.push_back(std::move(d));
    }
    finish(r, where, false);
}

void Reader::readThrusters(ByteReader r, const std::string& where) {
    uint32_t n = 0;
    if (!count(r, where, "thruster", 4, n)) return (void)finish(r, where, false);
    for (uint32_t i = 0; i < n; ++i) {
        PofExtras::Thruster t;
        uint32_t glows = 0;
        const uint64_t at = r.offset();
        const int32_t stored = r.i32();
        if (!r.ok()) return (void)finish(r, where, false);
        if (m_version >= kThrusterPropertiesVersion && !string(r, where, "thruster properties", t.properties))
            return (void)finish(r, where, false);
        if (stored < 0 || !r.canReadArray(static_cast<uint64_t>(stored), 28)) {
            violation(at, where,
                      "glow count " + std::to_string(stored) + " does not fit in the " + num(r.remaining()) +
                          " bytes left of the chunk");
            r.fail();
            return (void)finish(r, where, false);
        }
        glows = static_cast<uint32_t>(stored);
        for (uint32_t g = 0; g < glows; ++g) {
            PofExtras::Glow glow;
            glow.position = vec3(r);
            glow.normal = vec3(r);
            glow.radius = r.f32();
            t.glows.push_back(glow);
        }
        m_pof->thrusters.push_back(std::move(t));
    }
    finish(r, where, false);
}

void Reader::readSubobject(ByteReader r, const std::string& where) {
    Subobject s;
    s.chunk = where;
    PofExtras::Subobject& o = s.info;
    o.offsetInFile = r.offset() - 8;
    o.number = r.i32();
    if (m_version >= kFs2FieldOrder) {
        o.radius = r.f32();
        o.parent = r.i32();
        o.offset = vec3(r);
    } else {
        o.parent = r.i32();
        o.offset = vec3(r);
        o.radius = r.f32();
    }
    o.center = vec3(r);
    o.boundsMin = vec3(r);
    o.boundsMax = vec3(r);
    const std::string sub = where + " / subobject " + std::to_string(o.number);
    if (!r.ok() || !string(r, sub, "name", o.name) || !string(r, sub, "properties", o.properties))
        return (void)finish(r, sub, true);
    const std::string named = sub + " '" + o.name + "'";
    o.movementType = r.i32();
    o.movementAxis = r.i32();
    if (m_version >= kTranslationVersion) {
        o.translationType = r.i32();
        o.translationAxis = r.i32();
    }
    const uint64_t reservedAt = r.offset();
    const int32_t reserved = r.i32();
    const uint64_t sizeAt = r.offset();
    const int32_t bspSize = r.i32();
    if (!r.ok()) return (void)finish(r, named, true);
    if (reserved != 0)
        violation(reservedAt, named, "the reserved field is " + std::to_string(reserved) + ", not 0");
    if (bspSize < 0 || static_cast<uint64_t>(bspSize) > r.remaining()) {
        fatal(sizeAt, named,
              "BSP size " + std::to_string(bspSize) + " does not fit in the " + num(r.remaining()) +
                  " bytes left of the chunk");
        return;
    }
    const uint64_t bspAt = r.offset();
    ByteReader bsp = r.sub(static_cast<size_t>(bspSize));
    if (!r.atEnd())
        violation(r.offset(), named, num(r.remaining()) + " bytes after the BSP data are not read");

    std::vector<BspProblem> problems;
    s.bspUsable = decodeBsp(bsp.data(), bsp.size(), bspAt, m_version, s.bsp, problems);
    for (const BspProblem& p : problems) violation(p.offset, named + " / BSP", p.message);
    if (!s.bspUsable && problems.empty()) violation(bspAt, named + " / BSP", "the BSP data cannot be used");
    o.texturedPolygons = s.bsp.texturedPolygons;
    o.flatPolygons = s.bsp.flatPolygons;
    m_subobjects.push_back(std::move(s));
}

void Reader::readInsignia(ByteReader r, const std::string& where) {
    uint32_t n = 0;
    if (!count(r, where, "insignia", 12, n)) return (void)finish(r, where, false);
    for (uint32_t i = 0; i < n; ++i) {
        PofExtras::Insignia ins;
        ins.detailLevel = r.i32();
        uint32_t faces = 0, verts = 0;
        if (!r.ok() || !count(r, where, "insignia face", 36, faces)) return (void)finish(r, where, false);
        // The faces follow the vertices and the offset: both counts must fit together.
        if (!count(r, where, "insignia vertex", 12, verts)) return (void)finish(r, where, false);
        if (!r.canReadArray(uint64_t(faces) + verts + 1, 12)) {
            violation(r.offset(), where, "insignia " + num(i) + " does not fit in the chunk");
            r.fail();
            return (void)finish(r, where, false);
        }
        for (uint32_t v = 0; v < verts; ++v) ins.vertices.push_back(vec3(r));
        ins.offset = vec3(r);
        bool reported = false;
        for (uint32_t f = 0; f < faces; ++f) {
            std::array<PofExtras::InsigniaCorner, 3> face{};
            for (auto& c : face) {
                c.vertex = r.i32();
                c.u = r.f32();
                c.v = r.f32();
                if (r.ok() && !reported && (c.vertex < 0 || static_cast<uint32_t>(c.vertex) >= verts)) {
                    violation(r.offset() - 12, where,
                              "insignia " + num(i) + " face " + num(f) + " uses vertex " +
                                  std::to_string(c.vertex) + " of " + num(verts));
                    reported = true;
                }
            }
            ins.faces.push_back(face);
        }
        m_pof->insignia.push_back(std::move(ins));
    }
    finish(r, where, false);
}

void Reader::readAutoCenter(ByteReader r, const std::string& where) {
    m_pof->autoCenter = vec3(r);
    m_pof->hasAutoCenter = r.ok();
    finish(r, where, false);
}

void Reader::readGlowBanks(ByteReader r, const std::string& where) {
    uint32_t n = 0;
    if (!count(r, where, "glow bank", 32, n)) return (void)finish(r, where, false);
    for (uint32_t i = 0; i < n; ++i) {
        PofExtras::GlowBank b;
        b.dispTime = r.i32();
        b.onTime = r.i32();
        b.offTime = r.i32();
        b.parent = r.i32();
        b.lod = r.i32();
        b.type = r.i32();
        uint32_t points = 0;
        const uint64_t at = r.offset();
        const int32_t stored = r.i32();
        if (!r.ok() || !string(r, where, "glow bank properties", b.properties))
            return (void)finish(r, where, false);
        if (stored < 0 || !r.canReadArray(static_cast<uint64_t>(stored), 28)) {
            violation(at, where,
                      "glow point count " + std::to_string(stored) + " does not fit in the " +
                          num(r.remaining()) + " bytes left of the chunk");
            r.fail();
            return (void)finish(r, where, false);
        }
        points = static_cast<uint32_t>(stored);
        for (uint32_t p = 0; p < points; ++p) {
            PofExtras::Glow g;
            g.position = vec3(r);
            g.normal = vec3(r);
            g.radius = r.f32();
            b.points.push_back(g);
        }
        m_pof->glowBanks.push_back(std::move(b));
    }
    finish(r, where, false);
}

void Reader::readShieldTree(ByteReader r, const std::string& where, const std::string& id) {
    const uint64_t at = r.offset();
    const uint32_t size = r.u32();
    if (!r.ok()) return (void)finish(r, where, false);
    if (size > r.remaining()) {
        violation(at, where,
                  "tree size " + num(size) + " does not fit in the " + num(r.remaining()) +
                      " bytes left of the chunk");
        return;
    }
    m_pof->shieldTreeChunk = id;
    m_pof->shieldTreeBytes = size;
    // The nodes follow each other: type (0 split, 1 leaf), size (the whole node), box, then a
    // split's front and back offsets (from the node) or a leaf's face list. One problem per tree.
    ByteReader tree = r.sub(size);
    const bool faces = m_pof->hasShield;
    while (!tree.atEnd()) {
        const uint64_t nodeAt = tree.offset();
        const size_t nodeStart = tree.position();
        const uint8_t type = tree.u8();
        const uint32_t nodeSize = tree.u32();
        tree.skip(24);
        std::string problem;
        if (!tree.ok() || nodeSize < 29 || nodeSize - 5 > tree.remaining() + 24) {
            problem = "node size " + num(nodeSize) + " does not fit in the tree";
        } else if (type == 0) {
            const uint32_t front = tree.u32();
            const uint32_t back = tree.u32();
            if (nodeSize != 37)
                problem = "split node size " + num(nodeSize) + " is not 37";
            else if (front >= size - nodeStart || back >= size - nodeStart)
                problem = "split node offsets " + num(front) + " and " + num(back) + " leave the tree";
        } else if (type == 1) {
            const uint32_t count = tree.u32();
            if (!tree.ok() || nodeSize != 33 + uint64_t(count) * 4) {
                problem = "leaf node size " + num(nodeSize) + " does not hold " + num(count) + " faces";
            } else {
                for (uint32_t i = 0; i < count && problem.empty(); ++i) {
                    const uint32_t face = tree.u32();
                    if (faces && face >= m_pof->shieldFaces.size())
                        problem = "leaf node uses shield face " + num(face) + " of " +
                                  num(m_pof->shieldFaces.size());
                }
            }
        } else {
            problem = "node type " + num(type) + " is neither split (0) nor leaf (1)";
        }
        if (!problem.empty()) {
            violation(nodeAt, where, problem);
            break;
        }
        ++m_pof->shieldTreeNodes;
        tree.seek(nodeStart + nodeSize);
    }
    finish(r, where, false);
}

// ---------------------------------------------------------------------------------------------
// The file

void Reader::run(const std::vector<uint8_t>& bytes) {
    ByteReader r(bytes.data(), bytes.size());
    uint8_t magic[4] = {0, 0, 0, 0};
    if (!r.bytes(magic, 4) || std::memcmp(magic, "PSPO", 4) != 0) {
        fatal(0, "header", "the file does not start with PSPO");
        return;
    }
    m_version = r.i32();
    if (!r.ok()) {
        fatal(4, "header", "the file ends before its version");
        return;
    }
    m_pof->version = m_version;
    if (m_version < 1900 || m_version > 2301)
        violation(4, "header", "version " + std::to_string(m_version) + " is outside the known 1900..2301");

    while (!r.atEnd() && !m_diag.failed()) {
        const uint64_t at = r.offset();
        if (r.remaining() < 8) {
            violation(
                at, "",
                num(r.remaining()) + " bytes at the end are too few for a chunk header; they are ignored");
            break;
        }
        uint8_t id[4];
        r.bytes(id, 4);
        const int32_t length = r.i32();
        const std::string name = chunkName(id);
        const std::string where = "chunk " + name;
        uint32_t code = 0;
        std::memcpy(&code, id, 4);
        if (length < 0 || static_cast<uint64_t>(length) > r.remaining()) {
            fatal(at, where,
                  "length " + std::to_string(length) + " runs past the end of the file (" +
                      num(r.remaining()) + " bytes left)");
            break;
        }
        ByteReader chunk = r.sub(static_cast<size_t>(length));
        m_chunkReported = false;
        m_essential = code == fourcc("OHDR") || code == fourcc("HDR2") || code == fourcc("TXTR") ||
                      code == fourcc("SOBJ") || code == fourcc("OBJ2");
        if (code == fourcc("OHDR") || code == fourcc("HDR2")) {
            if (m_haveHeader) {
                violation(at, where,
                          "a second header chunk (the first is at " + hex(m_headerOffset) + ") is ignored");
                continue;
            }
            m_haveHeader = true;
            m_headerOffset = at;
            m_headerName = where;
            readHeader(chunk, where);
        } else if (code == fourcc("TXTR")) {
            if (m_haveTextures) {
                violation(at, where, "a second texture list is ignored");
                continue;
            }
            m_haveTextures = true;
            readTextures(chunk, where);
        } else if (code == fourcc("PINF")) {
            readInfo(chunk);
        } else if (code == fourcc("PATH")) {
            readPaths(chunk, where);
        } else if (code == fourcc("SPCL")) {
            readSpecialPoints(chunk, where);
        } else if (code == fourcc("SHLD")) {
            readShield(chunk, where);
        } else if (code == fourcc(" EYE") || code == fourcc("EYE ")) {
            readEyes(chunk, where);
        } else if (code == fourcc("GPNT")) {
            readFiringPoints(chunk, where, m_pof->gunSlots);
        } else if (code == fourcc("MPNT")) {
            readFiringPoints(chunk, where, m_pof->missileSlots);
        } else if (code == fourcc("TGUN") || code == fourcc("TMIS")) {
            readTurrets(chunk, where, code == fourcc("TMIS"));
        } else if (code == fourcc("DOCK")) {
            readDocks(chunk, where);
        } else if (code == fourcc("FUEL")) {
            readThrusters(chunk, where);
        } else if (code == fourcc("SOBJ") || code == fourcc("OBJ2")) {
            readSubobject(chunk, where);
        } else if (code == fourcc("INSG")) {
            readInsignia(chunk, where);
        } else if (code == fourcc("ACEN")) {
            readAutoCenter(chunk, where);
        } else if (code == fourcc("GLOW")) {
            readGlowBanks(chunk, where);
        } else if (code == fourcc("SLDC") || code == fourcc("SLC2")) {
            readShieldTree(chunk, where, name);
        } else {
            m_pof->skippedChunks.push_back(name);
            m_diag.info(offsetText(at) + ": unknown chunk '" + name + "' (" + num(uint64_t(length)) +
                        " bytes) skipped");
        }
    }
    if (m_diag.failed()) return;
    if (!m_haveHeader) {
        fatal(8, "", "the file has no header chunk (OHDR or HDR2)");
        return;
    }
    build();
}

// Nodes (one per subobject, in subobject number order), meshes, materials and what is drawn.
void Reader::build() {
    PofExtras& p = *m_pof;
    m_scene.format = "pof";
    // Ships point their nose along the file's +Z (pof-bsp-notes.md, Axes): -Z in display axes.
    m_scene.front = toDisplay({0.0f, 0.0f, 1.0f});
    buildMaterials();

    BuildState b;
    keepFirstSubobjects(b);
    linkParents(b);
    breakParentLoops(b);
    markLodsAndDebris(b);
    markDrawn(b);
    findInvisibleTextures(b);
    for (int32_t i = 0; i < static_cast<int32_t>(m_subobjects.size()); ++i) buildNode(i, b);
    reportInvisible(b);
    if (p.lod0Node < 0 && !p.detailLevels.empty()) m_diag.warn("LOD0 names no subobject: nothing is drawn");

    for (Subobject& s : m_subobjects) p.subobjects.push_back(s.info);
    m_subobjects.clear();
    m_diag.info("POF version " + std::to_string(m_version) + ": " + num(p.subobjects.size()) +
                " subobjects, " + num(p.detailLevels.size()) + " detail levels, " + num(p.debris.size()) +
                " debris");
    m_diag.finish();
    m_scene.pof = m_pof;
}

// One texture and one material per TXTR name; the texture lookup tries the image extensions.
void Reader::buildMaterials() {
    const PofExtras& p = *m_pof;
    for (size_t i = 0; i < p.textureNames.size(); ++i) {
        Texture t;
        t.name = p.textureNames[i];
        t.path = p.textureNames[i];
        m_scene.textures.push_back(std::move(t));
        Material m;
        m.name = p.textureNames[i];
        m.diffuse = glm::vec3(1.0f);
        m.ambient = glm::vec3(0.2f);
        m.texture(TextureSlot::Diffuse).texture = static_cast<int32_t>(i);
        // Exporters mark see-through textures by name (pof-bsp-notes.md).
        if (lowerCase(m.name).find("-trans") != std::string::npos) {
            m.blend.enabled = true;
            m.blend.srcRgb = m.blend.srcAlpha = BlendFactor::SrcAlpha;
            m.blend.dstRgb = m.blend.dstAlpha = BlendFactor::OneMinusSrcAlpha;
        }
        m_scene.materials.push_back(std::move(m));
    }
}

// Checks the header's subobject count, sorts subobjects by number and keeps the first of each.
void Reader::keepFirstSubobjects(BuildState& b) {
    if (m_headerSubobjects != static_cast<int32_t>(m_subobjects.size()))
        violation(m_headerOffset, m_headerName,
                  "the header counts " + std::to_string(m_headerSubobjects) + " subobjects; the file has " +
                      num(m_subobjects.size()) + " subobject chunks");

    // Subobjects in number order; a number seen twice keeps its first chunk.
    std::stable_sort(m_subobjects.begin(), m_subobjects.end(),
                     [](const Subobject& x, const Subobject& y) { return x.info.number < y.info.number; });
    std::vector<Subobject> kept;
    kept.reserve(m_subobjects.size());
    for (Subobject& s : m_subobjects) {
        if (b.nodeOf.count(s.info.number)) {
            violation(s.info.offsetInFile, s.chunk + " / subobject " + std::to_string(s.info.number),
                      "subobject number " + std::to_string(s.info.number) +
                          " is used twice; this chunk is ignored");
            continue;
        }
        b.nodeOf[s.info.number] = static_cast<int32_t>(kept.size());
        kept.push_back(std::move(s));
    }
    m_subobjects = std::move(kept);
}

// Each node's parent from its subobject's parent number; unknown and self parents are dropped.
void Reader::linkParents(BuildState& b) {
    const int32_t count = static_cast<int32_t>(m_subobjects.size());
    b.parent.assign(count, -1);
    for (int32_t i = 0; i < count; ++i) {
        const PofExtras::Subobject& o = m_subobjects[i].info;
        if (o.parent == -1) continue;
        const int32_t node = b.nodeFor(o.parent);
        if (node < 0 || node == i) {
            violation(o.offsetInFile, subobjectPlace(m_subobjects[i]),
                      "parent " + std::to_string(o.parent) +
                          (node == i ? " is the subobject itself" : " is not a subobject"));
            continue;
        }
        b.parent[i] = node;
    }
}

// Parent chains that loop lose the link where each looping node is found (Floyd's cycle check).
void Reader::breakParentLoops(BuildState& b) {
    std::vector<int32_t>& parent = b.parent;
    for (int32_t i = 0; i < static_cast<int32_t>(m_subobjects.size()); ++i) {
        int32_t slow = i, fast = i;
        while (fast >= 0 && parent[fast] >= 0) {
            slow = parent[slow];
            fast = parent[parent[fast]];
            if (fast >= 0 && slow == fast) {
                violation(m_subobjects[i].info.offsetInFile, subobjectPlace(m_subobjects[i]),
                          "its parent chain loops; the link to its parent is dropped");
                parent[i] = -1;
                break;
            }
        }
    }
}

// Marks the header's detail level roots and debris on their subobjects; picks the LOD0 node.
void Reader::markLodsAndDebris(BuildState& b) {
    PofExtras& p = *m_pof;
    const int32_t count = static_cast<int32_t>(m_subobjects.size());
    for (size_t l = 0; l < p.detailLevels.size(); ++l) {
        const int32_t node = b.nodeFor(p.detailLevels[l]);
        if (node < 0)
            violation(m_headerOffset, m_headerName,
                      "detail level " + num(l) + " names subobject " + std::to_string(p.detailLevels[l]) +
                          ", which the file does not have");
        else if (m_subobjects[node].info.detailLevel < 0)
            m_subobjects[node].info.detailLevel = static_cast<int32_t>(l);
    }
    for (size_t d = 0; d < p.debris.size(); ++d) {
        const int32_t node = b.nodeFor(p.debris[d]);
        if (node < 0)
            violation(m_headerOffset, m_headerName,
                      "debris " + num(d) + " names subobject " + std::to_string(p.debris[d]) +
                          ", which the file does not have");
        else
            m_subobjects[node].info.debris = true;
    }
    p.lod0Node = p.detailLevels.empty() ? (count > 0 ? 0 : -1) : b.nodeFor(p.detailLevels[0]);
    if (p.detailLevels.empty() && count > 0)
        m_diag.info("the header lists no detail levels: the first subobject is drawn as LOD0");
}

// The default drawn set: the LOD0 root and its descendants, no debris.
void Reader::markDrawn(const BuildState& b) {
    const int32_t count = static_cast<int32_t>(m_subobjects.size());
    const int32_t lod0 = m_pof->lod0Node;
    for (int32_t i = 0; i < count && lod0 >= 0; ++i) {
        if (m_subobjects[i].info.debris) continue;
        int32_t n = i;
        for (int32_t steps = 0; n >= 0 && n != lod0 && steps <= count; ++steps) n = b.parent[n];
        m_subobjects[i].info.drawn = n == lod0;
    }
}

// FreeSpace loads no image for a texture whose name contains "invisible" (any case) and draws
// no polygon that uses it (fs2open model_load_texture; also "thruster" and "warpmap", which the
// game draws by other means and this reader leaves as they are).
void Reader::findInvisibleTextures(BuildState& b) {
    const PofExtras& p = *m_pof;
    b.slotOfTexture.resize(p.textureNames.size());
    for (size_t t = 0; t < b.slotOfTexture.size(); ++t) {
        const bool invisible = lowerCase(p.textureNames[t]).find("invisible") != std::string::npos;
        b.slotOfTexture[t] = invisible ? kTextureNotDrawn : static_cast<uint32_t>(t);
        if (invisible) {
            b.invisibleNames.push_back("'" + p.textureNames[t] + "'");
            m_scene.textures[t].notDrawn = true;
        }
    }
    b.allMaterials.resize(p.textureNames.size());
    for (size_t t = 0; t < b.allMaterials.size(); ++t) b.allMaterials[t] = static_cast<int32_t>(t);
}

// The scene node of subobject i, with its attributes and its BSP mesh; counts invisible polygons.
void Reader::buildNode(int32_t i, BuildState& b) {
    Subobject& s = m_subobjects[i];
    const PofExtras::Subobject& o = s.info;
    checkPolygonTextures(s);
    if (!b.invisibleNames.empty() && s.bspUsable) {
        uint64_t hidden = 0;
        for (const BspPolygon& poly : s.bsp.polygons)
            hidden += !poly.flat && poly.texture >= 0 &&
                      static_cast<size_t>(poly.texture) < b.slotOfTexture.size() &&
                      b.slotOfTexture[static_cast<size_t>(poly.texture)] == kTextureNotDrawn;
        b.invisiblePolygons += hidden;
        b.invisibleSubobjects += hidden > 0;
    }
    Node node;
    node.name = o.name;
    node.parent = b.parent[i];
    node.local.translation = toDisplay(o.offset);
    node.visible = o.drawn;
    addNodeAttributes(o, node);
    attachMesh(s, node, b);
    m_scene.nodes.push_back(std::move(node));
}

// Reports the first textured polygon whose texture is not in the TXTR list.
void Reader::checkPolygonTextures(const Subobject& s) {
    const size_t textures = m_pof->textureNames.size();
    for (const BspPolygon& poly : s.bsp.polygons)
        if (!poly.flat && (poly.texture < 0 || static_cast<size_t>(poly.texture) >= textures)) {
            violation(poly.offset, subobjectPlace(s) + " / BSP",
                      "texture " + std::to_string(poly.texture) + " is not in the texture list (" +
                          num(textures) + " names); the first material is used");
            break;
        }
}

// The subobject's fields as node attributes, for the inspector.
void Reader::addNodeAttributes(const PofExtras::Subobject& o, Node& node) const {
    node.attributes.push_back({"subobject", "int", std::to_string(o.number)});
    if (!o.properties.empty()) node.attributes.push_back({"properties", "string", o.properties});
    node.attributes.push_back(
        {"movement", "int", std::to_string(o.movementType) + " axis " + std::to_string(o.movementAxis)});
    if (m_version >= kTranslationVersion)
        node.attributes.push_back(
            {"translation", "int",
             std::to_string(o.translationType) + " axis " + std::to_string(o.translationAxis)});
    node.attributes.push_back({"radius", "float", numText(o.radius)});
    node.attributes.push_back({"geometric centre", "vector", vecText(o.center)});
    node.attributes.push_back(
        {"bounds", "vector pair", vecText(o.boundsMin) + " .. " + vecText(o.boundsMax)});
    if (o.detailLevel >= 0) node.attributes.push_back({"detail level", "int", std::to_string(o.detailLevel)});
    if (o.debris) node.attributes.push_back({"debris", "bool", "true"});
}

// Builds the subobject's BSP mesh and makes the node draw it (all TXTR materials, plus a
// "(no texture)" one where the mesh has more slots than names).
void Reader::attachMesh(Subobject& s, Node& node, BuildState& b) {
    PofExtras::Subobject& o = s.info;
    if (!s.bspUsable || s.bsp.texturedPolygons == 0) return;
    Mesh mesh = buildBspMesh(s.bsp, b.slotOfTexture, o.name);
    if (mesh.vertexCount == 0) return;
    o.mesh = static_cast<int32_t>(m_scene.meshes.size());
    o.triangles = triangleCount(mesh);
    uint32_t slots = 0;
    for (const Submesh& sm : mesh.submeshes) slots = std::max(slots, sm.materialSlot + 1);
    node.kind = NodeKind::Mesh;
    node.object = o.mesh;
    node.materials = b.allMaterials;
    if (node.materials.size() < slots || node.materials.empty()) {
        if (b.fallbackMaterial < 0) {
            b.fallbackMaterial = static_cast<int32_t>(m_scene.materials.size());
            Material m;
            m.name = "(no texture)";
            m_scene.materials.push_back(std::move(m));
        }
        node.materials.resize(std::max<size_t>(slots, 1), b.fallbackMaterial);
    }
    m_scene.meshes.push_back(std::move(mesh));
}

// One info line naming the invisible textures and how many polygons they hide.
void Reader::reportInvisible(const BuildState& b) {
    if (b.invisibleNames.empty()) return;
    std::string names;
    for (size_t i = 0; i < b.invisibleNames.size(); ++i) names += (i ? ", " : "") + b.invisibleNames[i];
    const bool one = b.invisibleNames.size() == 1;
    m_diag.info(std::string(one ? "texture " : "textures ") + names + (one ? " is" : " are") +
                " invisible (the name contains \"invisible\"; FreeSpace draws no polygon using it): " +
                num(b.invisiblePolygons) + " polygon" + (b.invisiblePolygons == 1 ? "" : "s") + " in " +
                num(b.invisibleSubobjects) + " subobject" + (b.invisibleSubobjects == 1 ? "" : "s") +
                " not drawn");
}

}  // namespace
}  // namespace pof

LoadResult loadPof(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                   const LoadOptions& options) {
    LoadResult result;
    auto scene = std::make_unique<Scene>();
    try {
        pof::Reader reader(path, options, *scene, result.problems);
        reader.run(*bytes);
        if (reader.failed() && result.problems.empty())
            result.problems.push_back({path, -1, 0, 0, "", "the file cannot be read"});
    } catch (const std::bad_alloc&) {
        result.problems.push_back({path, -1, 0, 0, "", "out of memory while reading the file"});
    }
    if (result.problems.empty()) result.scene = std::move(scene);
    return result;
}

}  // namespace esv
