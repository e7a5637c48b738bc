// `esview info`'s text on a scene built in code (the demo scene, edited): counts with their nouns
// in the singular or plural, clip durations in seconds with frames only at a rate the file gives,
// texture slots without a name left out, bounds at six significant digits.
#include <string>

#include <gtest/gtest.h>

#include "app/viewer/scene_info.h"
#include "scene/demo_scene.h"

namespace {

std::string infoText(const esv::Scene& scene) {
    esv::Pose pose;
    esv::evaluatePose(scene, -1, 0.0f, pose);
    return esv::sceneInfoText(esv::sceneInfoJson(scene, pose, esv::ResolvedTime{}), scene);
}

bool hasLine(const std::string& text, const std::string& line) {
    return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

TEST(SceneInfoText, SingularAndPluralCounts) {
    esv::Scene scene = esv::makeDemoScene();
    ASSERT_EQ(scene.meshes.size(), 2u);
    ASSERT_EQ(scene.meshes[0].name, "tentacle");
    ASSERT_EQ(scene.meshes[0].boneBatches.size(), 2u);
    ASSERT_EQ(scene.meshes[1].morphTargets.size(), 1u);
    const std::string text = infoText(scene);
    EXPECT_TRUE(hasLine(text, "nodes:          12  (2 mesh instances, 2 lights, 1 camera)")) << text;
    EXPECT_TRUE(hasLine(
        text, "  tentacle: 1252 vertices, 2352 triangles, skinned (2 bone batches of at most 4 bones)"))
        << text;
    EXPECT_TRUE(hasLine(text, "  blob: 693 vertices, 1280 triangles, 1 morph target")) << text;
    EXPECT_TRUE(hasLine(text, "animation:      1 clip, 61 frames at 30 fps")) << text;

    // One bone batch, one light, two clips, one frame.
    scene.meshes[0].boneBatches.resize(1);
    scene.lights.resize(1);
    scene.animation.clips.push_back(scene.animation.clips[0]);
    scene.animation.clips[1].name = "again";
    scene.animation.frames = 1;
    const std::string edited = infoText(scene);
    EXPECT_NE(edited.find(", skinned (1 bone batch of "), std::string::npos) << edited;
    EXPECT_NE(edited.find("  (2 mesh instances, 1 light, 1 camera)"), std::string::npos) << edited;
    EXPECT_TRUE(hasLine(edited, "animation:      2 clips, 1 frame at 30 fps")) << edited;
    EXPECT_TRUE(hasLine(edited, "lights:         1")) << edited;
}

// The viewer's counts (status bar, tree) are `info`'s: the nodes esview adds (AWD skeleton joints) are
// not the file's, and the nouns agree with their numbers.
TEST(SceneInfoText, TheViewerCountsNodesAsInfoDoes) {
    esv::Scene scene = esv::makeDemoScene();
    esv::Node added;
    added.name = "joint esview made";
    added.viewerAdded = true;
    scene.nodes.push_back(added);
    esv::Pose pose;
    esv::evaluatePose(scene, -1, 0.0f, pose);
    const nlohmann::json info = esv::sceneInfoJson(scene, pose, esv::ResolvedTime{});
    EXPECT_EQ(info["nodes"].get<size_t>(), esv::fileNodeCount(scene));
    EXPECT_EQ(esv::fileNodeCount(scene), scene.nodes.size() - 1);
    EXPECT_EQ(esv::sceneCountsText(scene), std::to_string(scene.nodes.size() - 1) + " nodes, 2 meshes, " +
                                               std::to_string(scene.materials.size()) + " materials");
    scene.meshes.resize(1);
    scene.materials.resize(1);
    EXPECT_NE(esv::sceneCountsText(scene).find(", 1 mesh, 1 material"), std::string::npos) << esv::sceneCountsText(scene);
    EXPECT_EQ(esv::sceneCountsText(scene, false).find("material"), std::string::npos);
}

// The web build's line for a finished load (web_main.cpp) counts as the status bar does: the joint
// esview added is not one of the file's nodes.
TEST(SceneInfoText, TheWebLoadLineCountsNodesAsInfoDoes) {
    esv::Scene scene = esv::makeDemoScene();
    esv::Node added;
    added.name = "joint esview made";
    added.viewerAdded = true;
    scene.nodes.push_back(added);
    scene.textures.resize(1);
    EXPECT_EQ(esv::loadedText("/dropped/1/demo.pod", scene),
              "loaded /dropped/1/demo.pod: " + std::to_string(scene.nodes.size() - 1) + " nodes, 2 meshes, " +
                  std::to_string(scene.materials.size()) + " materials, 1 texture");
    scene.textures.resize(2);
    EXPECT_EQ(esv::loadedText("a.pod", scene),
              "loaded a.pod: " + esv::sceneCountsText(scene) + ", 2 textures");
}

// A clip of an AWD-like file (no frame count, no rate): seconds only; with the file's own rate
// (OpenGEX Clip frame_rate): the frames too. Durations at four significant digits.
TEST(SceneInfoText, ClipDurationsInSecondsAndFramesOnlyAtTheFilesRate) {
    esv::Scene scene = esv::makeDemoScene();
    ASSERT_EQ(scene.animation.clips.size(), 1u);
    esv::Clip& clip = scene.animation.clips[0];
    EXPECT_TRUE(hasLine(infoText(scene), "  wave: 2 s (frames 0-60 at 30 fps)")) << infoText(scene);

    scene.animation.frames = 0;
    clip.start = 0.0f;
    clip.end = 10.4166667f;
    std::string text = infoText(scene);
    EXPECT_TRUE(hasLine(text, "animation:      1 clip")) << text;
    EXPECT_TRUE(hasLine(text, "  wave: 10.42 s")) << text;
    EXPECT_EQ(text.find("0 frames"), std::string::npos) << text;

    clip.fps = 24.0f;
    text = infoText(scene);
    EXPECT_TRUE(hasLine(text, "  wave: 10.42 s (frames 0-250 at 24 fps)")) << text;

    scene.animation.clips.clear();
    EXPECT_TRUE(hasLine(infoText(scene), "animation:      none")) << infoText(scene);
    scene.animation.frames = 101;
    EXPECT_TRUE(hasLine(infoText(scene), "animation:      none (101 frames at 30 fps, nothing animated)"))
        << infoText(scene);
}

TEST(SceneInfoText, TextureSlotsWithoutANameAreLeftOut) {
    esv::Scene scene = esv::makeDemoScene();
    ASSERT_FALSE(scene.materials.empty());
    scene.textures.resize(2);
    scene.textures[0].name = scene.textures[0].path = "";  // an unnamed image
    scene.textures[1].path = "maps/n.png";
    esv::Material& material = scene.materials[0];
    material.textures[size_t(esv::TextureSlot::Diffuse)].texture = 0;
    material.textures[size_t(esv::TextureSlot::Normal)].texture = 1;
    const std::string text = infoText(scene);
    EXPECT_TRUE(hasLine(text, "  " + material.name + ": normal maps/n.png")) << text;
    EXPECT_EQ(text.find("diffuse"), std::string::npos) << text;
    EXPECT_EQ(text.find("="), std::string::npos) << text;
    // A material without textures is its name alone.
    EXPECT_TRUE(hasLine(text, "  " + scene.materials[1].name)) << text;
}

TEST(SceneInfoText, BoundsAtSixSignificantDigits) {
    const esv::Scene scene = esv::makeDemoScene();
    esv::Pose pose;
    esv::evaluatePose(scene, -1, 0.0f, pose);
    nlohmann::json info = esv::sceneInfoJson(scene, pose, esv::ResolvedTime{});
    info["bounds"] = {{"min", {-61.445438385009766, 18.776626586914063, -4.8428797e-08}},
                      {"max", {52.484718322753906, 267.99969482421875, 93.02971649169922}}};
    const std::string text = esv::sceneInfoText(info, scene);
    EXPECT_TRUE(hasLine(text, "bounds:         min (-61.4454, 18.7766, 0)  max (52.4847, 268, 93.0297)"))
        << text;
    EXPECT_TRUE(hasLine(text, "size:           113.93 x 249.223 x 93.0297")) << text;
}

}  // namespace
