// What a POF file (FreeSpace ship model) holds beyond drawable geometry: the header, subobject
// properties, detail levels, debris and the points the game uses (guns, missiles, turrets, docks,
// thrusters, eye points, paths, special points, glow banks, insignia, the shield mesh). The POF
// reader fills it (Scene::pof) for the panel and `info`; nothing else reads it.
//
// Everything here is in the file's own axes (left-handed: +X right, +Y up, +Z forward) and units;
// the scene's nodes and meshes are the display conversion (x, y, z) -> (x, y, -z) of the same data.
// Subobjects are referred to by their file numbers (SOBJ/OBJ2 submodel_number), -1 = none.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace esv {

struct PofExtras {
    int32_t version = 0;  // Major*100+Minor (2117 = FreeSpace 2)

    // OHDR / HDR2.
    float maxRadius = 0.0f;
    int32_t flags = 0;
    glm::vec3 boundsMin{0.0f}, boundsMax{0.0f};
    std::vector<int32_t> detailLevels;  // subobject number of each LOD root, LOD0 first
    std::vector<int32_t> debris;        // subobject numbers
    float mass = 0.0f;                  // version >= 1903
    glm::vec3 massCenter{0.0f};
    glm::mat3 momentOfInertia{0.0f};  // rows as stored
    struct CrossSection {
        float depth = 0.0f, radius = 0.0f;
    };
    int32_t crossSectionCount = -1;  // as stored: -1 = no cross-section data (version >= 2014)
    std::vector<CrossSection> crossSections;
    struct MuzzleLight {
        glm::vec3 location{0.0f};
        int32_t type = 0;
    };
    std::vector<MuzzleLight> muzzleLights;  // version >= 2007

    // SOBJ / OBJ2, in scene node order (subobject i is scene node i).
    struct Subobject {
        int32_t number = -1;
        int32_t parent = -1;  // subobject number as stored
        float radius = 0.0f;
        glm::vec3 offset{0.0f};  // from the parent
        glm::vec3 center{0.0f};  // geometric centre
        glm::vec3 boundsMin{0.0f}, boundsMax{0.0f};
        std::string name, properties;
        int32_t movementType = -1, movementAxis = -1;
        int32_t translationType = -1, translationAxis = -1;  // version >= 2301
        int32_t mesh = -1;                                   // Scene::meshes index; -1: nothing textured
        uint32_t texturedPolygons = 0, flatPolygons = 0, triangles = 0;
        int32_t detailLevel = -1;  // index into detailLevels when this is a LOD root
        bool debris = false;
        bool drawn = false;         // in the default drawn set (LOD0 and its descendants, no debris)
        uint64_t offsetInFile = 0;  // of the chunk, for messages
    };
    std::vector<Subobject> subobjects;
    int32_t lod0Node = -1;  // scene node of the LOD0 root (-1: none)

    std::vector<std::string> textureNames;  // TXTR, in tmap_num order
    std::vector<std::string> info;          // PINF: the tool's NUL-separated strings

    struct PathVertex {
        glm::vec3 position{0.0f};
        float radius = 0.0f;
        std::vector<int32_t> turrets;  // subobject numbers
    };
    struct Path {
        std::string name, parent;
        std::vector<PathVertex> vertices;
    };
    std::vector<Path> paths;

    struct SpecialPoint {
        std::string name, properties;
        glm::vec3 point{0.0f};
        float radius = 0.0f;
    };
    std::vector<SpecialPoint> specialPoints;

    struct ShieldFace {
        glm::vec3 normal{0.0f};
        std::array<int32_t, 3> vertices{};
        std::array<int32_t, 3> neighbors{};
    };
    bool hasShield = false;
    std::vector<glm::vec3> shieldVertices;
    std::vector<ShieldFace> shieldFaces;
    std::string shieldTreeChunk;   // "SLDC" or "SLC2" when present
    uint32_t shieldTreeBytes = 0;  // its tree_size
    uint32_t shieldTreeNodes = 0;  // nodes walked and checked (the tree is not kept)

    struct EyePoint {
        int32_t subobject = -1;
        glm::vec3 offset{0.0f}, normal{0.0f};
    };
    std::vector<EyePoint> eyePoints;

    struct FiringPoint {
        glm::vec3 position{0.0f}, normal{0.0f};
        float externalAngleOffset = 0.0f;  // GPNT/MPNT from version 2118 (fs2open); docks: 0
    };
    std::vector<std::vector<FiringPoint>> gunSlots;      // GPNT: slots, each its guns
    std::vector<std::vector<FiringPoint>> missileSlots;  // MPNT

    struct TurretBank {
        bool missile = false;  // TMIS (else TGUN)
        int32_t subobject = -1, physicalParent = -1;
        glm::vec3 normal{0.0f};
        std::vector<glm::vec3> points;  // in the turret subobject's frame
    };
    std::vector<TurretBank> turrets;

    struct Dock {
        std::string properties;
        std::vector<int32_t> paths;  // indices into `paths`
        std::vector<FiringPoint> points;
    };
    std::vector<Dock> docks;

    struct Glow {
        glm::vec3 position{0.0f}, normal{0.0f};
        float radius = 0.0f;
    };
    struct Thruster {
        std::string properties;  // version >= 2117
        std::vector<Glow> glows;
    };
    std::vector<Thruster> thrusters;

    struct InsigniaCorner {
        int32_t vertex = 0;
        float u = 0.0f, v = 0.0f;
    };
    struct Insignia {
        int32_t detailLevel = 0;
        std::vector<glm::vec3> vertices;
        glm::vec3 offset{0.0f};
        std::vector<std::array<InsigniaCorner, 3>> faces;
    };
    std::vector<Insignia> insignia;

    bool hasAutoCenter = false;
    glm::vec3 autoCenter{0.0f};  // ACEN

    struct GlowBank {
        int32_t dispTime = 0, onTime = 0, offTime = 0;
        int32_t parent = -1, lod = 0, type = 0;
        std::string properties;
        std::vector<Glow> points;
    };
    std::vector<GlowBank> glowBanks;

    std::vector<std::string> skippedChunks;  // ids of unknown chunks, in file order
};

}  // namespace esv
