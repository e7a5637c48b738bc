#include "app/viewer/pof_view.h"

#include <cmath>
#include <cstdio>

#include <glm/gtc/matrix_transform.hpp>

namespace esv {
namespace {

constexpr const char* kKindNames[] = {"guns",      "missiles", "turrets",  "docks",
                                      "thrusters", "eyes",     "specials", "glows"};
static_assert(sizeof(kKindNames) / sizeof(kKindNames[0]) == static_cast<size_t>(PofMarkerKind::Count));

// Follows PofMarkerKind order.
constexpr glm::vec4 kMarkerColors[] = {
    {1.0f, 0.31f, 0.24f, 1.0f},  // guns
    {1.0f, 0.67f, 0.16f, 1.0f},  // missiles
    {0.63f, 0.51f, 1.0f, 1.0f},  // turrets (violet: magenta is the missing-texture checker)
    {0.31f, 1.0f, 0.47f, 1.0f},  // docks
    {0.31f, 0.67f, 1.0f, 1.0f},  // thrusters
    {1.0f, 1.0f, 1.0f, 1.0f},    // eyes
    {1.0f, 0.94f, 0.35f, 1.0f},  // specials
    {0.47f, 1.0f, 1.0f, 1.0f},   // glows
};
static_assert(sizeof(kMarkerColors) / sizeof(kMarkerColors[0]) == static_cast<size_t>(PofMarkerKind::Count));

constexpr int32_t kMovementRotate = 1;         // FreeSpace MOVEMENT_TYPE_ROT
constexpr int32_t kMovementRotateSpecial = 2;  // MOVEMENT_TYPE_ROT_SPECIAL

bool drawnNode(const Pose& pose, int node) {
    return node >= 0 && static_cast<size_t>(node) < pose.visible.size() && pose.visible[node];
}

// World matrix of subobject `number`, identity (model coordinates) for -1; false when the
// subobject is named but missing or not drawn.
bool subobjectFrame(const Scene& scene, const Pose& pose, int32_t number, glm::mat4& frame) {
    frame = glm::mat4(1.0f);
    if (number < 0) return true;
    const int node = pofSubobjectNode(*scene.pof, number);
    if (!drawnNode(pose, node) || static_cast<size_t>(node) >= pose.world.size()) return false;
    frame = pose.world[node];
    return true;
}

glm::vec3 placePoint(const glm::mat4& frame, const glm::vec3& filePoint) {
    return glm::vec3(frame * glm::vec4(pofToDisplay(filePoint), 1.0f));
}

glm::vec3 placeNormal(const glm::mat4& frame, const glm::vec3& fileNormal) {
    const glm::vec3 n = glm::mat3(frame) * pofToDisplay(fileNormal);
    const float length = glm::length(n);
    return length > 1e-12f && std::isfinite(length) ? n / length : glm::vec3(0.0f);
}

std::string format(const char* pattern, int a, int b = 0) {
    char text[96];
    std::snprintf(text, sizeof(text), pattern, a, b);
    return text;
}

}  // namespace

glm::vec4 pofMarkerColor(PofMarkerKind kind) {
    const size_t k = static_cast<size_t>(kind);
    return k < static_cast<size_t>(PofMarkerKind::Count) ? kMarkerColors[k] : glm::vec4(1.0f);
}

const char* pofMarkerKindName(PofMarkerKind kind) {
    const size_t k = static_cast<size_t>(kind);
    return k < static_cast<size_t>(PofMarkerKind::Count) ? kKindNames[k] : "?";
}

bool parsePofMarkerKind(const std::string& name, PofMarkerKind& kind) {
    for (size_t k = 0; k < static_cast<size_t>(PofMarkerKind::Count); ++k)
        if (name == kKindNames[k]) {
            kind = PofMarkerKind(k);
            return true;
        }
    return false;
}

int pofSubobjectNode(const PofExtras& pof, int32_t number) {
    if (number < 0) return -1;
    // Subobjects are usually numbered by their position: try that first.
    if (static_cast<size_t>(number) < pof.subobjects.size() && pof.subobjects[number].number == number)
        return number;
    for (size_t i = 0; i < pof.subobjects.size(); ++i)
        if (pof.subobjects[i].number == number) return static_cast<int>(i);
    return -1;
}

bool pofSpinAxis(const PofExtras& pof, int node, glm::vec3& displayAxis) {
    if (node < 0 || static_cast<size_t>(node) >= pof.subobjects.size()) return false;
    const PofExtras::Subobject& subobject = pof.subobjects[node];
    if (subobject.movementType == kMovementRotate || subobject.movementType == kMovementRotateSpecial) {
        switch (subobject.movementAxis) {
            case 0:
                displayAxis = glm::vec3(1, 0, 0);
                return true;
            case 1:
                displayAxis = pofToDisplay(glm::vec3(0, 0, 1));
                return true;
            case 2:
                displayAxis = glm::vec3(0, 1, 0);
                return true;
            default:
                break;
        }
    }
    // Turrets turn whatever their movement fields say: the base about the turret normal, a barrel
    // that is a separate subobject about its X axis (elevation). The files (and fs2open) name the
    // base first (sobj_parent, the frame of the firing points) and the barrel second (sobj_par_phys),
    // the other way round from the chunk notes.
    for (const PofExtras::TurretBank& bank : pof.turrets) {
        const int base = pofSubobjectNode(pof, bank.subobject),
                  barrel = pofSubobjectNode(pof, bank.physicalParent);
        if (node == base) {
            const float length = glm::length(bank.normal);
            displayAxis = length > 1e-6f && std::isfinite(length) ? pofToDisplay(bank.normal / length)
                                                                  : glm::vec3(0, 1, 0);
            return true;
        }
        if (node == barrel) {
            displayAxis = glm::vec3(1, 0, 0);
            return true;
        }
    }
    return false;
}

glm::mat4 pofSpinMatrix(const glm::vec3& displayAxis, float degrees) {
    return glm::rotate(glm::mat4(1.0f), -glm::radians(degrees), displayAxis);
}

void pofDrawnNodes(const Scene& scene, int lod, bool debris, std::vector<uint8_t>& drawn) {
    const size_t count = scene.nodes.size();
    drawn.assign(count, 0);
    if (!scene.pof) return;
    const PofExtras& pof = *scene.pof;
    std::vector<uint8_t> root(count, 0);
    if (lod >= 0 && static_cast<size_t>(lod) < pof.detailLevels.size()) {
        const int node = pofSubobjectNode(pof, pof.detailLevels[lod]);
        if (node >= 0 && static_cast<size_t>(node) < count) root[node] = 1;
    } else if (lod == 0 && pof.detailLevels.empty() && pof.lod0Node >= 0 &&
               static_cast<size_t>(pof.lod0Node) < count) {
        root[pof.lod0Node] = 1;
    }
    std::vector<uint8_t> debrisRoot(count, 0);
    for (size_t i = 0; i < pof.subobjects.size() && i < count; ++i)
        if (pof.subobjects[i].debris) debrisRoot[i] = 1;
    for (size_t i = 0; i < count; ++i) {
        // Walk up to a LOD root or a debris subobject; the step cap guards against parent loops.
        int n = static_cast<int>(i);
        for (size_t steps = 0; n >= 0 && static_cast<size_t>(n) < count && steps <= count; ++steps) {
            if (debrisRoot[n]) {
                drawn[i] = debris;
                break;
            }
            if (root[n]) {
                drawn[i] = 1;
                break;
            }
            n = scene.nodes[n].parent;
        }
    }
}

void applyPofView(const Scene& scene, const PofViewState& view, Pose& pose) {
    if (!scene.pof) return;
    const size_t count = scene.nodes.size();
    if (pose.visible.size() != count || pose.local.size() != count || pose.world.size() != count) return;
    std::vector<uint8_t> drawn;
    pofDrawnNodes(scene, view.lod, view.debris, drawn);
    for (size_t i = 0; i < count; ++i) pose.visible[i] = drawn[i];

    bool spun = false;
    std::vector<glm::mat4> extra(count, glm::mat4(1.0f));
    std::vector<uint8_t> hasExtra(count, 0);
    for (size_t i = 0; i < count && i < view.spinDegrees.size() && i < scene.pof->subobjects.size(); ++i) {
        glm::vec3 axis;
        if (view.spinDegrees[i] == 0.0f || !std::isfinite(view.spinDegrees[i]) ||
            !pofSpinAxis(*scene.pof, static_cast<int>(i), axis))
            continue;
        extra[i] = pofSpinMatrix(axis, view.spinDegrees[i]);
        hasExtra[i] = 1;
        spun = true;
    }
    if (!spun) return;
    // World matrices again, parents first whatever the node order (parent loops end at the cap).
    std::vector<uint8_t> done(count, 0);
    std::vector<int> chain;
    for (size_t i = 0; i < count; ++i) {
        chain.clear();
        int n = static_cast<int>(i);
        while (n >= 0 && static_cast<size_t>(n) < count && !done[n] && chain.size() <= count) {
            chain.push_back(n);
            n = scene.nodes[n].parent;
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const int node = *it;
            if (done[node]) continue;
            glm::mat4 local = pose.local[node].toMatrix();
            if (hasExtra[node]) local = local * extra[node];
            const int parent = scene.nodes[node].parent;
            pose.world[node] = parent >= 0 && static_cast<size_t>(parent) < count && done[parent]
                                   ? pose.world[parent] * local
                                   : local;
            if (node < static_cast<int>(pose.objectWorld.size()) &&
                node < static_cast<int>(pose.objectLocal.size()))
                pose.objectWorld[node] = pose.world[node] * pose.objectLocal[node];
            done[node] = 1;
        }
    }
}

bool pofGlowBankLit(const PofExtras::GlowBank& bank, double seconds) {
    if (bank.onTime <= 0 || bank.offTime <= 0) return true;
    const double period = double(bank.onTime) + double(bank.offTime);
    double phase = std::fmod(seconds * 1000.0 - double(bank.dispTime), period);
    if (phase < 0.0) phase += period;
    return phase < double(bank.onTime);
}

void pofMarkers(const Scene& scene, const Pose& pose, const PofViewState& view, bool allKinds,
                std::vector<PofMarker>& markers, std::vector<PofPolyline>& lines) {
    markers.clear();
    lines.clear();
    if (!scene.pof) return;
    const PofExtras& pof = *scene.pof;
    auto on = [&](PofMarkerKind k) { return allKinds || view.marker(k); };
    const glm::mat4 model(1.0f);
    auto add = [&](PofMarkerKind kind, std::string label, const glm::mat4& frame, const glm::vec3& point,
                   const glm::vec3& normal, float radius, bool lit) {
        PofMarker m;
        m.kind = kind;
        m.label = std::move(label);
        m.position = placePoint(frame, point);
        m.normal = placeNormal(frame, normal);
        m.radius = radius > 0.0f && std::isfinite(radius) ? radius : 0.0f;
        m.lit = lit;
        markers.push_back(std::move(m));
    };
    auto subobjectName = [&](int32_t number) {
        const int node = pofSubobjectNode(pof, number);
        return node >= 0 ? " on '" + pof.subobjects[node].name + "'" : std::string();
    };

    for (int missile = 0; missile < 2; ++missile) {
        const PofMarkerKind kind = missile ? PofMarkerKind::Missiles : PofMarkerKind::Guns;
        if (!on(kind)) continue;
        const auto& slots = missile ? pof.missileSlots : pof.gunSlots;
        for (size_t s = 0; s < slots.size(); ++s)
            for (size_t g = 0; g < slots[s].size(); ++g)
                add(kind,
                    format(missile ? "missile slot %d point %d" : "gun slot %d point %d", int(s), int(g)),
                    model, slots[s][g].position, slots[s][g].normal, 0.0f, true);
    }
    if (on(PofMarkerKind::Turrets)) {
        for (size_t b = 0; b < pof.turrets.size(); ++b) {
            const PofExtras::TurretBank& bank = pof.turrets[b];
            glm::mat4 frame;
            if (!subobjectFrame(scene, pose, bank.subobject, frame)) continue;
            for (size_t p = 0; p < bank.points.size(); ++p)
                add(PofMarkerKind::Turrets,
                    format(bank.missile ? "missile turret %d point %d" : "gun turret %d point %d", int(b),
                           int(p)) +
                        subobjectName(bank.subobject),
                    frame, bank.points[p], bank.normal, 0.0f, true);
        }
    }
    if (on(PofMarkerKind::Docks)) {
        for (size_t d = 0; d < pof.docks.size(); ++d) {
            const PofExtras::Dock& dock = pof.docks[d];
            const std::string name =
                format("dock %d", int(d)) + (dock.properties.empty() ? "" : " " + dock.properties);
            for (size_t p = 0; p < dock.points.size(); ++p)
                add(PofMarkerKind::Docks, name + format(" point %d", int(p)), model, dock.points[p].position,
                    dock.points[p].normal, 0.0f, true);
            for (int32_t path : dock.paths) {
                if (path < 0 || static_cast<size_t>(path) >= pof.paths.size()) continue;
                PofPolyline line;
                line.kind = PofMarkerKind::Docks;
                line.label = name + " path '" + pof.paths[path].name + "'";
                for (const PofExtras::PathVertex& v : pof.paths[path].vertices)
                    line.points.push_back(placePoint(model, v.position));
                lines.push_back(std::move(line));
            }
        }
    }
    if (on(PofMarkerKind::Thrusters)) {
        for (size_t t = 0; t < pof.thrusters.size(); ++t)
            for (size_t g = 0; g < pof.thrusters[t].glows.size(); ++g) {
                const PofExtras::Glow& glow = pof.thrusters[t].glows[g];
                add(PofMarkerKind::Thrusters, format("thruster %d glow %d", int(t), int(g)), model,
                    glow.position, glow.normal, glow.radius, true);
            }
    }
    if (on(PofMarkerKind::Eyes)) {
        for (size_t e = 0; e < pof.eyePoints.size(); ++e) {
            glm::mat4 frame;
            if (!subobjectFrame(scene, pose, pof.eyePoints[e].subobject, frame)) continue;
            add(PofMarkerKind::Eyes,
                format("eye point %d", int(e)) + subobjectName(pof.eyePoints[e].subobject), frame,
                pof.eyePoints[e].offset, pof.eyePoints[e].normal, 0.0f, true);
        }
    }
    if (on(PofMarkerKind::Specials)) {
        for (const PofExtras::SpecialPoint& sp : pof.specialPoints)
            add(PofMarkerKind::Specials, "special point " + sp.name, model, sp.point, glm::vec3(0.0f),
                sp.radius, true);
    }
    if (on(PofMarkerKind::Glows)) {
        for (size_t b = 0; b < pof.glowBanks.size(); ++b) {
            const PofExtras::GlowBank& bank = pof.glowBanks[b];
            glm::mat4 frame;
            if (!subobjectFrame(scene, pose, bank.parent, frame)) continue;
            const bool lit = pofGlowBankLit(bank, view.clockSeconds);
            const std::string name = format("glow bank %d (on %d ms", int(b), bank.onTime) +
                                     format(", off %d ms)", bank.offTime) + subobjectName(bank.parent);
            for (size_t p = 0; p < bank.points.size(); ++p)
                add(PofMarkerKind::Glows, name + format(" point %d", int(p)), frame, bank.points[p].position,
                    bank.points[p].normal, bank.points[p].radius, lit);
        }
    }
}

void pofAnnotations(const std::vector<PofMarker>& markers, const std::vector<PofPolyline>& lines,
                    const glm::vec3& cameraRight, const glm::vec3& cameraUp, float normalLength, bool xray,
                    Annotations& out) {
    out.lines.clear();
    out.points.clear();
    out.throughSurfaces = xray;
    out.pointSize = 7.0f;
    auto segment = [&](const glm::vec3& a, const glm::vec3& b, const glm::vec4& color) {
        out.lines.push_back({a, color});
        out.lines.push_back({b, color});
    };
    for (const PofPolyline& line : lines)
        for (size_t i = 0; i + 1 < line.points.size(); ++i)
            segment(line.points[i], line.points[i + 1], pofMarkerColor(line.kind));
    constexpr int kCircleSegments = 24;
    for (const PofMarker& m : markers) {
        const glm::vec4 color = m.lit ? pofMarkerColor(m.kind) : kPofUnlitColor;
        out.points.push_back({m.position, color});
        if (m.normal != glm::vec3(0.0f)) segment(m.position, m.position + m.normal * normalLength, color);
        if (m.radius > 0.0f)
            for (int i = 0; i < kCircleSegments; ++i) {
                const float a0 = 6.2831853f * float(i) / kCircleSegments;
                const float a1 = 6.2831853f * float(i + 1) / kCircleSegments;
                segment(m.position + m.radius * (std::cos(a0) * cameraRight + std::sin(a0) * cameraUp),
                        m.position + m.radius * (std::cos(a1) * cameraRight + std::sin(a1) * cameraUp),
                        color);
            }
    }
}

void pofFrameAnnotations(const Scene& scene, const Pose& pose, const PofViewState& view,
                         const glm::mat4& cameraToWorld, float normalLength, Annotations& out) {
    out.lines.clear();
    out.points.clear();
    if (!scene.pof || pose.world.size() != scene.nodes.size()) return;
    std::vector<PofMarker> markers;
    std::vector<PofPolyline> lines;
    pofMarkers(scene, pose, view, false, markers, lines);
    pofAnnotations(markers, lines, glm::normalize(glm::vec3(cameraToWorld[0])),
                   glm::normalize(glm::vec3(cameraToWorld[1])), normalLength, view.xray, out);
    if (view.shield) {
        std::vector<glm::vec3> segments;
        pofShieldEdges(*scene.pof, segments);
        for (const glm::vec3& p : segments) out.lines.push_back({p, kPofShieldColor});
    }
}

void pofShieldEdges(const PofExtras& pof, std::vector<glm::vec3>& segments) {
    segments.clear();
    const size_t count = pof.shieldVertices.size();
    for (const PofExtras::ShieldFace& face : pof.shieldFaces) {
        bool valid = true;
        for (int32_t v : face.vertices) valid = valid && v >= 0 && static_cast<size_t>(v) < count;
        if (!valid) continue;
        for (int e = 0; e < 3; ++e) {
            segments.push_back(pofToDisplay(pof.shieldVertices[face.vertices[e]]));
            segments.push_back(pofToDisplay(pof.shieldVertices[face.vertices[(e + 1) % 3]]));
        }
    }
}

}  // namespace esv
