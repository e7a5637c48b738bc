// Turning a Z-up scene to Y up (scene/up_axis.h), as convert does for POD and glTF: every node's
// world matrix, at rest and through a clip, becomes the turn times what it was, whatever builds the
// root's transform (TRS with linear and Bezier tracks, a matrix, OpenGEX transform elements with an
// element track), and the scene's front turns with it.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "scene/sampler.h"
#include "scene/up_axis.h"

namespace esv {
namespace {

// (x, y, z) to (x, z, -y), written out rather than taken from the code under test.
glm::mat4 turn() {
    glm::mat4 m(1.0f);
    m[1] = glm::vec4(0, 0, -1, 0);
    m[2] = glm::vec4(0, 1, 0, 0);
    return m;
}

Scene zUpScene() {
    Scene scene;
    scene.format = "fixture";
    scene.up = UpAxis::Z;
    scene.front = glm::vec3(0, -1, 0);
    Node trs;  // 0: a TRS root with a Bezier translation track and a linear rotation track
    trs.name = "trs";
    trs.local.translation = glm::vec3(1, 2, 3);
    trs.local.rotation = glm::angleAxis(0.4f, glm::normalize(glm::vec3(1, 2, 0.5f)));
    trs.local.scale = glm::vec3(2, 1, 0.5f);
    Node child;  // 1: under it
    child.name = "child";
    child.parent = 0;
    child.local.translation = glm::vec3(0, 0, 4);
    Node elements;  // 2: a root built of elements, its rotation animated
    elements.name = "elements";
    TransformElement move;
    move.kind = ElementKind::Translate;
    move.value[0] = 4, move.value[1] = 5, move.value[2] = 6;
    TransformElement spin;
    spin.kind = ElementKind::RotateZ;
    spin.value[0] = 0.3f;
    elements.elements = {move, spin};
    elements.local.useMatrix = true;
    elements.local.matrix = move.toMatrix() * spin.toMatrix();
    Node matrix;  // 3: a matrix root
    matrix.name = "matrix";
    matrix.local.useMatrix = true;
    matrix.local.matrix = glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(-1, 0, 2)), 1.1f, glm::vec3(0, 1, 0));
    scene.nodes = {trs, child, elements, matrix};

    Clip clip;
    clip.name = "clip";
    clip.end = 1.0f;
    Track bezier;
    bezier.node = 0;
    bezier.channel = Channel::Translation;
    bezier.interpolation = Interpolation::Bezier;
    bezier.times = {0.0f, 1.0f};
    bezier.values = {1, 2, 3, 2, -1, 5};
    bezier.inValues = {1, 2, 3, 3, 0, 4};
    bezier.outValues = {0, 3, 3, 2, -1, 5};
    Track rotation;
    rotation.node = 0;
    rotation.channel = Channel::Rotation;
    rotation.components = 4;
    rotation.times = {0.0f, 1.0f};
    const glm::quat a = trs.local.rotation, b = glm::angleAxis(1.2f, glm::vec3(0, 0, 1));
    rotation.values = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    Track element;
    element.node = 2;
    element.channel = Channel::Element;
    element.element = 1;
    element.components = 1;
    element.times = {0.0f, 1.0f};
    element.values = {0.3f, 1.5f};
    clip.tracks = {bezier, rotation, element};
    scene.animation.clips.push_back(clip);
    return scene;
}

void expectNear(const glm::mat4& got, const glm::mat4& want, const std::string& what) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) EXPECT_NEAR(got[c][r], want[c][r], 1e-5f) << what << " [" << c << "][" << r << "]";
}

TEST(UpAxis, EveryNodeTurnsAtRestAndThroughTheClip) {
    const Scene before = zUpScene();
    Scene after = before;
    ASSERT_TRUE(turnSceneToYUp(after));
    EXPECT_EQ(after.up, UpAxis::Y);
    EXPECT_EQ(after.nodes[2].elements.size(), 3u) << "the turn is the first element";
    EXPECT_EQ(after.animation.clips[0].tracks[2].element, 2u) << "the element track follows its element";
    const glm::vec3 front = glm::vec3(turn() * glm::vec4(before.front, 0.0f));
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(after.front[a], front[a], 1e-6f);
    for (int clip : {-1, 0})
        for (float t : {0.0f, 0.25f, 0.5f, 1.0f}) {
            Pose was, now;
            evaluatePose(before, clip, t, was);
            evaluatePose(after, clip, t, now);
            ASSERT_EQ(was.world.size(), now.world.size());
            for (size_t n = 0; n < was.world.size(); ++n)
                expectNear(now.world[n], turn() * was.world[n],
                           before.nodes[n].name + " clip " + std::to_string(clip) + " t " + std::to_string(t));
        }
    // The animated element moves the turned node as it moved the original: not frozen at rest.
    Pose start, end;
    evaluatePose(after, 0, 0.0f, start);
    evaluatePose(after, 0, 1.0f, end);
    EXPECT_GT(glm::length(glm::vec3(end.world[2][0] - start.world[2][0])), 0.1f);
}

TEST(UpAxis, YUpSceneIsLeftAlone) {
    Scene scene = zUpScene();
    scene.up = UpAxis::Y;
    const glm::vec3 t = scene.nodes[0].local.translation;
    EXPECT_FALSE(turnSceneToYUp(scene));
    EXPECT_EQ(scene.nodes[0].local.translation, t);
    EXPECT_EQ(scene.nodes[2].elements.size(), 2u);
}

}  // namespace
}  // namespace esv
