// The GL state cache (renderer/gl_state.h) without vertex array objects, as the strict ES 2.0
// profile and ES2 drivers without OES_vertex_array_object draw: attribute pointers, their buffers
// and the element buffer are then the context's. Each step sets state through the cache and reads
// it back from GL, so a cache that leaves out a call because it compares too little (the buffer a
// pointer reads, the offset of a base vertex) fails here and not only in the strict profile's sweep
// of every sample. Then the renderer itself without vertex arrays: two meshes of one layout, each in
// its own buffers, drawn as the renderer draws them with vertex arrays. These tests run in the
// emulated ARM subset too (.ci/run), where the sweep does not.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <glad/gles2.h>
#include <gtest/gtest.h>

#include "common/render_harness.h"
#include "renderer/gl_calls.h"
#include "renderer/gl_objects.h"
#include "renderer/gl_state.h"
#include "scene/demo_scene.h"

namespace esv {
namespace {

// What GL holds for one vertex attribute array.
struct AttributeArray {
    GLint buffer = -1, size = 0, type = 0, normalized = -1, stride = -1, enabled = -1;
    uintptr_t offset = ~uintptr_t(0);
};

AttributeArray readAttributeArray(GLuint location) {
    AttributeArray a;
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &a.buffer);
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_SIZE, &a.size);
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_TYPE, &a.type);
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &a.normalized);
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &a.stride);
    glGetVertexAttribiv(location, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &a.enabled);
    void* pointer = nullptr;
    glGetVertexAttribPointerv(location, GL_VERTEX_ATTRIB_ARRAY_POINTER, &pointer);
    a.offset = reinterpret_cast<uintptr_t>(pointer);
    return a;
}

GLint boundBuffer(GLenum binding) {
    GLint buffer = -1;
    glGetIntegerv(binding, &buffer);
    return buffer;
}

// One attribute pointer asked of the cache: which of the two buffers it reads, and how.
struct PointerStep {
    const char* what;
    int buffer;  // 0 or 1
    GLuint location;
    GLint size;
    GLenum type;
    bool normalized;
    GLsizei stride;
    uintptr_t offset;
    uint64_t pointerCalls;  // glVertexAttribPointer calls the step needs: 0 when GL holds it already
};

// Meshes of one interleaved layout (stride 32: position at 0, a normalised short pair at 12), each
// in its own buffer, drawn from vertex 0 and from later base vertices (vertex windows,
// Submesh::baseVertex), as the renderer points them one after another in a frame.
constexpr GLsizei kStride = 32;
const PointerStep kPointerSteps[] = {
    {"first mesh", 0, 0, 3, GL_FLOAT, false, kStride, 0, 1},
    {"first mesh again", 0, 0, 3, GL_FLOAT, false, kStride, 0, 0},
    {"second mesh: same layout, other buffer", 1, 0, 3, GL_FLOAT, false, kStride, 0, 1},
    {"second mesh from base vertex 4", 1, 0, 3, GL_FLOAT, false, kStride, 4 * kStride, 1},
    {"second mesh from base vertex 9", 1, 0, 3, GL_FLOAT, false, kStride, 9 * kStride, 1},
    {"first mesh from base vertex 9", 0, 0, 3, GL_FLOAT, false, kStride, 9 * kStride, 1},
    {"first mesh from vertex 0", 0, 0, 3, GL_FLOAT, false, kStride, 0, 1},
    {"second mesh from vertex 0", 1, 0, 3, GL_FLOAT, false, kStride, 0, 1},
    {"first mesh from vertex 0 once more", 0, 0, 3, GL_FLOAT, false, kStride, 0, 1},
    {"first mesh's shorts", 0, 1, 2, GL_SHORT, true, kStride, 12, 1},
    {"second mesh's shorts", 1, 1, 2, GL_SHORT, true, kStride, 12, 1},
    {"second mesh's shorts from base vertex 4", 1, 1, 2, GL_SHORT, true, kStride, 4 * kStride + 12, 1},
    {"first mesh's shorts from base vertex 4", 0, 1, 2, GL_SHORT, true, kStride, 4 * kStride + 12, 1},
    {"shorts not normalised", 0, 1, 2, GL_SHORT, false, kStride, 4 * kStride + 12, 1},
    {"four bytes instead", 0, 1, 4, GL_UNSIGNED_BYTE, false, kStride, 4 * kStride + 12, 1},
    {"four bytes, stride 16", 0, 1, 4, GL_UNSIGNED_BYTE, false, 16, 4 * kStride + 12, 1},
};

// Asks the cache for `step` as the renderer does (buffer, array enabled, pointer) and expects GL to
// hold exactly that afterwards, having sent the pointer only when it changed.
void applyAndCheck(gl::StateCache& cache, const PointerStep& step, const GLuint (&buffers)[2]) {
    SCOPED_TRACE(step.what);
    const GLuint buffer = buffers[step.buffer];
    cache.bindArrayBuffer(buffer);
    cache.enableAttribute(step.location, true);
    const uint64_t before = gl::callCount();
    cache.attributePointer(step.location, step.size, step.type, step.normalized, step.stride, step.offset);
    EXPECT_EQ(gl::callCount() - before, step.pointerCalls);
    EXPECT_EQ(boundBuffer(GL_ARRAY_BUFFER_BINDING), GLint(buffer));
    const AttributeArray a = readAttributeArray(step.location);
    EXPECT_EQ(a.buffer, GLint(buffer)) << "the buffer the pointer reads";
    EXPECT_EQ(a.offset, step.offset) << "the pointer's offset (base vertex)";
    EXPECT_EQ(a.size, step.size);
    EXPECT_EQ(a.type, GLint(step.type));
    EXPECT_EQ(a.normalized, step.normalized ? GL_TRUE : GL_FALSE);
    EXPECT_EQ(a.stride, step.stride);
    EXPECT_EQ(a.enabled, GL_TRUE);
}

TEST(GlStateCache, AttributePointersWithoutVertexArraysFollowTheirBufferAndOffset) {
    // The strict profile's renderer uses no vertex arrays either: nothing binds one in this context.
    test::RenderHarness harness(false, 16, 16, /*checkErrors=*/false, /*strict=*/true);
    ASSERT_TRUE(harness.ok());
    ASSERT_FALSE(harness.info().vertexArrays);
    ASSERT_FALSE(gl::vertexArrayApi().available());
    GLuint buffers[2] = {0, 0};
    glGenBuffers(2, buffers);
    const std::vector<uint8_t> bytes(16 * kStride, 0);
    for (GLuint buffer : buffers) {
        glBindBuffer(GL_ARRAY_BUFFER, buffer);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(bytes.size()), bytes.data(), GL_STATIC_DRAW);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);

    gl::StateCache cache;
    cache.configure(false, 8);
    for (const PointerStep& step : kPointerSteps) applyAndCheck(cache, step, buffers);
    // Location 0 kept what its last step asked while location 1 changed.
    const AttributeArray first = readAttributeArray(0);
    EXPECT_EQ(first.buffer, GLint(buffers[0]));
    EXPECT_EQ(first.offset, 0u);
    EXPECT_EQ(first.stride, kStride);
    cache.enableAttribute(1, false);
    EXPECT_EQ(readAttributeArray(1).enabled, GL_FALSE);

    // The element buffer belongs to the context as well.
    for (GLuint buffer : {buffers[0], buffers[1], buffers[0]}) {
        cache.bindElementBuffer(buffer);
        EXPECT_EQ(boundBuffer(GL_ELEMENT_ARRAY_BUFFER_BINDING), GLint(buffer));
    }

    // A new frame after someone else (the panel) drew with the context's arrays: the same state
    // asked of the cache again reaches GL.
    cache.resetContextState();
    glBindBuffer(GL_ARRAY_BUFFER, buffers[1]);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    glVertexAttribPointer(0, 4, GL_UNSIGNED_BYTE, GL_TRUE, 20, reinterpret_cast<const void*>(uintptr_t(8)));
    glDisableVertexAttribArray(0);
    cache.bindElementBuffer(buffers[0]);
    EXPECT_EQ(boundBuffer(GL_ELEMENT_ARRAY_BUFFER_BINDING), GLint(buffers[0]));
    applyAndCheck(cache, {"first mesh in the next frame", 0, 0, 3, GL_FLOAT, false, kStride, 0, 1}, buffers);

    cache.bindArrayBuffer(0);
    cache.bindElementBuffer(0);
    cache.disableContextAttributes();
    EXPECT_EQ(readAttributeArray(0).enabled, GL_FALSE);
    glDeleteBuffers(2, buffers);
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
}

// The demo scene with a third mesh: a smaller copy of the blob, in buffers of its own, drawn right
// after the blob. The two share their layout (stride, attributes, offsets), so only the buffer
// tells their pointers apart, and the morph target's deltas are a second such pair.
Scene demoWithSecondBlob() {
    Scene scene = makeDemoScene();
    int32_t blobNode = -1;
    for (size_t n = 0; n < scene.nodes.size(); ++n)
        if (scene.nodes[n].name == "blob") blobNode = int32_t(n);
    EXPECT_GE(blobNode, 0);
    if (blobNode < 0) return scene;
    const Node original = scene.nodes[size_t(blobNode)];
    Mesh copy = scene.meshes[size_t(original.object)];
    copy.name = "small_blob";
    VertexStream& stream = copy.streams.front();
    std::vector<uint8_t> bytes(stream.bytes.data, stream.bytes.data + stream.bytes.size);
    for (uint32_t v = 0; v < stream.count; ++v) {
        float* position = reinterpret_cast<float*>(bytes.data() + size_t(v) * stream.stride);
        for (int k = 0; k < 3; ++k) position[k] *= 0.6f;
    }
    stream.bytes = makeOwnedBytes(std::move(bytes));
    scene.meshes.push_back(std::move(copy));
    Node node = original;
    node.name = "small_blob";
    node.object = int32_t(scene.meshes.size() - 1);
    node.local.translation = glm::vec3(-1.5f, 0.4f, 0.3f);
    scene.nodes.push_back(node);
    return scene;
}

// The same frames (at rest and animated, each drawn twice so that the second starts from the
// first's state) by a renderer with vertex arrays and by one without.
std::vector<test::Rendered> drawFrames(const Scene& scene, bool strict, bool& vertexArrays) {
    constexpr int kSize = 192;
    test::RenderHarness harness(/*gles2=*/true, kSize, kSize, /*checkErrors=*/true, strict);
    std::vector<test::Rendered> frames;
    if (!harness.setScene(scene)) return frames;
    vertexArrays = harness.info().vertexArrays;
    for (float seconds : {-1.0f, 0.7f}) {
        const Pose pose = harness.poseAt(seconds);
        const ViewSettings view = harness.framed(pose, ViewSettings{});
        for (int i = 0; i < 2; ++i) frames.push_back(harness.draw(pose, view));
    }
    return frames;
}

TEST(NoVertexArrays, MeshesOfOneLayoutDrawAsWithVertexArrays) {
    const Scene scene = demoWithSecondBlob();
    bool withArrays = false, withoutArrays = true;
    const std::vector<test::Rendered> expected = drawFrames(scene, false, withArrays);
    const std::vector<test::Rendered> actual = drawFrames(scene, true, withoutArrays);
    ASSERT_TRUE(withArrays) << "ES2 mode draws with OES_vertex_array_object here";
    ASSERT_FALSE(withoutArrays) << "the strict profile draws without vertex arrays";
    ASSERT_EQ(actual.size(), expected.size());
    ASSERT_EQ(actual.size(), 4u);
    for (size_t i = 0; i < actual.size(); ++i) {
        SCOPED_TRACE("frame " + std::to_string(i));
        EXPECT_EQ(actual[i].stats.glErrors, 0u);
        EXPECT_EQ(actual[i].stats.drawCalls, expected[i].stats.drawCalls);
        const test::CompareResult c = test::compareImages(actual[i].image, expected[i].image, 2);
        std::printf("[ no vertex arrays ] frame %zu: %u draws, %zu model pixels, %.3f%% beyond 2 levels, "
                    "worst %d\n",
                    i, actual[i].stats.drawCalls, c.modelPixels, 100.0 * c.modelFraction, c.maxDifference);
        EXPECT_GT(c.modelPixels, 4000u) << "three meshes in view";
        EXPECT_EQ(test::matchImage("no_vertex_arrays_" + std::to_string(i), actual[i].image,
                                   expected[i].image, test::GoldenRule{2, 0.001, 0.001, 0.5}),
                  "");
    }
}

}  // namespace
}  // namespace esv
