// File-level tests: every sample AWD file in ../shared/models/awd loads, and the scene holds the
// facts read from the file itself: scene-graph nodes, mesh instances, materials, textures (six per
// cube texture), light types, cameras, each geometry's vertices and triangles, and the box at rest.
// The numbers come from samples_expected.py, an independent decoder written from the spec (`python3
// samples_expected.py --cpp DIR` prints the table below; without --cpp it prints the facts). A
// PrimitiveGeometry's counts and vertices come from awd_primitives (tested on its own against
// Away3D's tessellation) with the properties and world matrices the script decoded.
#include <array>
#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/awd/awd_primitives.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv {
namespace {

struct MeshFact {
    const char* name;
    uint32_t vertices, triangles;  // TriangleGeometry; 0 for a primitive
    uint32_t primitive;            // PrimitiveGeometry type id, 0 for a TriangleGeometry
    std::vector<std::pair<uint16_t, double>> properties;
};
struct InstanceFact {
    int mesh;                      // a PrimitiveGeometry
    std::array<float, 16> world;   // column-major, at rest
};
struct FileFact {
    const char* file;
    size_t bytes;
    size_t nodes, meshInstances, materials, textures, cameras;
    uint32_t triangles;  // of the TriangleGeometry blocks
    std::vector<LightType> lights;
    std::vector<MeshFact> meshes;
    std::vector<InstanceFact> primitives;
    bool hasBox;
    glm::vec3 min, max;  // TriangleGeometry vertices (and summarised sphere instances) at rest
};

// clang-format off
const std::vector<FileFact> kFacts = {
    {"001.awd", 153915, 13, 9, 1, 1, 0, 3286,
     {},
     {
         {"level_1", 9247, 3176, 0, {}},
         {"Plane.000", 4, 2, 0, {}},
         {"Plane.003", 4, 2, 0, {}},
         {"Plane_008", 4, 2, 0, {}},
         {"Plane.002", 4, 2, 0, {}},
         {"Plane.014", 4, 2, 0, {}},
         {"Plane.013", 4, 2, 0, {}},
         {"Plane.010", 4, 2, 0, {}},
         {"Plane.005", 240, 96, 0, {}},
     },
     {
     },
     true, {-18.35379981994629f, -11.556500911712646f, -1.4999999403953552f}, {16.40730094909668f, 11.600100040435791f, 3.0000006397577863f}},
    {"ContainerHirarchy.awd", 2779, 99, 81, 1, 0, 0, 144,
     {LightType::Directional},
     {
         {"Cylinder 0", 148, 144, 0, {}},
     },
     {
     },
     true, {-1116.0250015086167f, -290.62585638758094f, -1116.0249973535538f}, {1116.0249973535538f, 320.0000092580374f, 1116.0249973535538f}},
    {"ContainerTest.awd", 1602, 29, 16, 7, 1, 0, 0,
     {LightType::Directional},
     {
         {"SphereGeometry1", 0, 0, 3, {{101, 125.0}, {301, 20.0}, {302, 20.0}}},
         {"ConeGeometry1", 0, 0, 5, {{101, 100.0}, {102, 150.0}, {701, 0.0}}},
         {"CubeGeometry1", 0, 0, 2, {}},
         {"ConeGeometry1", 0, 0, 5, {{102, 250.0}, {701, 0.0}}},
         {"SphereGeometry1", 0, 0, 3, {}},
         {"CylinderGeometry1", 0, 0, 4, {{101, 10.0}, {102, 10.0}, {103, 500.0}}},
     },
     {
         {0, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 275.0f, 0.0f, 1.0f}},
         {1, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 405.0f, 0.0f, 1.0f}},
         {2, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 275.0f, 140.0f, 1.0f}},
         {2, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 275.0f, -140.0f, 1.0f}},
         {2, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, -140.0f, 275.0f, 0.0f, 1.0f}},
         {2, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 140.0f, 275.0f, 0.0f, 1.0f}},
         {3, {0.8213937282562256f, -0.3830223083496094f, -0.4226183295249939f, 0.0f, 0.5448945760726929f, 0.7459114193916321f, 0.3830223083496094f, 0.0f, 0.16852977871894836f, -0.5448945760726929f, 0.8213937282562256f, 0.0f, -254.4894576072693f, -74.59114193916321f, -238.30223083496094f, 1.0f}},
         {4, {0.8213937282562256f, -0.3830223083496094f, -0.4226183295249939f, 0.0f, 0.5448945760726929f, 0.7459114193916321f, 0.3830223083496094f, 0.0f, 0.16852977871894836f, -0.5448945760726929f, 0.8213937282562256f, 0.0f, -200.0f, 0.0f, -200.0f, 1.0f}},
         {3, {0.8213937282562256f, 0.3830223083496094f, -0.4226183295249939f, 0.0f, -0.5448945760726929f, 0.7459114193916321f, -0.3830223083496094f, 0.0f, 0.16852977871894836f, 0.5448945760726929f, 0.8213937282562256f, 0.0f, 254.4894576072693f, -74.59114193916321f, 238.30223083496094f, 1.0f}},
         {4, {0.8213937282562256f, 0.3830223083496094f, -0.4226183295249939f, 0.0f, -0.5448945760726929f, 0.7459114193916321f, -0.3830223083496094f, 0.0f, 0.16852977871894836f, 0.5448945760726929f, 0.8213937282562256f, 0.0f, 200.0f, 0.0f, 200.0f, 1.0f}},
         {3, {0.24359315633773804f, -0.589747965335846f, -0.7699738144874573f, 0.0f, 0.5328214168548584f, 0.7447290420532227f, -0.4018458425998688f, 0.0f, 0.8104096055030823f, -0.3123716711997986f, 0.49564123153686523f, 0.0f, -253.28214168548584f, -74.47290420532227f, 240.18458425998688f, 1.0f}},
         {4, {0.24359315633773804f, -0.589747965335846f, -0.7699738144874573f, 0.0f, 0.5328214168548584f, 0.7447290420532227f, -0.4018458425998688f, 0.0f, 0.8104096055030823f, -0.3123716711997986f, 0.49564123153686523f, 0.0f, -200.0f, 0.0f, 200.0f, 1.0f}},
         {3, {0.8213937282562256f, 0.3830223083496094f, 0.4226183295249939f, 0.0f, -0.5448945760726929f, 0.7459114193916321f, 0.3830223083496094f, 0.0f, -0.16852977871894836f, -0.5448945760726929f, 0.8213937282562256f, 0.0f, 254.4894576072693f, -74.59114193916321f, -238.30223083496094f, 1.0f}},
         {4, {0.8213937282562256f, 0.3830223083496094f, 0.4226183295249939f, 0.0f, -0.5448945760726929f, 0.7459114193916321f, 0.3830223083496094f, 0.0f, -0.16852977871894836f, -0.5448945760726929f, 0.8213937282562256f, 0.0f, 200.0f, 0.0f, -200.0f, 1.0f}},
         {5, {0.7071067094802856f, 0.0f, 0.7071068286895752f, 0.0f, -0.7071068286895752f, -4.371138828673793e-08f, 0.7071067094802856f, 0.0f, 3.0908619663705394e-08f, -1.0f, -3.0908616110991716e-08f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f}},
         {5, {0.7071067094802856f, 0.0f, -0.7071068286895752f, 0.0f, 0.7071068286895752f, -4.371138828673793e-08f, 0.7071067094802856f, 0.0f, -3.0908619663705394e-08f, -1.0f, -3.0908616110991716e-08f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f}},
     },
     false, {}, {}},
    {"Head_PhongSpec.awd", 1449821, 2, 1, 1, 3, 0, 17684,
     {LightType::Directional},
     {
         {"Head", 9333, 17684, 0, {}},
     },
     {
     },
     true, {-452.739990234375f, -430.5400085449219f, -266.20001220703125f}, {453.8399963378906f, 411.6400146484375f, 282.9599914550781f}},
    {"MaxAWDWorkflow.awd", 274411, 57, 57, 13, 1, 0, 8794,
     {},
     {
         {"Bip01_geom", 6, 8, 0, {}},
         {"Bip01 Footsteps_geom", 9, 8, 0, {}},
         {"Bip01 Pelvis_geom", 8, 12, 0, {}},
         {"Bip01 Spine_geom", 16, 24, 0, {}},
         {"Bip01 Spine1_geom", 16, 24, 0, {}},
         {"Bip01 Spine2_geom", 16, 24, 0, {}},
         {"Bip01 Neck_geom", 8, 12, 0, {}},
         {"Bip01 Head_geom", 37, 70, 0, {}},
         {"Bip01 L Clavicle_geom", 8, 12, 0, {}},
         {"Bip01 L UpperArm_geom", 16, 28, 0, {}},
         {"Bip01 L Forearm_geom", 12, 20, 0, {}},
         {"Bip01 L Hand_geom", 8, 12, 0, {}},
         {"Bip01 L Finger0_geom", 8, 12, 0, {}},
         {"Bip01 L Finger01_geom", 8, 12, 0, {}},
         {"Bip01 L Finger02_geom", 8, 12, 0, {}},
         {"Bip01 L Finger1_geom", 8, 12, 0, {}},
         {"Bip01 L Finger11_geom", 8, 12, 0, {}},
         {"Bip01 L Finger12_geom", 8, 12, 0, {}},
         {"Bip01 L Finger2_geom", 8, 12, 0, {}},
         {"Bip01 L Finger21_geom", 8, 12, 0, {}},
         {"Bip01 L Finger22_geom", 8, 12, 0, {}},
         {"Bip01 R Clavicle_geom", 8, 12, 0, {}},
         {"Bip01 R UpperArm_geom", 16, 28, 0, {}},
         {"Bip01 R Forearm_geom", 12, 20, 0, {}},
         {"Bip01 R Hand_geom", 8, 12, 0, {}},
         {"Bip01 R Finger0_geom", 8, 12, 0, {}},
         {"Bip01 R Finger01_geom", 8, 12, 0, {}},
         {"Bip01 R Finger02_geom", 8, 12, 0, {}},
         {"Bip01 R Finger1_geom", 8, 12, 0, {}},
         {"Bip01 R Finger11_geom", 8, 12, 0, {}},
         {"Bip01 R Finger12_geom", 8, 12, 0, {}},
         {"Bip01 R Finger2_geom", 8, 12, 0, {}},
         {"Bip01 R Finger21_geom", 8, 12, 0, {}},
         {"Bip01 R Finger22_geom", 8, 12, 0, {}},
         {"Bip01 L Thigh_geom", 16, 28, 0, {}},
         {"Bip01 L Calf_geom", 12, 20, 0, {}},
         {"Bip01 L Foot_geom", 8, 12, 0, {}},
         {"Bip01 L Toe0_geom", 8, 12, 0, {}},
         {"Bip01 R Thigh_geom", 16, 28, 0, {}},
         {"Bip01 R Calf_geom", 12, 20, 0, {}},
         {"Bip01 R Foot_geom", 8, 12, 0, {}},
         {"Bip01 R Toe0_geom", 8, 12, 0, {}},
         {"ONKBA-Corps-lnew_geom", 4416, 7840, 0, {}},
         {"NGon006_geom", 6, 4, 0, {}},
         {"Circle003_geom", 28, 26, 0, {}},
         {"NGon001_geom", 6, 4, 0, {}},
         {"NGon002_geom", 6, 4, 0, {}},
         {"Circle002_geom", 28, 26, 0, {}},
         {"NGon003_geom", 6, 4, 0, {}},
         {"Circle005_geom", 28, 26, 0, {}},
         {"NGon004_geom", 6, 4, 0, {}},
         {"Circle001_geom", 28, 26, 0, {}},
         {"Circle004_geom", 28, 26, 0, {}},
         {"Circle006_geom", 28, 26, 0, {}},
         {"Circle007_geom", 28, 26, 0, {}},
         {"NGon007_geom", 42, 40, 0, {}},
         {"Circle008_geom", 28, 26, 0, {}},
     },
     {
     },
     true, {-40.766563415527344f, -5.8562341364024135f, -16.883913514127773f}, {40.76655960083008f, 81.00957489013672f, 17.466835177892925f}},
    {"PolarBear.awd", 575606, 21, 1, 0, 0, 0, 2896,
     {},
     {
         {"PolarBear", 8688, 2896, 0, {}},
     },
     {
     },
     true, {-78.3996033668518f, -1.2182535231113434f, -184.63050842285156f}, {78.39959621429443f, 222.86420345306396f, 126.55291557312012f}},
    {"PolarBear_Skeleton_ABexport.awd", 865900, 10, 9, 3, 3, 0, 2896,
     {LightType::Directional},
     {
         {"PlaneGeometry1", 0, 0, 1, {{101, 3000.0}, {102, 3000.0}}},
         {"testName", 1698, 2896, 0, {}},
     },
     {
         {0, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f}},
     },
     true, {-678.4003372192383f, -1.218253493309021f, -588.7853240966797f}, {298.7904357910156f, 222.86419677734375f, 539.6206970214844f}},
    {"PolarBear_Vertex_ABexport.awd", 1269541, 3, 2, 3, 3, 0, 2896,
     {LightType::Directional},
     {
         {"PlaneGeometry1", 0, 0, 1, {{101, 3000.0}, {102, 3000.0}}},
         {"testName", 1698, 2896, 0, {}},
     },
     {
         {0, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f}},
     },
     true, {-78.39960479736328f, -1.218253493309021f, -184.63050842285156f}, {78.39959716796875f, 222.86419677734375f, 126.55291748046875f}},
    {"PolarBear_effects.awd", 955735, 5, 1, 1, 9, 0, 2896,
     {LightType::Directional},
     {
         {"PolarBear", 8688, 2896, 0, {}},
     },
     {
     },
     true, {-78.3996033668518f, -1.2182535231113434f, -184.63050842285156f}, {78.39959621429443f, 222.86420345306396f, 126.55291557312012f}},
    {"avatar.awd", 142192, 34, 34, 0, 0, 0, 4864,
     {},
     {
         {"Bip001_geom", 6, 8, 0, {}},
         {"Bip001 Footsteps_geom", 9, 8, 0, {}},
         {"Bip001 Pelvis_geom", 8, 12, 0, {}},
         {"Bip001 Spine_geom", 16, 24, 0, {}},
         {"Bip001 Spine1_geom", 16, 24, 0, {}},
         {"Bip001 Spine2_geom", 16, 24, 0, {}},
         {"Bip001 Neck_geom", 8, 12, 0, {}},
         {"Bip001 Head_geom", 37, 70, 0, {}},
         {"Bip001 L Clavicle_geom", 8, 12, 0, {}},
         {"Bip001 L UpperArm_geom", 16, 28, 0, {}},
         {"Bip001 L Forearm_geom", 12, 20, 0, {}},
         {"Bip001 L Hand_geom", 8, 12, 0, {}},
         {"Bip001 L Finger0_geom", 8, 12, 0, {}},
         {"Bip001 R Clavicle_geom", 8, 12, 0, {}},
         {"Bip001 R UpperArm_geom", 16, 28, 0, {}},
         {"Bip001 R Forearm_geom", 12, 20, 0, {}},
         {"Bip001 R Hand_geom", 8, 12, 0, {}},
         {"Bip001 R Finger0_geom", 8, 12, 0, {}},
         {"Bip001 L Thigh_geom", 16, 28, 0, {}},
         {"Bip001 L Calf_geom", 12, 20, 0, {}},
         {"Bip001 L Foot_geom", 8, 12, 0, {}},
         {"Bip001 L Toe0_geom", 8, 12, 0, {}},
         {"Bip001 R Thigh_geom", 16, 28, 0, {}},
         {"Bip001 R Calf_geom", 12, 20, 0, {}},
         {"Bip001 R Foot_geom", 8, 12, 0, {}},
         {"Bip001 R Toe0_geom", 8, 12, 0, {}},
         {"Skin_Man_geom", 864, 1428, 0, {}},
         {"Skin_Woman_geom", 1015, 1700, 0, {}},
         {"Hair_Man_base_geom", 84, 98, 0, {}},
         {"Hat_Man_topHead_geom", 113, 148, 0, {}},
         {"Hair_Woman_base_geom", 168, 180, 0, {}},
         {"Hat_Woman_cu_geom", 255, 388, 0, {}},
         {"Hair_Woman_heat_geom", 197, 312, 0, {}},
         {"Hair_Man_Low_geom", 69, 116, 0, {}},
     },
     {
     },
     true, {-27.533828735351562f, -0.11859716475009918f, -7.177743434906006f}, {27.533828735351562f, 88.51765106886404f, 8.133611716862532f}},
    {"building.awd", 362, 3, 3, 0, 0, 0, 20,
     {},
     {
         {"collision_geom", 16, 8, 0, {}},
         {"baseSide_geom", 4, 2, 0, {}},
         {"building_geom", 18, 10, 0, {}},
     },
     {
     },
     true, {-5000.0f, 0.0f, -5000.0f}, {5000.0f, 1677.89453125f, 5000.0f}},
    {"onkba_light.awd", 902474, 3, 2, 2, 6, 0, 11276,
     {LightType::Directional},
     {
         {"Onkba_geom", 5225, 9464, 0, {}},
         {"Plane_geom", 25, 32, 0, {}},
         {"Bip01_geom", 6, 8, 0, {}},
         {"Bip01 Footsteps_geom", 9, 8, 0, {}},
         {"Bip01 Pelvis_geom", 8, 12, 0, {}},
         {"Bip01 Spine_geom", 16, 24, 0, {}},
         {"Bip01 Spine1_geom", 16, 24, 0, {}},
         {"Bip01 Spine2_geom", 16, 24, 0, {}},
         {"Bip01 Neck_geom", 8, 12, 0, {}},
         {"Bip01 Head_geom", 37, 70, 0, {}},
         {"Bip01 L Clavicle_geom", 8, 12, 0, {}},
         {"Bip01 L UpperArm_geom", 16, 28, 0, {}},
         {"Bip01 L Forearm_geom", 12, 20, 0, {}},
         {"Bip01 L Hand_geom", 8, 12, 0, {}},
         {"Bip01 R Clavicle_geom", 8, 12, 0, {}},
         {"Bip01 R UpperArm_geom", 16, 28, 0, {}},
         {"Bip01 R Forearm_geom", 12, 20, 0, {}},
         {"Bip01 R Hand_geom", 8, 12, 0, {}},
         {"Bip01 L Thigh_geom", 16, 28, 0, {}},
         {"Bip01 L Calf_geom", 12, 20, 0, {}},
         {"Bip01 L Foot_geom", 8, 12, 0, {}},
         {"Bip01 L Toe0_geom", 8, 12, 0, {}},
         {"Bip01 R Thigh_geom", 16, 28, 0, {}},
         {"Bip01 R Calf_geom", 12, 20, 0, {}},
         {"Bip01 R Foot_geom", 8, 12, 0, {}},
         {"Bip01 R Toe0_geom", 8, 12, 0, {}},
         {"Shape Help_geom", 8, 6, 0, {}},
         {"Circle003_geom", 4, 2, 0, {}},
         {"NGon001_geom", 6, 4, 0, {}},
         {"NGon002_geom", 6, 4, 0, {}},
         {"Circle002_geom", 4, 2, 0, {}},
         {"NGon003_geom", 6, 4, 0, {}},
         {"Circle005_geom", 4, 2, 0, {}},
         {"NGon004_geom", 6, 4, 0, {}},
         {"Circle001_geom", 4, 2, 0, {}},
         {"Circle004_geom", 4, 2, 0, {}},
         {"NGon007_geom", 6, 4, 0, {}},
         {"Circle008_geom", 4, 2, 0, {}},
         {"Circle007_geom", 4, 2, 0, {}},
         {"Circle006_geom", 4, 2, 0, {}},
         {"Circle010_geom", 4, 2, 0, {}},
         {"Circle009_geom", 4, 2, 0, {}},
         {"Gun_geom", 896, 1264, 0, {}},
     },
     {
     },
     true, {-58.842464447021484f, -4.842879164357328e-08f, -76.87541198730469f}, {58.842464447021484f, 81.00956726074219f, 76.87541198730469f}},
    {"primitives_mix.awd", 3216, 14, 13, 4, 0, 0, 0,
     {LightType::Directional},
     {
         {"CapsuleGeometry1", 0, 0, 6, {{101, 20.0}, {302, 15.0}, {701, 0.0}}},
         {"ConeGeometry1", 0, 0, 5, {{101, 63.400001525878906}, {102, 200.0}, {701, 0.0}}},
         {"CubeGeometry1", 0, 0, 2, {{101, 240.0}, {102, 20.0}, {103, 240.0}}},
         {"TorusGeometry1", 0, 0, 7, {{101, 180.0}}},
         {"SphereGeometry1", 0, 0, 3, {{101, 160.0}, {301, 24.0}, {302, 16.0}}},
         {"PlaneGeometry1", 0, 0, 1, {{101, 3000.0}, {102, 3000.0}, {702, 1.0}}},
         {"CubeGeometry1", 0, 0, 2, {{101, 600.0}, {102, 40.0}, {103, 600.0}}},
         {"CylinderGeometry1", 0, 0, 4, {{101, 30.0}, {103, 500.0}, {301, 8.0}, {702, 0.0}}},
     },
     {
         {0, {-4.371138828673793e-08f, -6.6002361555513294e-15f, -1.0f, 0.0f, 0.0f, 1.0f, -6.6002361555513294e-15f, 0.0f, 1.0f, 0.0f, -4.371138828673793e-08f, 0.0f, 0.0f, 1100.0f, 0.0f, 1.0f}},
         {0, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 1100.0f, 0.0f, 1.0f}},
         {1, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 980.0f, 0.0f, 1.0f}},
         {2, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 870.0f, 0.0f, 1.0f}},
         {3, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 810.0f, 0.0f, 1.0f}},
         {3, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 590.0f, 0.0f, 1.0f}},
         {4, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 700.0f, 0.0f, 1.0f}},
         {5, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f}},
         {6, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 520.0f, 0.0f, 1.0f}},
         {7, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, -250.0f, 250.0f, -250.0f, 1.0f}},
         {7, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, -250.0f, 250.0f, 250.0f, 1.0f}},
         {7, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 250.0f, 250.0f, -250.0f, 1.0f}},
         {7, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 250.0f, 250.0f, 250.0f, 1.0f}},
     },
     false, {}, {}},
    {"primitives_spheres.awd", 11289, 344, 343, 293, 0, 0, 0,
     {},
     {
         {"Geo_Sphere 0", 0, 0, 3, {{101, 36.0}, {301, 8.0}}},
     },
     {
     },
     true, {-407.92396116256714f, -321.75635957717896f, -850.8243455886841f}, {408.42383003234863f, 313.89565229415894f, 843.4232311248779f}},
    {"simple.AWD", 17093, 1, 1, 0, 0, 0, 840,
     {},
     {
         {"Cylinder001_geom", 443, 840, 0, {}},
     },
     {
     },
     true, {-4.0f, -1.8056087767306756e-20f, -4.000000476837158f}, {4.0f, 60.00000762939453f, 4.000000476837158f}},

};
// clang-format on

std::filesystem::path samplePath(const char* file) { return test::modelsDir() / "awd" / file; }

bool buildFact(const MeshFact& m, awd::PrimitiveMesh& out) {
    awd::PrimitiveKind kind;
    if (!awd::primitiveKindFromId(m.primitive, kind)) return false;
    awd::PrimitiveParams params = awd::defaultParams(kind);
    for (const auto& [key, value] : m.properties) awd::setPrimitiveProperty(kind, key, value, params);
    std::string error;
    return awd::buildPrimitive(kind, params, out, error);
}

TEST(AwdSamples, EveryFileIsListed) {
    ESVIEW_REQUIRE_MODELS("awd");
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(test::modelsDir() / "awd")) {
        std::string ext = entry.path().extension().string();
        for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (ext != ".awd") continue;
        ++files;
        bool listed = false;
        for (const FileFact& f : kFacts) listed |= entry.path().filename() == f.file;
        EXPECT_TRUE(listed) << entry.path() << " has no facts";
    }
    EXPECT_EQ(files, kFacts.size());
}

// The file name stands for the facts in test names (ctest shows the parameter): gtest would print
// the struct's bytes, pointers included, and the names would change from build to build.
void PrintTo(const FileFact& fact, std::ostream* os) {
    *os << fact.file;
}

class AwdSample : public ::testing::TestWithParam<FileFact> {};

TEST_P(AwdSample, HoldsTheFactsOfTheFile) {
    ESVIEW_REQUIRE_MODELS("awd");
    const FileFact& f = GetParam();
    const auto path = samplePath(f.file);
    ASSERT_EQ(std::filesystem::file_size(path), f.bytes) << "the sample changed; rerun samples_expected.py";
    LoadResult r = loadSceneFile(path.string());
    ASSERT_TRUE(r.ok()) << (r.problems.empty() ? "" : r.problems[0].format());
    const Scene& s = *r.scene;
    EXPECT_EQ(s.format, "awd");
    size_t fileNodes = 0;  // skeleton joints are nodes the reader adds
    for (const Node& n : s.nodes) fileNodes += n.viewerAdded ? 0 : 1;
    EXPECT_EQ(fileNodes, f.nodes);
    size_t instances = 0;
    for (const Node& n : s.nodes) instances += n.kind == NodeKind::Mesh;
    EXPECT_EQ(instances, f.meshInstances);
    EXPECT_EQ(s.materials.size(), f.materials);
    EXPECT_EQ(s.textures.size(), f.textures);
    EXPECT_EQ(s.cameras.size(), f.cameras);
    ASSERT_EQ(s.lights.size(), f.lights.size());
    for (size_t i = 0; i < f.lights.size(); ++i) EXPECT_EQ(s.lights[i].type, f.lights[i]) << "light " << i;

    ASSERT_EQ(s.meshes.size(), f.meshes.size());
    uint32_t geometryTriangles = 0;
    for (size_t i = 0; i < f.meshes.size(); ++i) {
        const MeshFact& m = f.meshes[i];
        const Mesh& mesh = s.meshes[i];
        EXPECT_EQ(mesh.name, m.name) << "mesh " << i;
        if (m.primitive == 0) {
            EXPECT_EQ(mesh.vertexCount, m.vertices) << m.name;
            EXPECT_EQ(triangleCount(mesh), m.triangles) << m.name;
            geometryTriangles += triangleCount(mesh);
        } else {
            awd::PrimitiveMesh built;
            ASSERT_TRUE(buildFact(m, built)) << m.name;
            EXPECT_EQ(mesh.vertexCount, built.vertexCount()) << m.name;
            EXPECT_EQ(triangleCount(mesh), built.triangleCount()) << m.name;
        }
    }
    EXPECT_EQ(geometryTriangles, f.triangles);

    // The box at rest: the script's box of the triangle geometry, plus each primitive instance's
    // tessellated vertices placed with the script's world matrix.
    Bounds expected;
    if (f.hasBox) {
        expected.add(f.min);
        expected.add(f.max);
    }
    for (const InstanceFact& inst : f.primitives) {
        awd::PrimitiveMesh built;
        ASSERT_TRUE(buildFact(f.meshes[inst.mesh], built));
        glm::mat4 world;
        for (int k = 0; k < 16; ++k) world[k / 4][k % 4] = inst.world[k];
        for (uint32_t v : built.indices)
            expected.add(glm::vec3(world * glm::vec4(built.positions[v * 3], built.positions[v * 3 + 1], built.positions[v * 3 + 2], 1.0f)));
    }
    Pose pose;
    evaluatePose(s, -1, 0.0f, pose);
    const Bounds actual = sceneBounds(s, pose);
    ASSERT_EQ(actual.valid(), expected.valid());
    for (int k = 0; k < 3; ++k) {
        const float tolerance = 1e-4f * std::max(1.0f, std::max(std::fabs(expected.min[k]), std::fabs(expected.max[k])));
        EXPECT_NEAR(actual.min[k], expected.min[k], tolerance) << "axis " << k;
        EXPECT_NEAR(actual.max[k], expected.max[k], tolerance) << "axis " << k;
    }
}

INSTANTIATE_TEST_SUITE_P(Files, AwdSample, ::testing::ValuesIn(kFacts), [](const ::testing::TestParamInfo<FileFact>& param) {
    std::string name = param.param.file;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
});

// Animation: every SkeletonAnimation and MeshPose(Animation) block is a clip named after the block,
// lasting the sum of its frame durations; where a lone skeleton drives the skinned meshes (AWD
// 2.0 files without Animator blocks), the box at clip times is the script's (its own skinning:
// linear translation, slerped rotation between frames at their cumulative durations).
struct AnimBox {
    const char* clip;
    float seconds;
    glm::vec3 min, max;
};
struct AnimFact {
    const char* file;
    std::vector<std::pair<const char*, float>> clips;
    std::vector<AnimBox> boxes;
};

// clang-format off
// python3 samples_expected.py --cpp-anim DIR
const std::vector<AnimFact> kAnimFacts = {
    {"MaxAWDWorkflow.awd",
     {{"Breathe", 1.98f}, {"Walk", 1.98f}, {"Run", 0.561f}},
     {{"Breathe", 0.0f, {-19.8659924059793f, -5.8562341364024135f, -16.883913514127773f}, {25.965021016088336f, 79.75548244131627f, 17.466835177892925f}},
      {"Breathe", 0.3f, {-19.8659924059793f, -5.8562341364024135f, -16.883913514127773f}, {25.965021016088336f, 79.85541007298676f, 17.466835177892925f}},
      {"Breathe", 0.75f, {-19.8659924059793f, -5.8562341364024135f, -16.883913514127773f}, {25.965021016088336f, 79.9251702620396f, 17.466835177892925f}},
      {"Walk", 0.0f, {-19.8659924059793f, -5.8562341364024135f, -25.710335064137247f}, {25.965021016088336f, 79.07990748497394f, 20.933773912285734f}},
      {"Walk", 0.3f, {-19.8659924059793f, -5.8562341364024135f, -16.883913514127773f}, {25.965021016088336f, 79.07990748497394f, 21.460743193954404f}},
      {"Walk", 0.75f, {-19.8659924059793f, -5.8562341364024135f, -16.883913514127773f}, {25.965021016088336f, 79.07990748497394f, 25.517649309341323f}},
      {"Run", 0.0f, {-19.8659924059793f, -5.8562341364024135f, -18.000673082260374f}, {25.965021016088336f, 79.07990748497394f, 27.838807886670974f}},
      {"Run", 0.3f, {-23.97816023552943f, -5.8562341364024135f, -18.322624088644204f}, {25.965021016088336f, 79.07990748497394f, 31.66995812514579f}},
      {"Run", 0.75f, {-19.8659924059793f, -6.104552414691947f, -16.883913514127773f}, {25.965021016088336f, 79.07990748497394f, 21.53458535583951f}}}},
    {"PolarBear.awd",
     {{"Breathe", 1.2f}, {"Run", 0.68f}, {"Walk", 1.2f}},
     {{"Breathe", 0.0f, {-78.44064605656362f, -1.2181185371747827f, -193.8287425509396f}, {78.35690256803063f, 215.7490554481048f, 114.79564313738092f}},
      {"Breathe", 0.3f, {-78.33868201111702f, -1.218464125083896f, -197.4428785965745f}, {78.4405761980974f, 210.92406079641833f, 112.35423515135321f}},
      {"Breathe", 0.75f, {-78.43549313776343f, -1.2188146568322418f, -188.22092524381108f}, {78.43514420475667f, 208.2677539228617f, 128.68204638509613f}},
      {"Run", 0.0f, {-78.99606371860088f, -1.2183812581322417f, -189.42589063478823f}, {78.27855388941204f, 205.39118800780273f, 126.28722781752009f}},
      {"Run", 0.3f, {-78.77526883086374f, -1.7095033214555309f, -361.0744797858356f}, {80.19258442963444f, 184.58760341074813f, -20.610621758543832f}},
      {"Run", 0.75f, {-78.98562124666208f, -1.194348891182f, -521.818167631001f}, {78.24038067578292f, 204.92826774040648f, -204.9312293909876f}},
      {"Walk", 0.0f, {-78.63404599767253f, -1.2182428855884992f, -187.55531175399f}, {78.44081554921483f, 217.4767052645965f, 142.75352100052206f}},
      {"Walk", 0.3f, {-77.72968707277599f, -1.3298873732037295f, -238.81542509808378f}, {79.07922397610791f, 219.5843493631888f, 58.89931771160886f}},
      {"Walk", 0.75f, {-78.74858572111f, -1.2530317218131064f, -317.94708137123774f}, {77.84490213136964f, 216.5907480092303f, 5.55192185606461f}}}},
    {"PolarBear_Skeleton_ABexport.awd",
     {{"Breathe", 1.189f}, {"Run", 0.673f}, {"Walk", 1.189f}},
     {}},
    {"PolarBear_Vertex_ABexport.awd",
     {{"Run", 0.678f}, {"Walk", 1.199f}, {"Breathe", 1.199f}},
     {}},
    {"avatar.awd",
     {{"Breathe", 0.66f}, {"Walk", 0.66f}, {"Run", 0.561f}, {"Sit", 0.66f}, {"WalkWoman", 0.66f}, {"SitWoman", 0.627f}},
     {{"Breathe", 0.0f, {-9.491169402804704f, -0.37450857228241163f, -6.107732898408303f}, {10.19845698222714f, 88.51765106886404f, 8.133611716862532f}},
      {"Breathe", 0.3f, {-9.464079043676707f, -0.37451309697093216f, -6.053676324236126f}, {10.430094172859867f, 88.51765106886404f, 8.133611716862532f}},
      {"Breathe", 0.75f, {-9.470058878481444f, -0.3745151381463978f, -6.053676324236126f}, {10.230471997753991f, 88.51765106886404f, 8.133611716862532f}},
      {"Walk", 0.0f, {-11.44964544093833f, 6.508852923303721e-08f, -25.08018989039852f}, {14.49757740149158f, 88.51765106886404f, 18.222673383351616f}},
      {"Walk", 0.3f, {-12.50002723375092f, -0.22260881187938675f, -9.109542623753544f}, {13.87666184175555f, 88.51765106886404f, 11.665537544090725f}},
      {"Walk", 0.75f, {-12.103435937799773f, -0.8921497840609054f, -8.86240510785541f}, {13.469676520361133f, 88.51765106886404f, 9.449862546315842f}},
      {"Run", 0.0f, {-12.253955852176734f, -3.953527173257662f, -16.713597247815f}, {12.81851141302646f, 88.51765106886404f, 28.32685985565773f}},
      {"Run", 0.3f, {-22.55119313894482f, -3.7877674385248277f, -17.547758648056607f}, {13.694461037656442f, 88.51765106886404f, 32.18965535594976f}},
      {"Run", 0.75f, {-11.16456301134754f, -3.0791597669937802f, -11.91015185029839f}, {22.581572062386144f, 88.51765106886404f, 23.024932992853532f}},
      {"Sit", 0.0f, {-14.247981220012068f, -1.3904465191622681f, -9.974766409177693f}, {15.775258838052446f, 88.51765106886404f, 22.371601910939358f}},
      {"Sit", 0.3f, {-18.660100554449873f, -0.2221634356081236f, -9.886810941140702f}, {16.443413068974607f, 88.51765106886404f, 21.60690873572321f}},
      {"Sit", 0.75f, {-13.494931963866112f, -0.6434301084491434f, -9.520232230022739f}, {19.396826654164766f, 88.51765106886404f, 8.133611716862532f}},
      {"WalkWoman", 0.0f, {-10.712381278372543f, -0.5052044840808119f, -23.743703266578667f}, {10.500318671491849f, 88.51765106886404f, 19.33075960354526f}},
      {"WalkWoman", 0.3f, {-8.972786897443662f, -0.11772440642629434f, -24.15877602743299f}, {12.752079810650596f, 88.51765106886404f, 14.902180032188987f}},
      {"WalkWoman", 0.75f, {-10.706472416695338f, 6.508852923303721e-08f, -27.215417653091365f}, {10.807545668823279f, 88.51765106886404f, 15.649490431145685f}},
      {"SitWoman", 0.0f, {-14.24798036659957f, -1.33168493605978f, -10.682381480741489f}, {15.775257114038197f, 88.51765106886404f, 22.371607974568764f}},
      {"SitWoman", 0.3f, {-18.66010124254166f, -0.8497349337470395f, -11.073684660439541f}, {13.75554818736283f, 88.51765106886404f, 21.606909058863685f}},
      {"SitWoman", 0.75f, {-14.683850532591023f, -0.5212665976802284f, -11.559622868231783f}, {20.02998535881037f, 88.51765106886404f, 8.133611716862532f}}}},
    {"simple.AWD",
     {{"Basic", 3.3f}},
     {{"Basic", 0.0f, {-4.000000000000714f, -7.080078420149643e-16f, -4.000000476839745f}, {4.000000000000712f, 60.00000762940992f, 4.0000004991923985f}},
      {"Basic", 0.3f, {-6.385594373713387f, -0.27118311350354257f, -3.99079665088909f}, {4.215476894662182f, 59.96916956366325f, 8.046706377749087f}},
      {"Basic", 0.75f, {-8.518229035316175f, -1.3293756369254237f, -3.861996988551107f}, {7.8630332563571175f, 56.355569777081854f, 18.59909960446938f}}}},

};
// clang-format on

int clipNamed(const Scene& s, const std::string& name) {
    for (size_t i = 0; i < s.animation.clips.size(); ++i)
        if (s.animation.clips[i].name == name) return static_cast<int>(i);
    return -1;
}

TEST(AwdSamples, ClipsAndBoxesAtClipTimes) {
    ESVIEW_REQUIRE_MODELS("awd");
    for (const FileFact& f : kFacts) {
        const AnimFact* a = nullptr;
        for (const AnimFact& x : kAnimFacts)
            if (std::string(x.file) == f.file) a = &x;
        LoadResult r = loadSceneFile(samplePath(f.file).string());
        ASSERT_TRUE(r.ok()) << f.file;
        const Scene& s = *r.scene;
        if (!a) {
            EXPECT_TRUE(s.animation.clips.empty()) << f.file;
            continue;
        }
        ASSERT_EQ(s.animation.clips.size(), a->clips.size()) << f.file;
        for (size_t i = 0; i < a->clips.size(); ++i) {
            EXPECT_EQ(s.animation.clips[i].name, a->clips[i].first) << f.file;
            EXPECT_NEAR(s.animation.clips[i].duration(), a->clips[i].second, 1e-5f) << f.file << " " << a->clips[i].first;
        }
        Pose pose;
        for (const AnimBox& b : a->boxes) {
            const int clip = clipNamed(s, b.clip);
            ASSERT_GE(clip, 0) << f.file << " " << b.clip;
            evaluatePose(s, clip, b.seconds, pose);
            const Bounds actual = sceneBounds(s, pose);
            ASSERT_TRUE(actual.valid());
            for (int k = 0; k < 3; ++k) {
                const float tolerance = 2e-4f * std::max(1.0f, std::max(std::fabs(b.min[k]), std::fabs(b.max[k])));
                EXPECT_NEAR(actual.min[k], b.min[k], tolerance) << f.file << " " << b.clip << " at " << b.seconds << " axis " << k;
                EXPECT_NEAR(actual.max[k], b.max[k], tolerance) << f.file << " " << b.clip << " at " << b.seconds << " axis " << k;
            }
        }
    }
}

// The skeleton-animated and the vertex-animated AwayBuilder exports of the polar bear move alike:
// the same clip names, the bear's box at the same times within a few percent of its size (the
// vertex export samples fewer frames), and no vertex far from the bear (nothing explodes).
Bounds bearBounds(const Scene& s, const Pose& pose) {
    Bounds b;
    std::vector<glm::vec3> positions;
    for (size_t n = 0; n < s.nodes.size(); ++n) {
        const Node& node = s.nodes[n];
        if (node.kind != NodeKind::Mesh || node.object < 0) continue;
        if (node.skin < 0 && s.meshes[node.object].morphTargets.empty()) continue;
        worldVertices(s, pose, static_cast<int>(n), positions, nullptr);
        for (const glm::vec3& p : positions) b.add(p);
        break;  // the first animated bear
    }
    return b;
}

TEST(AwdSamples, SkeletonAndVertexBearsMoveAlike) {
    ESVIEW_REQUIRE_MODELS("awd");
    LoadResult sk = loadSceneFile(samplePath("PolarBear_Skeleton_ABexport.awd").string());
    LoadResult vx = loadSceneFile(samplePath("PolarBear_Vertex_ABexport.awd").string());
    ASSERT_TRUE(sk.ok() && vx.ok());
    Pose a, b;
    for (const char* name : {"Breathe", "Run", "Walk"}) {
        const int ca = clipNamed(*sk.scene, name), cb = clipNamed(*vx.scene, name);
        ASSERT_GE(ca, 0) << name;
        ASSERT_GE(cb, 0) << name;
        for (float t : {0.0f, 0.2f, 0.5f}) {
            evaluatePose(*sk.scene, ca, t, a);
            evaluatePose(*vx.scene, cb, t, b);
            const Bounds ba = bearBounds(*sk.scene, a), bb = bearBounds(*vx.scene, b);
            ASSERT_TRUE(ba.valid() && bb.valid()) << name;
            const glm::vec3 size = bb.max - bb.min;
            EXPECT_LT(size.y, 400.0f) << name << " at " << t;  // the bear is about 220 high
            for (int k = 0; k < 3; ++k) {
                EXPECT_NEAR(ba.max[k] - ba.min[k], size[k], 0.15f * std::max(size.x, size.z)) << name << " at " << t << " axis " << k;
            }
        }
    }
}

// Check mode: the samples follow the spec, except PolarBear.awd's meta-data strings (Prefab3D
// writes VarStrings whose value lengths leave out their 2-byte length prefix).
TEST(AwdSamples, CheckModeFindsOnlyTheKnownViolation) {
    ESVIEW_REQUIRE_MODELS("awd");
    for (const FileFact& f : kFacts) {
        LoadOptions options;
        options.collectAll = true;
        LoadResult r = loadSceneFile(samplePath(f.file).string(), options);
        if (std::string(f.file) == "PolarBear.awd") {
            ASSERT_EQ(r.problems.size(), 1u) << f.file;
            EXPECT_EQ(r.problems[0].offset, 0x25);
            EXPECT_NE(r.problems[0].message.find("Prefab3D"), std::string::npos);
        } else {
            EXPECT_TRUE(r.ok()) << f.file << ": " << (r.problems.empty() ? "" : r.problems[0].format());
        }
    }
}

// What the files hold beyond counts: streams as views into the body, names, materials, textures.
TEST(AwdSamples, PolarBearStreamsStayInTheFile) {
    ESVIEW_REQUIRE_MODELS("awd");
    std::string error;
    auto bytes = readWholeFile(samplePath("PolarBear.awd").string(), error);
    ASSERT_TRUE(bytes);
    LoadResult r = loadSceneMemory(bytes, "PolarBear.awd");
    ASSERT_TRUE(r.ok());
    const Mesh& m = r.scene->meshes[0];
    // Uncompressed: every stored stream is a view into the file; its normals are stored too.
    size_t views = 0;
    for (const VertexStream& vs : m.streams) views += vs.bytes.owner == bytes;
    EXPECT_EQ(views, m.streams.size());
    EXPECT_EQ(m.indices.bytes.owner, bytes);
    // Three joints per vertex, skinned by the file's skeleton (31 joints, added below the instance).
    const VertexStream* stream = nullptr;
    const VertexAttribute* joints = findAttribute(m, Semantic::BoneIndices, 0, &stream);
    ASSERT_TRUE(joints);
    EXPECT_EQ(joints->components, 3);
    EXPECT_EQ(joints->type, ComponentType::UInt16);
    EXPECT_TRUE(findAttribute(m, Semantic::BoneWeights, 0, &stream));
    ASSERT_EQ(r.scene->skins.size(), 1u);
    EXPECT_EQ(r.scene->skins[0].joints.size(), 31u);
    EXPECT_EQ(r.scene->skins[0].name, "ZeroJoint.1");
    size_t jointNodes = 0;
    for (const Node& n : r.scene->nodes) jointNodes += n.viewerAdded ? 1 : 0;
    EXPECT_EQ(jointNodes, 31u);
}

TEST(AwdSamples, MaterialsAndTexturesOfHeadPhongSpec) {
    ESVIEW_REQUIRE_MODELS("awd");
    LoadResult r = loadSceneFile(samplePath("Head_PhongSpec.awd").string());
    ASSERT_TRUE(r.ok());
    const Scene& s = *r.scene;
    ASSERT_EQ(s.textures.size(), 3u);
    EXPECT_EQ(s.textures[0].name, "head_diffuse");
    EXPECT_EQ(s.textures[0].embedded.size, 315449u - 2 - 12 - 1 - 4 - 8);  // the block minus its fields
    const Material& m = s.materials[0];
    EXPECT_EQ(m.name, "2");
    EXPECT_EQ(m.texture(TextureSlot::Diffuse).texture, 0);
    EXPECT_EQ(m.texture(TextureSlot::Normal).texture, 1);
    EXPECT_EQ(m.texture(TextureSlot::Specular).texture, 2);
    EXPECT_NEAR(m.specular.r, 0.3f, 1e-6f);
    EXPECT_EQ(m.texture(TextureSlot::Diffuse).wrapS, Wrap::Clamp);
}

TEST(AwdSamples, CubeTextureOfPolarBearEffects) {
    ESVIEW_REQUIRE_MODELS("awd");
    LoadResult r = loadSceneFile(samplePath("PolarBear_effects.awd").string());
    ASSERT_TRUE(r.ok());
    const Scene& s = *r.scene;
    EXPECT_EQ(s.textures[0].name, "Cube 1 +X");
    EXPECT_EQ(s.textures[5].name, "Cube 1 -Z");
    for (int f = 0; f < 6; ++f) EXPECT_GT(s.textures[f].embedded.size, 1000u);
    EXPECT_EQ(s.nodes[0].name, "SkyBox1");
}

TEST(AwdSamples, ExternalTextureOfMaxAwdWorkflow) {
    ESVIEW_REQUIRE_MODELS("awd");
    LoadResult r = loadSceneFile(samplePath("MaxAWDWorkflow.awd").string());
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.scene->textures.size(), 1u);
    EXPECT_EQ(r.scene->textures[0].path, "onkba_N.jpg");
    EXPECT_TRUE(r.scene->textures[0].embedded.empty());
}

}  // namespace
}  // namespace esv
