// AWD reader tests on files written in code (awd_writer.h): every feature of part 1 with the
// values it must produce, and the errors and check-mode violations with their block and offset.
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include "awd/awd_writer.h"
#include "loaders/awd/awd_format.h"
#include "loaders/awd/awd_primitives.h"
#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"

namespace esv {
namespace {

using awdtest::AwdWriter;
using awdtest::Bytes;
using awdtest::Compression;
using awdtest::Props;
using awdtest::UserAttrs;
using awdtest::WriterOptions;

LoadResult load(const std::vector<uint8_t>& bytes, bool check = false) {
    LoadOptions options;
    options.collectAll = check;
    return loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(bytes), "test.awd", options);
}

std::string problemsText(const LoadResult& r) {
    std::string out;
    for (const Problem& p : r.problems) out += p.format() + "\n";
    return out;
}

bool reportHas(const Scene& scene, const std::string& text, Severity severity) {
    for (const ReportLine& line : scene.report)
        if (line.severity == severity && line.text.find(text) != std::string::npos) return true;
    return false;
}

std::string reportText(const Scene& scene) {
    std::string out;
    for (const ReportLine& line : scene.report) out += (line.severity == Severity::Warning ? "W: " : "I: ") + line.text + "\n";
    return out;
}

bool problemHas(const LoadResult& r, const std::string& text) {
    for (const Problem& p : r.problems)
        if (p.format().find(text) != std::string::npos) return true;
    return false;
}

// A quad of two triangles in the XY plane, with UVs.
AwdWriter::SubGeometry quad(const AwdWriter& w, bool normals = false) {
    AwdWriter::SubGeometry sub;
    sub.streams.push_back(w.floats(1, {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}));
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2, 0, 2, 3}));
    sub.streams.push_back(w.floats(3, {0, 0, 1, 0, 1, 1, 0, 1}));
    if (normals) sub.streams.push_back(w.floats(4, {0, 0, -1, 0, 0, -1, 0, 0, -1, 0, 0, -1}));
    return sub;
}

const VertexAttribute* find(const Mesh& mesh, Semantic semantic, uint8_t set, const VertexStream** stream) {
    return findAttribute(mesh, semantic, set, stream);
}

glm::vec4 value(const Mesh& mesh, Semantic semantic, uint8_t set, uint32_t vertex) {
    const VertexStream* s = nullptr;
    const VertexAttribute* a = find(mesh, semantic, set, &s);
    float out[4] = {0, 0, 0, 0};
    const int count = a ? readAttribute(*s, *a, vertex, out) : 0;
    for (int k = count; k < 4; ++k) out[k] = 0.0f;  // only the stored components
    return glm::vec4(out[0], out[1], out[2], out[3]);
}

// ---------------------------------------------------------------------------------------------
// Header, body and compression

TEST(AwdFixtures, MinimalFileKeepsStreamsAsViewsIntoTheFile) {
    AwdWriter w;
    const uint32_t geo = w.block(1, w.triangleGeometry("quad", {quad(w, true)}));
    w.block(23, w.meshInstance(0, glm::translate(glm::mat4(1.0f), glm::vec3(5, 0, 0)), "q", geo, {}));
    const std::vector<uint8_t> file = w.finish();
    auto shared = std::make_shared<const std::vector<uint8_t>>(file);
    LoadResult r = loadSceneMemory(shared, "test.awd", {});
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    EXPECT_EQ(s.format, "awd");
    ASSERT_EQ(s.meshes.size(), 1u);
    ASSERT_EQ(s.nodes.size(), 1u);
    const Mesh& m = s.meshes[0];
    EXPECT_EQ(m.name, "quad");
    EXPECT_EQ(m.vertexCount, 4u);
    EXPECT_EQ(m.indices.count, 6u);
    EXPECT_EQ(m.indices.type, ComponentType::UInt16);
    ASSERT_EQ(m.submeshes.size(), 1u);
    EXPECT_EQ(triangleCount(m), 2u);
    // Positions, UVs, normals and indices point into the file buffer itself.
    for (const VertexStream& vs : m.streams) {
        EXPECT_EQ(vs.bytes.owner.get(), shared.get());
        EXPECT_GE(vs.bytes.data, shared->data());
        EXPECT_LE(vs.bytes.data + vs.bytes.size, shared->data() + shared->size());
    }
    EXPECT_EQ(m.indices.bytes.owner.get(), shared.get());
    EXPECT_EQ(value(m, Semantic::Position, 0, 2), glm::vec4(1, 1, 0, 0));
    EXPECT_EQ(value(m, Semantic::TexCoord, 0, 3), glm::vec4(0, 1, 0, 0));
    EXPECT_EQ(value(m, Semantic::Normal, 0, 1), glm::vec4(0, 0, -1, 0));
    const Node& n = s.nodes[0];
    EXPECT_EQ(n.name, "q");
    EXPECT_EQ(n.kind, NodeKind::Mesh);
    EXPECT_EQ(n.object, 0);
    EXPECT_EQ(n.parent, -1);
    EXPECT_EQ(n.local.toMatrix()[3], glm::vec4(5, 0, 0, 1));
    ASSERT_EQ(n.materials.size(), 1u);
    EXPECT_EQ(n.materials[0], -1);
    Pose pose;
    evaluatePose(s, -1, 0.0f, pose);
    Bounds b = sceneBounds(s, pose);
    EXPECT_EQ(b.min, glm::vec3(5, 0, 0));
    EXPECT_EQ(b.max, glm::vec3(6, 1, 0));
}

TEST(AwdFixtures, MissingNormalsAreComputedWithANote) {
    AwdWriter w;
    const uint32_t geo = w.block(1, w.triangleGeometry("quad", {quad(w)}));
    w.block(23, w.meshInstance(0, glm::mat4(1.0f), "q", geo, {}));
    LoadResult r = load(w.finish());
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Mesh& m = r.scene->meshes[0];
    // Counter-clockwise in XY: +Z (right-hand cross product of the triangle edges).
    for (uint32_t v = 0; v < 4; ++v) EXPECT_EQ(value(m, Semantic::Normal, 0, v), glm::vec4(0, 0, 1, 0));
    EXPECT_TRUE(reportHas(*r.scene, "normals computed", Severity::Info)) << reportText(*r.scene);
}

TEST(AwdFixtures, CompressedBodiesGiveTheSameScene) {
    for (Compression c : {Compression::None, Compression::Zlib, Compression::Lzma}) {
        WriterOptions o;
        o.compression = c;
        AwdWriter w(o);
        const uint32_t geo = w.block(1, w.triangleGeometry("quad", {quad(w, true)}));
        w.block(23, w.meshInstance(0, glm::mat4(1.0f), "q", geo, {}));
        const std::vector<uint8_t> file = w.finish();
        EXPECT_EQ(file[7], static_cast<uint8_t>(c));
        LoadResult r = load(file);
        ASSERT_TRUE(r.ok()) << int(c) << ": " << problemsText(r);
        const Mesh& m = r.scene->meshes[0];
        EXPECT_EQ(m.vertexCount, 4u);
        EXPECT_EQ(value(m, Semantic::Position, 0, 2), glm::vec4(1, 1, 0, 0));
        EXPECT_EQ(value(m, Semantic::TexCoord, 0, 2), glm::vec4(1, 1, 0, 0));
        EXPECT_EQ(r.scene->nodes.size(), 1u);
    }
}

TEST(AwdFixtures, CorruptCompressedBodiesAreErrors) {
    for (Compression c : {Compression::Zlib, Compression::Lzma}) {
        WriterOptions o;
        o.compression = c;
        AwdWriter w(o);
        w.block(1, w.triangleGeometry("quad", {quad(w, true)}));
        std::vector<uint8_t> file = w.finish();
        std::vector<uint8_t> cut(file.begin(), file.end() - 7);
        cut[8] = static_cast<uint8_t>(cut.size() - 12);  // body length matches what is there
        cut[9] = static_cast<uint8_t>((cut.size() - 12) >> 8);
        LoadResult r = load(cut);
        EXPECT_FALSE(r.ok());
        EXPECT_TRUE(problemHas(r, "ends early") || problemHas(r, "corrupt")) << problemsText(r);
        for (size_t i = 14; i < file.size(); i += 3) file[i] ^= 0x5A;
        r = load(file);
        EXPECT_FALSE(r.ok()) << int(c);
    }
}

// The LZMA body as the Away3D tools write it (the .lzma header: properties, dictionary size,
// 64-bit size) and as the spec's table 4 has it (uint32 size first), for the whole body and for
// one compressed block.
TEST(AwdFixtures, LzmaBodiesInBothLayouts) {
    using awdtest::LzmaLayout;
    for (LzmaLayout layout : {LzmaLayout::Alone, LzmaLayout::AloneUnknownSize, LzmaLayout::Spec}) {
        for (bool perBlock : {false, true}) {
            WriterOptions o;
            o.compression = perBlock ? Compression::None : Compression::Lzma;
            o.lzmaLayout = layout;
            AwdWriter w(o);
            const uint32_t geo = w.block(1, w.triangleGeometry("quad", {quad(w, true)}), 0, perBlock ? 0x18 : 0);
            w.block(23, w.meshInstance(0, glm::mat4(1.0f), "q", geo, {}));
            const std::vector<uint8_t> file = w.finish();
            LoadResult r = load(file, true);
            ASSERT_TRUE(r.ok()) << int(layout) << " " << perBlock << ": " << problemsText(r);
            EXPECT_EQ(r.scene->meshes[0].vertexCount, 4u);
            EXPECT_EQ(value(r.scene->meshes[0], Semantic::Position, 0, 2), glm::vec4(1, 1, 0, 0));
        }
    }
    // The writer's default is the tools' layout: after the 12-byte file header come the properties
    // (0x5D), the 1 MiB dictionary and the 64-bit body size.
    AwdWriter w{WriterOptions{2, 1, Compression::Lzma}};
    w.block(1, w.triangleGeometry("quad", {quad(w, true)}));
    const std::vector<uint8_t> file = w.finish();
    const uint8_t props[5] = {0x5D, 0x00, 0x00, 0x10, 0x00};
    EXPECT_EQ(std::memcmp(file.data() + 12, props, 5), 0);
    uint64_t size64 = 0;
    for (int i = 0; i < 8; ++i) size64 |= uint64_t(file[17 + i]) << (8 * i);
    std::vector<uint8_t> body;
    std::string error;
    ASSERT_TRUE(awd::inflateLzma(file.data() + 12, file.size() - 12, awd::kMaxDecompressedBytes, body, error)) << error;
    EXPECT_EQ(size64, body.size());
}

// A .lzma body that the AWD spec's layout could start to read too: its properties byte and 1 MiB
// dictionary read as a spec size of 268435549 with properties 0, and its 4096-byte size as a
// plausible dictionary. The .lzma reading is tried first: it is what real files hold, and when both
// fail its error is the one reported (the spec reading's says 268435549).
TEST(AwdFixtures, LzmaBodyBothLayoutsCouldReadTriesTheLzmaLayoutFirst) {
    using awdtest::LzmaLayout;
    std::vector<uint8_t> payload(4096);
    for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<uint8_t>((i * 13) ^ (i >> 4));
    const std::vector<uint8_t> z = awdtest::lzmaCompress(payload, LzmaLayout::Alone);
    ASSERT_GE(z.size(), 13u);
    ASSERT_EQ(z[4], 0x00) << "the dictionary's top byte, a plausible spec properties byte";
    ASSERT_EQ(z[5] | z[6] << 8 | z[7] << 16 | uint32_t(z[8]) << 24, 4096u) << "the size, a plausible spec dictionary";
    std::vector<uint8_t> out;
    std::string error;
    ASSERT_TRUE(awd::inflateLzma(z.data(), z.size(), 1 << 20, out, error)) << error;
    EXPECT_EQ(out, payload);
    // Both readings fail: the .lzma one's error, not the spec one's.
    std::vector<uint8_t> cut(z.begin(), z.begin() + z.size() / 2);
    EXPECT_FALSE(awd::inflateLzma(cut.data(), cut.size(), 1 << 20, out, error));
    EXPECT_NE(error.find("ends early"), std::string::npos) << error;
    EXPECT_EQ(error.find("268435549"), std::string::npos) << error;
}

TEST(AwdFixtures, LzmaLayoutErrorsAreOneLine) {
    using awdtest::LzmaLayout;
    std::vector<uint8_t> payload(3000);
    for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<uint8_t>((i * 7) ^ (i >> 3));
    std::vector<uint8_t> out;
    std::string error;
    for (LzmaLayout layout : {LzmaLayout::Alone, LzmaLayout::Spec}) {
        const std::vector<uint8_t> z = awdtest::lzmaCompress(payload, layout);
        ASSERT_TRUE(awd::inflateLzma(z.data(), z.size(), 1 << 20, out, error)) << error;
        EXPECT_EQ(out, payload);
        // Truncated: every cut inside the data says the data ends early (or, cut inside the
        // header, that the header does not fit); never a crash, always one line.
        for (size_t cut : {size_t(5), size_t(12), size_t(20), z.size() / 2, z.size() - 1}) {
            EXPECT_FALSE(awd::inflateLzma(z.data(), cut, 1 << 20, out, error)) << int(layout) << " cut " << cut;
            EXPECT_EQ(error.find('\n'), std::string::npos);
            if (cut >= 20) {
                EXPECT_NE(error.find("ends early"), std::string::npos) << int(layout) << " cut " << cut << ": " << error;
            }
        }
        // Corrupt data: an error (corrupt, ends early, or a size that does not match), never the
        // wrong bytes.
        std::vector<uint8_t> bad = z;
        for (size_t i = 40; i < bad.size(); i += 5) bad[i] ^= 0xA5;
        EXPECT_FALSE(awd::inflateLzma(bad.data(), bad.size(), 1 << 20, out, error)) << int(layout);
        EXPECT_FALSE(error.empty());
        // A declared size larger than the data holds.
        bad = z;
        if (layout == LzmaLayout::Alone)
            bad[5] = static_cast<uint8_t>(bad[5] + 1);
        else
            bad[0] = static_cast<uint8_t>(bad[0] + 1);
        EXPECT_FALSE(awd::inflateLzma(bad.data(), bad.size(), 1 << 20, out, error));
        EXPECT_TRUE(error.find("ends early") != std::string::npos || error.find("declares") != std::string::npos ||
                    error.find("corrupt") != std::string::npos)
            << error;
    }
    // .lzma with a 64-bit size past the limit: refused before decoding.
    std::vector<uint8_t> z = awdtest::lzmaCompress(payload, LzmaLayout::Alone);
    for (int i = 0; i < 4; ++i) z[5 + i] = 0xFF;  // 0xFFFFFFFF bytes
    EXPECT_FALSE(awd::inflateLzma(z.data(), z.size(), 1 << 20, out, error));
    EXPECT_NE(error.find("declares 4294967295 decompressed bytes"), std::string::npos) << error;
    // An unknown size stops at the limit.
    z = awdtest::lzmaCompress(payload, LzmaLayout::AloneUnknownSize);
    EXPECT_FALSE(awd::inflateLzma(z.data(), z.size(), 1000, out, error));
    EXPECT_NE(error.find("more than 1000 bytes"), std::string::npos) << error;
    EXPECT_TRUE(awd::inflateLzma(z.data(), z.size(), 1 << 20, out, error)) << error;
    EXPECT_EQ(out, payload);
    // Neither layout: a properties byte of 225 or more and no dictionary size an encoder writes.
    const std::vector<uint8_t> junk = {0xF0, 0x12, 0x34, 0x56, 0xE1, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_FALSE(awd::inflateLzma(junk.data(), junk.size(), 1 << 20, out, error));
    EXPECT_NE(error.find("neither a .lzma header"), std::string::npos) << error;
}

// The first bytes of the body of a real file written by the Away3D tools: properties 5d, a
// 1 MiB dictionary, then 1,328,777 as a 64-bit size. The reader takes them as the .lzma layout
// (read as the spec's layout they would be a 268 MB size and a 1,328,777-byte dictionary).
TEST(AwdFixtures, LzmaHeaderOfTheToolsIsRecognised) {
    std::vector<uint8_t> payload(1328777);
    for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<uint8_t>(i % 251);
    const std::vector<uint8_t> z = awdtest::lzmaCompress(payload);
    const uint8_t expected[13] = {0x5d, 0x00, 0x00, 0x10, 0x00, 0x89, 0x46, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00};
    ASSERT_GE(z.size(), 13u);
    EXPECT_EQ(std::memcmp(z.data(), expected, 13), 0);
    std::vector<uint8_t> out;
    std::string error;
    ASSERT_TRUE(awd::inflateLzma(z.data(), z.size(), awd::decompressionLimit(z.size()), out, error)) << error;
    EXPECT_EQ(out.size(), payload.size());
    EXPECT_TRUE(out == payload);
}

// Away3D's tools set header flag 0x80, which the spec does not define: a warning in the report,
// not a check-mode problem.
TEST(AwdFixtures, UnknownHeaderFlagIsAWarning) {
    WriterOptions o;
    o.compression = Compression::Lzma;
    o.extraFlags = 0x80;
    AwdWriter w(o);
    const uint32_t geo = w.block(1, w.triangleGeometry("quad", {quad(w, true)}));
    w.block(23, w.meshInstance(0, glm::mat4(1.0f), "q", geo, {}));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    EXPECT_TRUE(reportHas(*r.scene, "offset 0x5: header: header flags 0x80 are not defined by the spec and are ignored",
                          Severity::Warning))
        << reportText(*r.scene);
}

TEST(AwdFixtures, DecompressionBombsAreRefusedBeforeAllocating) {
    // An LZMA body declaring 3 GB: refused from its header.
    Bytes body;
    body.u32(3000000000u).u8(0x5D).u32(1u << 24).u32(0).u32(0);
    Bytes file;
    file.text("AWD").u8(2).u8(1).u16(0).u8(2).u32(static_cast<uint32_t>(body.size())).raw(body);
    LoadResult r = load(file.data);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(problemHas(r, "declares 3000000000 decompressed bytes")) << problemsText(r);
    EXPECT_EQ(r.problems[0].offset, 12);

    // A zlib stream inflating past its limit stops there.
    std::vector<uint8_t> zeros(1 << 20, 0);
    const std::vector<uint8_t> z = awdtest::zlibCompress(zeros);
    std::vector<uint8_t> out;
    size_t trailing = 0;
    std::string error;
    EXPECT_FALSE(awd::inflateZlib(z.data(), z.size(), 4096, out, trailing, error));
    EXPECT_NE(error.find("more than 4096 bytes"), std::string::npos) << error;
    EXPECT_TRUE(out.empty() || out.size() <= 4096);
    EXPECT_TRUE(awd::inflateZlib(z.data(), z.size(), 1 << 20, out, trailing, error)) << error;
    EXPECT_EQ(out.size(), zeros.size());
    // The cap grows with the input and never passes the absolute limit.
    EXPECT_EQ(awd::decompressionLimit(0), uint64_t(32) << 20);
    EXPECT_EQ(awd::decompressionLimit(uint64_t(1) << 30), awd::kMaxDecompressedBytes);
    EXPECT_GT(awd::decompressionLimit(1 << 20), awd::decompressionLimit(1 << 10));
}

TEST(AwdFixtures, HeaderErrorsAndTheBodyLength) {
    AwdWriter w;
    w.block(1, w.triangleGeometry("quad", {quad(w, true)}));
    std::vector<uint8_t> file = w.finish();

    std::vector<uint8_t> v = file;
    v[3] = 3;  // version 3.1
    LoadResult r = load(v);
    EXPECT_TRUE(problemHas(r, "AWD version 3.1 is not supported")) << problemsText(r);
    v = file;
    v[7] = 9;
    EXPECT_TRUE(problemHas(load(v), "compression type 9 is not defined"));
    v.assign(file.begin(), file.begin() + 8);
    EXPECT_TRUE(problemHas(load(v), "shorter than the 12-byte AWD header"));

    // Body shorter than the header says: truncated.
    v.assign(file.begin(), file.end() - 1);
    r = load(v);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(problemHas(r, "offset 0x8: header: the header says the body is")) << problemsText(r);
    // Longer: the extra bytes are a violation.
    v = file;
    v.push_back(0);
    v.push_back(0);
    r = load(v);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(reportHas(*r.scene, "2 bytes after the body", Severity::Warning));
    r = load(v, true);
    EXPECT_EQ(r.problems.size(), 1u) << problemsText(r);
    EXPECT_EQ(r.problems[0].offset, int64_t(file.size()));
}

TEST(AwdFixtures, StreamingFilesReadUntilTheDataEnds) {
    WriterOptions o;
    o.streaming = true;
    AwdWriter w(o);
    const uint32_t geo = w.block(1, w.triangleGeometry("quad", {quad(w, true)}));
    w.block(23, w.meshInstance(0, glm::mat4(1.0f), "q", geo, {}));
    // The body length field is not used by a streaming file.
    std::vector<uint8_t> file = w.finish(0);
    LoadResult r = load(file);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    EXPECT_EQ(r.scene->nodes.size(), 1u);
    EXPECT_TRUE(reportHas(*r.scene, "streaming file", Severity::Info));
    // A block the stream has not finished delivering is left out with a warning.
    w.rawBody(Bytes().u32(3).u8(0).u8(22).u8(0).u32(500).u32(0));
    r = load(w.finish(0));
    ASSERT_TRUE(r.ok()) << problemsText(r);
    EXPECT_EQ(r.scene->nodes.size(), 1u);
    EXPECT_TRUE(reportHas(*r.scene, "the stream is read up to there", Severity::Warning)) << reportText(*r.scene);
}

// ---------------------------------------------------------------------------------------------
// Geometry

TEST(AwdFixtures, EveryStreamTypeWithSeveralUvSets) {
    AwdWriter w;
    AwdWriter::SubGeometry sub;
    sub.streams.push_back(w.floats(1, {0, 0, 0, 1, 0, 0, 0, 1, 0}));
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2}));
    sub.streams.push_back(w.floats(3, {0, 0, 1, 0, 0, 1}));
    sub.streams.push_back(w.floats(3, {0.5, 0.5, 0.25, 0.25, 0.125, 0.125}));
    sub.streams.push_back(w.floats(4, {0, 0, 1, 0, 0, 1, 0, 0, 1}));
    sub.streams.push_back(w.floats(5, {1, 0, 0, 1, 0, 0, 1, 0, 0}));
    sub.streams.push_back(AwdWriter::shorts(6, {0, 1, 2, 3, 4, 5}));
    sub.streams.push_back(w.floats(7, {0.75, 0.25, 1, 0, 0.5, 0.5}));
    w.block(1, w.triangleGeometry("all", {sub}));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Mesh& m = r.scene->meshes[0];
    ASSERT_EQ(m.streams.size(), 7u);
    EXPECT_EQ(value(m, Semantic::TexCoord, 1, 1), glm::vec4(0.25f, 0.25f, 0, 0));
    EXPECT_EQ(value(m, Semantic::Tangent, 0, 2), glm::vec4(1, 0, 0, 0));
    const VertexStream* js = nullptr;
    const VertexAttribute* joints = find(m, Semantic::BoneIndices, 0, &js);
    ASSERT_TRUE(joints);
    EXPECT_EQ(joints->type, ComponentType::UInt16);
    EXPECT_EQ(joints->components, 2);
    EXPECT_EQ(js->stride, 4u);
    EXPECT_EQ(value(m, Semantic::BoneIndices, 0, 2), glm::vec4(4, 5, 0, 0));
    EXPECT_EQ(value(m, Semantic::BoneWeights, 0, 0), glm::vec4(0.75f, 0.25f, 0, 0));
    const VertexAttribute* uv1 = find(m, Semantic::TexCoord, 1, &js);
    ASSERT_TRUE(uv1);
    EXPECT_EQ(uv1->type, ComponentType::Float32);
}

TEST(AwdFixtures, MoreThanFourJointsPerVertexBecomeSetsOfFour) {
    AwdWriter w;
    AwdWriter::SubGeometry sub;
    sub.streams.push_back(w.floats(1, {0, 0, 0, 1, 0, 0, 0, 1, 0}));
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2}));
    std::vector<uint32_t> joints;
    std::vector<double> weights;
    for (int v = 0; v < 3; ++v)
        for (int k = 0; k < 5; ++k) {
            joints.push_back(uint32_t(v * 10 + k));
            weights.push_back(0.2);
        }
    sub.streams.push_back(AwdWriter::shorts(6, joints));
    sub.streams.push_back(w.floats(7, weights));
    w.block(1, w.triangleGeometry("five", {sub}));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Mesh& m = r.scene->meshes[0];
    EXPECT_EQ(value(m, Semantic::BoneIndices, 0, 1), glm::vec4(10, 11, 12, 13));
    EXPECT_EQ(value(m, Semantic::BoneIndices, 1, 1), glm::vec4(14, 0, 0, 0));
    const VertexStream* s = nullptr;
    const VertexAttribute* second = find(m, Semantic::BoneWeights, 1, &s);
    ASSERT_TRUE(second);
    EXPECT_EQ(second->components, 1);
    EXPECT_EQ(second->offset, 16u);
    EXPECT_EQ(s->stride, 20u);
}

TEST(AwdFixtures, Float64GeometryIsConvertedOnceWithAWarning) {
    WriterOptions o;
    o.geometry64 = true;
    AwdWriter w(o);
    AwdWriter::SubGeometry sub;
    sub.streams.push_back(w.floats(1, {0.1, 0.2, 0.3, 1e10, 0, 0, 0, 1, 0}));
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2}));
    sub.streams.push_back(w.floats(3, {0.5, 0.25, 1, 0, 0, 1}));
    w.block(1, w.triangleGeometry("wide", {sub}));
    const std::vector<uint8_t> file = w.finish();
    EXPECT_EQ(file[5], 0x04);
    LoadResult r = load(file);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Mesh& m = r.scene->meshes[0];
    EXPECT_EQ(value(m, Semantic::Position, 0, 0), glm::vec4(0.1f, 0.2f, 0.3f, 0));
    EXPECT_EQ(value(m, Semantic::Position, 0, 1).x, 1e10f);
    EXPECT_EQ(value(m, Semantic::TexCoord, 0, 0), glm::vec4(0.5f, 0.25f, 0, 0));
    for (const VertexStream& vs : m.streams)
        for (const VertexAttribute& a : vs.attributes) EXPECT_EQ(a.type, ComponentType::Float32);
    EXPECT_TRUE(reportHas(*r.scene, "float64 geometry converted to float32", Severity::Warning)) << reportText(*r.scene);

    // AWD 2.0 has no precision flags: Away3D reads float32 and so do we (with a violation).
    WriterOptions o20;
    o20.minor = 0;
    o20.extraFlags = 0x4;
    AwdWriter w20(o20);
    w20.block(1, w20.triangleGeometry("narrow", {quad(w20, true)}));
    r = load(w20.finish(), true);
    EXPECT_TRUE(problemHas(r, "defined for AWD 2.1 only")) << problemsText(r);
}

TEST(AwdFixtures, Float64MatricesAndProperties) {
    WriterOptions o;
    o.matrix64 = true;
    o.properties64 = true;
    AwdWriter w(o);
    glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(1.5f, -2.25f, 1e6f)) * glm::rotate(glm::mat4(1.0f), 0.5f, glm::vec3(0, 1, 0));
    const uint32_t c = w.block(22, w.container(0, m, "c", Props().f(1, 2.0, true).f(2, 0.0, true).f(3, 0.0, true)));
    w.block(41, w.light(c, glm::mat4(1.0f), "p", 1, Props().f(1, 10.0, true).f(2, 20.0, true).f(5, 0.5, true)));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    // Away3D pivots: T(pivot) * M * T(-pivot).
    const glm::mat4 expected = glm::translate(glm::mat4(1.0f), glm::vec3(2, 0, 0)) * m * glm::translate(glm::mat4(1.0f), glm::vec3(-2, 0, 0));
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) EXPECT_NEAR(s.nodes[0].local.toMatrix()[i][j], expected[i][j], 1e-3) << i << j;
    ASSERT_EQ(s.lights.size(), 1u);
    EXPECT_FLOAT_EQ(s.lights[0].rangeStart, 10.0f);
    EXPECT_FLOAT_EQ(s.lights[0].range, 20.0f);
    EXPECT_FLOAT_EQ(s.lights[0].intensity, 0.5f);
    EXPECT_EQ(s.nodes[1].parent, 0);

    // A float32 property where the header asks for float64: read by its size, reported.
    AwdWriter w2(o);
    w2.block(41, w2.light(0, glm::mat4(1.0f), "p", 1, Props().f(1, 10.0, false)));
    r = load(w2.finish(), true);
    EXPECT_TRUE(problemHas(r, "property 1 is a float32, but the header's precision flags ask for float64")) << problemsText(r);
}

TEST(AwdFixtures, SubGeometriesArePackedIntoOneMeshWithAMaterialEach) {
    AwdWriter w;
    const uint32_t red = w.block(81, w.material("red", 1, Props().color(1, 0xFF0000)));
    const uint32_t blue = w.block(81, w.material("blue", 1, Props().color(1, 0x0000FF)));
    AwdWriter::SubGeometry a = quad(w, true), b;
    b.lengthIncludesProps = false;  // the spec's reading of the sub-geometry length
    b.streams.push_back(w.floats(1, {0, 0, 5, 1, 0, 5, 0, 1, 5}));
    b.streams.push_back(AwdWriter::shorts(2, {0, 1, 2}));
    const uint32_t geo = w.block(1, w.triangleGeometry("two", {a, b}));
    w.block(23, w.meshInstance(0, glm::mat4(1.0f), "both", geo, {red, blue}));
    w.block(23, w.meshInstance(0, glm::mat4(1.0f), "one", geo, {blue}));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    const Mesh& m = s.meshes[0];
    EXPECT_EQ(m.vertexCount, 7u);
    ASSERT_EQ(m.submeshes.size(), 2u);
    EXPECT_EQ(m.submeshes[1].firstIndex, 6u);
    EXPECT_EQ(m.submeshes[1].indexCount, 3u);
    EXPECT_EQ(m.submeshes[1].materialSlot, 1u);
    EXPECT_EQ(value(m, Semantic::Position, 0, 5), glm::vec4(1, 0, 5, 0));
    // The second sub-geometry has no UVs (zeros) and no normals (computed).
    EXPECT_EQ(value(m, Semantic::TexCoord, 0, 5), glm::vec4(0, 0, 0, 0));
    EXPECT_EQ(value(m, Semantic::Normal, 0, 5), glm::vec4(0, 0, 1, 0));
    EXPECT_EQ(value(m, Semantic::Normal, 0, 0), glm::vec4(0, 0, -1, 0));
    std::vector<uint32_t> tris;
    expandTriangles(m, tris);
    EXPECT_EQ(tris, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 4, 5, 6}));
    EXPECT_EQ(s.nodes[0].materials, (std::vector<int32_t>{0, 1}));
    EXPECT_EQ(s.nodes[1].materials, (std::vector<int32_t>{1, 1}));  // the last material repeats
    EXPECT_EQ(s.materials[0].diffuse, glm::vec3(1, 0, 0));
    EXPECT_TRUE(reportHas(s, "sub-geometries packed", Severity::Info));
}

TEST(AwdFixtures, StreamLengthsThatAreNotWholeElementsAreViolations) {
    AwdWriter w;
    AwdWriter::SubGeometry sub;
    AwdWriter::Stream pos = w.floats(1, {0, 0, 0, 1, 0, 0, 0, 1, 0});
    pos.data.u8(0);  // 37 bytes
    sub.streams.push_back(pos);
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2, 0}));  // 4 indices
    AwdWriter::Stream uv = w.floats(3, {0, 0, 1, 0, 0, 1});
    uv.data.u8(0).u8(0);
    sub.streams.push_back(uv);
    sub.streams.push_back(AwdWriter::shorts(6, {0, 1, 2, 3, 4}));  // 5 joint indices for 3 vertices
    sub.streams.push_back(w.floats(7, {1, 1, 1, 1, 1}));
    w.block(1, w.triangleGeometry("bad", {sub}));
    const std::vector<uint8_t> file = w.finish();
    LoadResult r = load(file, true);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(problemHas(r, "block 1 (TriangleGeometry 'bad') / sub-geometry 0: the positions stream is 37 bytes, not a multiple of its 12-byte elements"))
        << problemsText(r);
    EXPECT_TRUE(problemHas(r, "4 face indices are not whole triangles"));
    EXPECT_TRUE(problemHas(r, "the UVs stream is 26 bytes, not a multiple of its 8-byte elements"));
    EXPECT_TRUE(problemHas(r, "5 joint indices are not a whole number per vertex for 3 vertices"));
    // Each with the offset of its stream header: the positions stream follows the 4-byte
    // sub-geometry length and its empty property list.
    const size_t positionsAt = 12 + 11 + 2 + 3 + 2 + 4 + 4 + 4;
    bool found = false;
    for (const Problem& p : r.problems)
        if (p.message.find("positions stream") != std::string::npos) found = p.offset == int64_t(positionsAt);
    EXPECT_TRUE(found) << problemsText(r);
    // Loading reads around them, with warnings.
    r = load(file);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    EXPECT_EQ(r.scene->meshes[0].vertexCount, 3u);
    EXPECT_EQ(r.scene->meshes[0].indices.count, 3u);
    EXPECT_TRUE(reportHas(*r.scene, "not a multiple of its 12-byte elements", Severity::Warning));
}

TEST(AwdFixtures, WeightsThatDoNotSumToOneAreViolations) {
    AwdWriter w;
    AwdWriter::SubGeometry sub;
    sub.streams.push_back(w.floats(1, {0, 0, 0, 1, 0, 0, 0, 1, 0}));
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2}));
    sub.streams.push_back(AwdWriter::shorts(6, {0, 1, 0, 1, 0, 1}));
    sub.streams.push_back(w.floats(7, {0.5, 0.5, 0.5, 0.25, 1, 0.5}));
    w.block(1, w.triangleGeometry("w", {sub}));
    LoadResult r = load(w.finish(), true);
    EXPECT_TRUE(problemHas(r, "the joint weights of 2 vertices do not sum to 1 (first: vertex 1, sum 0.75")) << problemsText(r);
}

TEST(AwdFixtures, FaceIndicesPastTheVerticesAreErrors) {
    AwdWriter w;
    AwdWriter::SubGeometry sub;
    sub.streams.push_back(w.floats(1, {0, 0, 0, 1, 0, 0, 0, 1, 0}));
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 3}));
    w.block(1, w.triangleGeometry("w", {sub}));
    LoadResult r = load(w.finish());
    EXPECT_TRUE(problemHas(r, "face index 2 is 3, past the sub-geometry's 3 vertices")) << problemsText(r);
}

TEST(AwdFixtures, UvScaleFromGeometryProperties) {
    AwdWriter w;
    w.block(1, w.triangleGeometry("scaled", {quad(w, true)}, Props().f(1, 2.0).f(2, 3.0)));
    LoadResult r = load(w.finish());
    ASSERT_TRUE(r.ok()) << problemsText(r);
    EXPECT_EQ(value(r.scene->meshes[0], Semantic::TexCoord, 0, 2), glm::vec4(2, 3, 0, 0));
}

TEST(AwdFixtures, PrimitiveGeometryIsTessellatedAsAway3DDoes) {
    AwdWriter w;
    const uint32_t sphere = w.block(11, w.primitive("ball", 3, Props().f(101, 10.0).u16(301, 8).u16(302, 6)));
    w.block(11, w.primitive("odd", 9, Props()));
    w.block(23, w.meshInstance(0, glm::mat4(1.0f), "b", sphere, {}));
    LoadResult r = load(w.finish(), true);
    EXPECT_TRUE(problemHas(r, "primitive type 9 is not defined")) << problemsText(r);
    r = load(w.finish());
    ASSERT_TRUE(r.ok()) << problemsText(r);
    awd::PrimitiveParams p = awd::defaultParams(awd::PrimitiveKind::Sphere);
    p.radius = 10;
    p.segmentsW = 8;
    p.segmentsH = 6;
    awd::PrimitiveMesh expected;
    std::string error;
    ASSERT_TRUE(awd::buildPrimitive(awd::PrimitiveKind::Sphere, p, expected, error));
    const Mesh& m = r.scene->meshes[0];
    EXPECT_EQ(m.name, "ball");
    EXPECT_EQ(m.vertexCount, expected.vertexCount());
    EXPECT_EQ(triangleCount(m), expected.triangleCount());
    EXPECT_EQ(value(m, Semantic::Position, 0, 5).y, expected.positions[5 * 3 + 1]);
    EXPECT_EQ(r.scene->meshes[1].vertexCount, 0u);  // the unknown primitive is empty
    Pose pose;
    evaluatePose(*r.scene, -1, 0.0f, pose);
    Bounds b = sceneBounds(*r.scene, pose);
    EXPECT_NEAR(b.max.y, 10.0f, 1e-4f);
    EXPECT_NEAR(b.min.y, -10.0f, 1e-4f);
}

// ---------------------------------------------------------------------------------------------
// References

TEST(AwdFixtures, ForwardReferencesAreErrorsNamingBothBlocks) {
    AwdWriter w;
    w.blockWithId(1, 23, w.meshInstance(0, glm::mat4(1.0f), "early", 2, {}));
    w.blockWithId(2, 1, w.triangleGeometry("late", {quad(w, true)}));
    LoadResult r = load(w.finish());
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.problems.size(), 1u) << problemsText(r);
    EXPECT_EQ(r.problems[0].format(),
              "test.awd: offset 0x52: block 1 (MeshInstance 'early'): the geometry refers to block 2 (TriangleGeometry) "
              "at offset 0x60, which comes later in the file (references must point backwards)");
}

TEST(AwdFixtures, DanglingSelfAndWrongTypeReferencesAreErrors) {
    AwdWriter w;
    const uint32_t geo = w.block(1, w.triangleGeometry("g", {quad(w, true)}));
    w.block(23, w.meshInstance(0, glm::mat4(1.0f), "m", geo, {77}));
    LoadResult r = load(w.finish());
    EXPECT_TRUE(problemHas(r, "block 2 (MeshInstance 'm'): a material refers to block 77, which the file does not define"))
        << problemsText(r);

    AwdWriter w2;
    const uint32_t g2 = w2.block(1, w2.triangleGeometry("g", {quad(w2, true)}));
    w2.block(23, w2.meshInstance(0, glm::mat4(1.0f), "m", g2, {g2}));
    r = load(w2.finish());
    EXPECT_TRUE(problemHas(r, "a material refers to block 1 (TriangleGeometry 'g'), which is not a Material")) << problemsText(r);

    AwdWriter w3;
    w3.block(22, w3.container(1, glm::mat4(1.0f), "self"));
    r = load(w3.finish());
    EXPECT_TRUE(problemHas(r, "the parent refers to the block itself (id 1)")) << problemsText(r);

    // Check mode lists every one.
    AwdWriter w4;
    w4.block(22, w4.container(5, glm::mat4(1.0f), "a"));
    w4.block(22, w4.container(9, glm::mat4(1.0f), "b"));
    w4.block(22, w4.container(0, glm::mat4(1.0f), "c"));
    r = load(w4.finish(), true);
    EXPECT_EQ(r.problems.size(), 2u) << problemsText(r);
}

TEST(AwdFixtures, BlockIdsCountUpByOne) {
    AwdWriter w;
    w.blockWithId(1, 22, w.container(0, glm::mat4(1.0f), "a"));
    w.blockWithId(0, 22, w.container(0, glm::mat4(1.0f), "temporary"));
    w.blockWithId(3, 22, w.container(1, glm::mat4(1.0f), "gap"));
    w.blockWithId(3, 22, w.container(0, glm::mat4(1.0f), "again"));
    LoadResult r = load(w.finish(), true);
    EXPECT_TRUE(problemHas(r, "block ids count up by one from 1: expected 2, found 3")) << problemsText(r);
    EXPECT_TRUE(problemHas(r, "block id 3 is used again"));
    EXPECT_EQ(r.problems.size(), 2u);
    r = load(w.finish());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.scene->nodes.size(), 4u);
}

// ---------------------------------------------------------------------------------------------
// Scene graph

TEST(AwdFixtures, SceneContainersVisibilityAndCastShadows) {
    AwdWriter w;
    const uint32_t scene = w.block(21, w.container(0, glm::mat4(1.0f), "scene"));
    const uint32_t hidden = w.block(22, w.container(scene, glm::mat4(1.0f), "hidden", Props().u8(4, 0)));
    const uint32_t geo = w.block(1, w.triangleGeometry("g", {quad(w, true)}));
    w.block(23, w.meshInstance(hidden, glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 100)), "inside", geo, {},
                               Props().flag(5, false)));
    w.block(23, w.meshInstance(scene, glm::mat4(1.0f), "outside", geo, {}));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.nodes.size(), 4u);
    EXPECT_EQ(s.nodes[0].name, "scene");
    EXPECT_EQ(s.nodes[1].parent, 0);
    EXPECT_FALSE(s.nodes[1].visible);
    EXPECT_FALSE(s.nodes[2].visible);  // hidden by its container
    EXPECT_TRUE(s.nodes[3].visible);
    EXPECT_TRUE(reportHas(s, "cast no shadow", Severity::Info));
    Pose pose;
    evaluatePose(s, -1, 0.0f, pose);
    EXPECT_EQ(sceneBounds(s, pose).max.z, 0.0f);  // the hidden instance at z = 100 does not count
}

TEST(AwdFixtures, LightsWithTheirProperties) {
    AwdWriter w;
    const uint32_t point = w.block(41, w.light(0, glm::translate(glm::mat4(1.0f), glm::vec3(0, 10, 0)), "point", 1,
                                               Props().f(1, 50).f(2, 150).color(3, 0x00FF8000).f(4, 0.5).f(5, 2).color(7, 0x404040).f(8, 0.5)));
    const uint32_t sun = w.block(41, w.light(0, glm::mat4(1.0f), "sun", 2,
                                             Props().f(21, 0).f(22, -1).f(23, 0).u8(9, 1).u8(10, 1)));
    w.block(51, w.lightPicker("picker", {point, sun}));
    w.block(92, w.shadowMethod("soft", sun, {1103, Props().f(101, 0.5).u32(201, 7)}));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.lights.size(), 2u);
    const Light& p = s.lights[0];
    EXPECT_EQ(p.type, LightType::Point);
    EXPECT_EQ(p.color, glm::vec3(1.0f, 128.0f / 255.0f, 0.0f));
    EXPECT_FLOAT_EQ(p.intensity, 2.0f);
    EXPECT_FLOAT_EQ(p.rangeStart, 50.0f);
    EXPECT_FLOAT_EQ(p.range, 150.0f);
    EXPECT_FALSE(p.castsShadows);
    const Light& d = s.lights[1];
    EXPECT_EQ(d.type, LightType::Directional);
    EXPECT_TRUE(d.castsShadows);
    // The sun shines down: the object's -Z is Away3D's direction (0, -1, 0).
    Pose pose;
    evaluatePose(s, -1, 0.0f, pose);
    const glm::vec3 forward = -glm::normalize(glm::vec3(pose.objectWorld[1][2]));
    EXPECT_NEAR(forward.y, -1.0f, 1e-5f);
    // Ambient: colour x level summed over the lights.
    EXPECT_NEAR(s.ambient.r, 0.5f * 64.0f / 255.0f, 1e-5f);
    EXPECT_TRUE(reportHas(s, "specular 0.5", Severity::Info)) << reportText(s);
    EXPECT_TRUE(reportHas(s, "shadow mapper DirectionalShadowMapper, depth map 512", Severity::Info)) << reportText(s);
    EXPECT_TRUE(reportHas(s, "SoftShadowMapMethod (1103) for light 'sun': 101 = 0.5, 201 = 7", Severity::Info)) << reportText(s);
    EXPECT_EQ(s.nodes[0].object, 0);
    EXPECT_EQ(s.nodes[1].kind, NodeKind::Light);
}

TEST(AwdFixtures, CamerasAndTextureProjectors) {
    AwdWriter w;
    w.block(42, w.camera(0, glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, -100)), "persp", 5001, Props().f(101, 45),
                         Props().f(101, 1).f(102, 500)));
    w.block(42, w.camera(0, glm::mat4(1.0f), "ortho", 5002, Props().f(101, 300), Props()));
    const uint32_t tex = w.block(82, w.texture("proj", false, Bytes().text("proj.png")));
    w.block(43, w.textureProjector(0, glm::mat4(1.0f), "projector", tex, 1.5f, 30.0f));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.cameras.size(), 2u);
    EXPECT_FLOAT_EQ(s.cameras[0].yfov, glm::radians(45.0f));
    EXPECT_FLOAT_EQ(s.cameras[0].nearZ, 1.0f);
    EXPECT_FLOAT_EQ(s.cameras[0].farZ, 500.0f);
    EXPECT_TRUE(s.cameras[1].orthographic);
    EXPECT_FLOAT_EQ(s.cameras[1].orthoHeight, 300.0f);
    EXPECT_FLOAT_EQ(s.cameras[1].nearZ, 20.0f);  // Away3D's defaults
    EXPECT_FLOAT_EQ(s.cameras[1].farZ, 3000.0f);
    ASSERT_EQ(s.nodes.size(), 2u);  // the projector is no node
    EXPECT_EQ(s.nodes[0].kind, NodeKind::Camera);
    // Away3D cameras look down +Z.
    Pose pose;
    evaluatePose(s, -1, 0.0f, pose);
    EXPECT_NEAR(-pose.objectWorld[0][2].z, 1.0f, 1e-6f);
    EXPECT_TRUE(reportHas(s, "texture projector of texture 'proj', aspect 1.5, field of view 30", Severity::Info)) << reportText(s);
}

TEST(AwdFixtures, CommandsPutLightsIntoTheSceneGraph) {
    AwdWriter w;
    const uint32_t light = w.block(41, w.light(0, glm::mat4(1.0f), "lamp", 1, Props()));
    const uint32_t box = w.block(22, w.container(0, glm::translate(glm::mat4(1.0f), glm::vec3(10, 0, 0)), "box"));
    w.block(253, w.command(box, glm::translate(glm::mat4(1.0f), glm::vec3(0, 5, 0)), "put", 1, light));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    EXPECT_EQ(s.nodes[0].parent, 1);
    Pose pose;
    evaluatePose(s, -1, 0.0f, pose);
    EXPECT_EQ(glm::vec3(pose.world[0][3]), glm::vec3(10, 5, 0));

    // Putting an object under its own child is a loop.
    AwdWriter w2;
    const uint32_t a = w2.block(22, w2.container(0, glm::mat4(1.0f), "a"));
    const uint32_t b = w2.block(22, w2.container(a, glm::mat4(1.0f), "b"));
    w2.block(253, w2.command(b, glm::mat4(1.0f), "loop", 1, a));
    r = load(w2.finish());
    EXPECT_TRUE(problemHas(r, "parent loop")) << problemsText(r);
    // An unknown command is a violation.
    AwdWriter w3;
    const uint32_t l3 = w3.block(41, w3.light(0, glm::mat4(1.0f), "lamp", 1, Props()));
    w3.block(253, w3.command(0, glm::mat4(1.0f), "copy", 2, l3));
    r = load(w3.finish(), true);
    EXPECT_TRUE(problemHas(r, "command 2 is not one this reader knows")) << problemsText(r);
}

TEST(AwdFixtures, SkyBoxWithACubeTexture) {
    AwdWriter w;
    std::vector<Bytes> faces(6, awdtest::jpegMagic());
    faces[2] = awdtest::pngMagic();
    const uint32_t cube = w.block(83, w.cubeTexture("sky", true, faces));
    w.block(31, w.skyBox("box", cube));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.textures.size(), 6u);
    EXPECT_EQ(s.textures[0].name, "sky +X");
    EXPECT_EQ(s.textures[5].name, "sky -Z");
    EXPECT_EQ(s.textures[2].embedded.size, awdtest::pngMagic().size());
    ASSERT_EQ(s.nodes.size(), 1u);
    EXPECT_EQ(s.nodes[0].name, "box");
    EXPECT_EQ(s.nodes[0].kind, NodeKind::Empty);
    EXPECT_TRUE(reportHas(s, "sky box with cube texture 'sky'", Severity::Info));
}

// ---------------------------------------------------------------------------------------------
// Materials and textures

TEST(AwdFixtures, ColourMaterialWithEveryProperty) {
    AwdWriter w;
    const uint32_t normal = w.block(82, w.texture("n", true, awdtest::pngMagic()));
    const uint32_t spec = w.block(82, w.texture("s", false, Bytes().text("spec.jpg")));
    const uint32_t amb = w.block(82, w.texture("a", false, Bytes().text("amb.jpg")));
    const uint32_t light = w.block(41, w.light(0, glm::mat4(1.0f), "l", 1, Props()));
    const uint32_t picker = w.block(51, w.lightPicker("lp", {light}));
    Props p;
    p.color(1, 0x336699).addr(3, normal).u8(4, 0).flag(5, false).flag(6, false).flag(7, true).flag(8, true).u8(9, 0)
        .f(10, 0.5).flag(11, true).f(12, 0.25).flag(13, true).f(15, 0.5).color(16, 0xFF0000).addr(17, amb).f(18, 2)
        .f(19, 30).color(20, 0x00FF00).addr(21, spec).addr(22, picker);
    w.block(81, w.material("m", 1, p));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    const Material& m = s.materials[0];
    EXPECT_EQ(m.name, "m");
    EXPECT_EQ(m.diffuse, glm::vec3(0x33, 0x66, 0x99) / 255.0f);
    EXPECT_FLOAT_EQ(m.opacity, 0.5f);
    EXPECT_TRUE(m.blend.enabled);
    EXPECT_EQ(m.blend.srcRgb, BlendFactor::SrcAlpha);
    EXPECT_EQ(m.blend.dstRgb, BlendFactor::OneMinusSrcAlpha);
    EXPECT_FLOAT_EQ(m.alphaCutoff, 0.25f);
    EXPECT_TRUE(m.twoSided);
    EXPECT_EQ(m.ambient, glm::vec3(0.5f, 0, 0));
    EXPECT_EQ(m.specular, glm::vec3(0, 2, 0));
    EXPECT_FLOAT_EQ(m.shininess, 30.0f);
    EXPECT_EQ(m.texture(TextureSlot::Normal).texture, 0);
    EXPECT_EQ(m.texture(TextureSlot::Specular).texture, 1);
    EXPECT_EQ(m.texture(TextureSlot::Ambient).texture, 2);
    EXPECT_EQ(m.texture(TextureSlot::Normal).wrapS, Wrap::Repeat);
    EXPECT_EQ(m.texture(TextureSlot::Diffuse).texture, -1);
    EXPECT_EQ(s.textures[1].path, "spec.jpg");
    EXPECT_EQ(s.textures[0].embedded.size, awdtest::pngMagic().size());
    EXPECT_TRUE(reportHas(s, "smooth off", Severity::Info));
    EXPECT_TRUE(reportHas(s, "mipmap off", Severity::Info));
    EXPECT_TRUE(reportHas(s, "pre-multiplied alpha", Severity::Info));
    EXPECT_TRUE(reportHas(s, "lit by light picker 'lp' ('l'", Severity::Info)) << reportText(s);
}

TEST(AwdFixtures, TextureMaterialBlendModesAndDefaults) {
    AwdWriter w;
    const uint32_t tex = w.block(82, w.texture("t", false, Bytes().text("t.png")));
    w.block(81, w.material("plain", 2, Props().addr(2, tex)));
    w.block(81, w.material("add", 2, Props().addr(2, tex).u8(9, 1)));
    w.block(81, w.material("multiply", 1, Props().u8(9, 10)));
    w.block(81, w.material("odd", 1, Props().u8(9, 4)));
    LoadResult r = load(w.finish());
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    const Material& plain = s.materials[0];
    EXPECT_EQ(plain.diffuse, glm::vec3(1.0f));
    EXPECT_EQ(plain.texture(TextureSlot::Diffuse).texture, 0);
    EXPECT_EQ(plain.texture(TextureSlot::Diffuse).wrapS, Wrap::Clamp);  // Away3D: repeat off
    EXPECT_FALSE(plain.blend.enabled);
    EXPECT_EQ(plain.specular, glm::vec3(1.0f));
    EXPECT_FLOAT_EQ(plain.shininess, 50.0f);
    EXPECT_EQ(s.materials[1].blend.dstRgb, BlendFactor::One);
    EXPECT_EQ(s.materials[2].blend.srcRgb, BlendFactor::Zero);
    EXPECT_EQ(s.materials[2].blend.dstRgb, BlendFactor::SrcColor);
    EXPECT_EQ(s.materials[2].diffuse, glm::vec3(0xCC) / 255.0f);  // Away3D's default colour
    EXPECT_FALSE(s.materials[3].blend.enabled);
    EXPECT_TRUE(reportHas(s, "blend mode 4 is not one Away3D draws", Severity::Warning));
}

TEST(AwdFixtures, ShadingAndEffectMethods) {
    AwdWriter w;
    const uint32_t mask = w.block(82, w.texture("mask", false, Bytes().text("mask.png")));
    const uint32_t light = w.block(41, w.light(0, glm::mat4(1.0f), "l", 2, Props()));
    const uint32_t shadow = w.block(92, w.shadowMethod("hard", light, {1104, Props()}));
    const uint32_t tint = w.block(91, w.sharedMethod("tint", {402, Props().f(101, 0.5).f(102, 0.5).f(103, 1).f(104, 0.25)}));
    const uint32_t fog = w.block(91, w.sharedMethod("fog", {411, Props().f(101, 10).f(102, 100).color(601, 0x808080)}));
    const uint32_t alpha = w.block(91, w.sharedMethod("alpha", {407, Props().addr(1, mask).flag(701, true)}));
    std::vector<AwdWriter::Method> methods = {{102, Props()},
                                              {998, Props().addr(1, shadow)},
                                              {999, Props().addr(1, tint)},
                                              {999, Props().addr(1, fog)},
                                              {999, Props().addr(1, alpha)},
                                              {55, Props().u8(401, 4)}};
    w.block(81, w.material("m", 1, Props().color(1, 0xFFFFFF), methods));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    const Material& m = s.materials[0];
    EXPECT_EQ(m.diffuse, glm::vec3(0.5f, 1.0f, 0.25f));  // ColorTransform multipliers
    EXPECT_FLOAT_EQ(m.opacity, 0.5f);
    EXPECT_TRUE(m.blend.enabled);
    EXPECT_EQ(m.texture(TextureSlot::Opacity).texture, 0);
    EXPECT_EQ(m.texture(TextureSlot::Opacity).uvSet, 1);
    EXPECT_TRUE(reportHas(s, "PhongSpecularMethod (102), drawn with the renderer's Blinn-Phong", Severity::Info));
    EXPECT_TRUE(reportHas(s, "shadows received through 'hard'", Severity::Info));
    EXPECT_TRUE(reportHas(s, "'fog' FogMethod (411), which the renderer does not draw [101 = 10, 102 = 100, 601 = #00808080]",
                          Severity::Warning))
        << reportText(s);
    EXPECT_TRUE(reportHas(s, "CelDiffuseMethod (55), which the renderer does not draw [401 = 4]", Severity::Warning));
    EXPECT_TRUE(s.lights[0].castsShadows);
}

TEST(AwdFixtures, EmbeddedImagesAreRecognisedByTheirMagic) {
    AwdWriter w;
    w.block(82, w.texture("jpeg", true, awdtest::jpegMagic()));
    w.block(82, w.texture("named.png", true, awdtest::jpegMagic()));
    w.block(82, w.texture("junk", true, Bytes().text("not an image")));
    w.block(82, w.texture("atf", true, Bytes().text("ATF....")));
    LoadResult r = load(w.finish(), true);
    ASSERT_EQ(r.problems.size(), 1u) << problemsText(r);
    EXPECT_TRUE(problemHas(r, "block 3 (BitmapTexture 'junk'): the image is neither JPEG nor PNG data (12 bytes)"));
    r = load(w.finish());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.scene->textures.size(), 4u);
    EXPECT_TRUE(r.scene->textures[1].path.empty());
    EXPECT_TRUE(reportHas(*r.scene, "ATF texture", Severity::Warning));
}

// ---------------------------------------------------------------------------------------------
// Namespaces, attributes, meta-data, skipped blocks

TEST(AwdFixtures, NamespacesUserBlocksAndUserAttributes) {
    AwdWriter w;
    w.blockWithId(0, 254, w.nameSpace(1, "http://example.com/ns"));
    w.block(7, Bytes().text("user data"), 1);   // a user block in namespace 1: skipped
    w.block(22, Bytes().text("zzz"), 5);        // namespace 5 was never defined
    UserAttrs user;
    user.add(1, "speed", 11, Bytes().f32(2.5f))
        .add(1, "count", 6, Bytes().u32(7))
        .add(1, "name", 31, Bytes().text("hello"))
        .add(1, "flags", 21, Bytes().u8(1).u8(0))
        .add(1, "tint", 22, Bytes().u32(0xFF102030))
        .add(1, "d", 8, Bytes().f64(0.125))
        .add(1, "blob", 32, Bytes().u32(0))
        .add(1, "i8", 1, Bytes().u8(0xFF))
        .add(1, "i16", 2, Bytes().u16(0xFFFE))
        .add(2, "unknown ns", 4, Bytes().u8(3));
    w.block(22, w.container(0, glm::mat4(1.0f), "c", Props(), user));
    LoadResult r = load(w.finish(), true);
    EXPECT_TRUE(problemHas(r, "namespace 5 is defined by no Namespace block before it")) << problemsText(r);
    EXPECT_TRUE(problemHas(r, "attribute 'unknown ns' names namespace 2, which no Namespace block defines"));
    EXPECT_EQ(r.problems.size(), 2u);
    r = load(w.finish());
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    EXPECT_EQ(s.nodes.size(), 1u);
    EXPECT_TRUE(reportHas(s, "namespace 1 = 'http://example.com/ns'", Severity::Info));
    EXPECT_TRUE(reportHas(s, "user block type 7 in namespace 'http://example.com/ns' (skipped)", Severity::Warning)) << reportText(s);
    EXPECT_TRUE(reportHas(s, "object user attribute http://example.com/ns 'speed' (float32) = 2.5", Severity::Info)) << reportText(s);
    EXPECT_TRUE(reportHas(s, "'count' (uint32) = 7", Severity::Info));
    EXPECT_TRUE(reportHas(s, "'name' (string) = \"hello\"", Severity::Info));
    EXPECT_TRUE(reportHas(s, "'flags' (bool) = true, false", Severity::Info));
    EXPECT_TRUE(reportHas(s, "'tint' (color) = #FF102030", Severity::Info));
    EXPECT_TRUE(reportHas(s, "'d' (float64) = 0.125", Severity::Info));
    EXPECT_TRUE(reportHas(s, "'blob' (ByteArray) = 4 bytes", Severity::Info));
    EXPECT_TRUE(reportHas(s, "'i8' (int8) = -1", Severity::Info));
    EXPECT_TRUE(reportHas(s, "'i16' (int16) = -2", Severity::Info));
}

// User attributes belong to the object their block makes (shown in the inspector): the node, the
// geometry's mesh (a sub-geometry's named as such) and the material; in namespace order as written.
TEST(AwdFixtures, UserAttributesStayWithTheirObjects) {
    AwdWriter w;
    w.blockWithId(0, 254, w.nameSpace(1, "urn:studio"));
    AwdWriter::SubGeometry sub;
    sub.streams.push_back(w.floats(1, {0, 0, 0, 1, 0, 0, 0, 1, 0}));
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2}));
    sub.user.add(1, "lod", 5, Bytes().u16(2));
    UserAttrs geometryUser;
    geometryUser.add(1, "source", 31, Bytes().text("rock.max"));
    const uint32_t geometry = w.block(1, w.triangleGeometry("rock", {sub}, Props(), geometryUser));
    UserAttrs materialUser;
    materialUser.add(0, "footstep", 31, Bytes().text("gravel"));
    const uint32_t material = w.block(81, w.material("stone", 1, Props().color(1, 0x808080), {}, materialUser));
    UserAttrs nodeUser;
    nodeUser.add(1, "health", 11, Bytes().f32(75.0f)).add(1, "spawn", 21, Bytes().u8(1));
    w.block(23, w.meshInstance(0, glm::mat4(1.0f), "boulder", geometry, {material}, Props()));
    w.block(22, w.container(0, glm::mat4(1.0f), "marker", Props(), nodeUser));
    LoadResult r = load(w.finish());
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.nodes.size(), 2u);
    EXPECT_TRUE(s.nodes[0].attributes.empty());
    ASSERT_EQ(s.nodes[1].attributes.size(), 2u);
    EXPECT_EQ(s.nodes[1].attributes[0].name, "urn:studio health");
    EXPECT_EQ(s.nodes[1].attributes[0].type, "float32");
    EXPECT_EQ(s.nodes[1].attributes[0].value, "75");
    EXPECT_EQ(s.nodes[1].attributes[1].name, "urn:studio spawn");
    EXPECT_EQ(s.nodes[1].attributes[1].value, "true");
    ASSERT_EQ(s.meshes.size(), 1u);
    ASSERT_EQ(s.meshes[0].attributes.size(), 2u);
    EXPECT_EQ(s.meshes[0].attributes[0].name, "sub-geometry: urn:studio lod");
    EXPECT_EQ(s.meshes[0].attributes[0].type, "uint16");
    EXPECT_EQ(s.meshes[0].attributes[0].value, "2");
    EXPECT_EQ(s.meshes[0].attributes[1].name, "urn:studio source");
    EXPECT_EQ(s.meshes[0].attributes[1].value, "\"rock.max\"");
    ASSERT_EQ(s.materials.size(), 1u);
    ASSERT_EQ(s.materials[0].attributes.size(), 1u);
    EXPECT_EQ(s.materials[0].attributes[0].name, "footstep");
    EXPECT_EQ(s.materials[0].attributes[0].type, "string");
    EXPECT_EQ(s.materials[0].attributes[0].value, "\"gravel\"");
}

TEST(AwdFixtures, AttributeListsThatOverrunAreSkippedToTheirEnd) {
    AwdWriter w;
    Props bad;
    bad.raw(1, Bytes().f32(1));
    Bytes props = bad.bytes();
    props.data[6] = 200;  // the attribute claims 200 bytes
    w.block(22, w.sceneHeader(0, glm::mat4(1.0f), "c").raw(props).raw(UserAttrs().bytes()));
    LoadResult r = load(w.finish(), true);
    EXPECT_TRUE(problemHas(r, "attribute 1 claims 200 bytes, 4 remain in its list; the rest of the list is skipped")) << problemsText(r);
    r = load(w.finish());
    EXPECT_TRUE(r.ok());
}

TEST(AwdFixtures, MetaDataAndUnknownProperties) {
    AwdWriter w;
    w.blockWithId(0, 255, w.metaData(Props().u32(1, 1700000000).str(2, "esview test").str(3, "1.0").str(4, "gen").str(5, "2")));
    w.block(22, w.container(0, glm::mat4(1.0f), "c", Props().u32(77, 1)));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    EXPECT_TRUE(reportHas(*r.scene,
                          "AWD meta-data: created 1700000000 s after 1970, encoder 'esview test', encoder version '1.0', "
                          "generator 'gen', generator version '2'",
                          Severity::Info))
        << reportText(*r.scene);
    EXPECT_TRUE(reportHas(*r.scene, "object property 77 (4 bytes) is not defined for this block; ignored", Severity::Info));
}

// A bar of two joints: a quad from y 0 to 2, the lower vertices on joint 0, the upper on joint 1
// (bound at y 1). Poses turn joint 1 about Z by 0 and 90 degrees over two frames (1000 ms each).
struct SkinnedBar {
    uint32_t geometry = 0, instance = 0, skeleton = 0, clip = 0;
};
SkinnedBar writeSkinnedBar(AwdWriter& w, bool withAnimator) {
    SkinnedBar b;
    AwdWriter::SubGeometry sub;
    sub.streams.push_back(w.floats(1, {-0.5, 0, 0, 0.5, 0, 0, 0.5, 2, 0, -0.5, 2, 0}));
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2, 0, 2, 3}));
    sub.streams.push_back(AwdWriter::shorts(6, {0, 0, 1, 1}));
    sub.streams.push_back(w.floats(7, {1, 1, 1, 1}));
    b.geometry = w.block(1, w.triangleGeometry("bar", {sub}));
    b.instance = w.block(23, w.meshInstance(0, glm::translate(glm::mat4(1.0f), glm::vec3(10, 0, 0)), "bar", b.geometry, {}));
    b.skeleton = w.block(101, w.skeleton("rig", {{"root", -1, glm::mat4(1.0f)},
                                                 {"tip", 0, glm::translate(glm::mat4(1.0f), glm::vec3(0, -1, 0))}}));
    const glm::mat4 up = glm::translate(glm::mat4(1.0f), glm::vec3(0, 1, 0));
    const uint32_t p0 = w.block(102, w.skeletonPose("rest", {glm::mat4(1.0f), up}));
    const uint32_t p1 = w.block(102, w.skeletonPose("bent", {glm::mat4(1.0f), glm::rotate(up, glm::radians(90.0f), glm::vec3(0, 0, 1))}));
    b.clip = w.block(103, w.skeletonAnimation("Bend", {{p0, 1000}, {p1, 1000}}));
    if (withAnimator) {
        const uint32_t set = w.block(113, w.animationSet("set", {b.clip}));
        w.block(122, w.animator("anim", 1, b.skeleton, set, {b.instance}));
    }
    return b;
}

Bounds boundsAt(const Scene& s, int clip, float seconds) {
    Pose pose;
    evaluatePose(s, clip, seconds, pose);
    return sceneBounds(s, pose);
}

void expectBox(const Bounds& b, glm::vec3 min, glm::vec3 max) {
    ASSERT_TRUE(b.valid());
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(b.min[k], min[k], 1e-4f) << "axis " << k;
        EXPECT_NEAR(b.max[k], max[k], 1e-4f) << "axis " << k;
    }
}

TEST(AwdFixtures, SkeletonAnimationSkinsTheMesh) {
    for (int variant = 0; variant < 4; ++variant) {
        WriterOptions o;
        o.matrix64 = variant & 1;                                   // float64 matrices
        o.compression = variant & 2 ? Compression::Lzma : Compression::None;
        AwdWriter w(o);
        writeSkinnedBar(w, variant == 3);
        LoadResult r = load(w.finish(), true);
        ASSERT_TRUE(r.ok()) << problemsText(r);
        const Scene& s = *r.scene;
        ASSERT_EQ(s.skins.size(), 1u);
        EXPECT_EQ(s.skins[0].joints.size(), 2u);
        size_t added = 0;
        for (const Node& n : s.nodes) added += n.viewerAdded;
        EXPECT_EQ(added, 2u);
        EXPECT_EQ(s.nodes[0].skin, 0);
        ASSERT_EQ(s.animation.clips.size(), 1u);
        EXPECT_EQ(s.animation.clips[0].name, "Bend");
        EXPECT_FLOAT_EQ(s.animation.clips[0].duration(), 2.0f);  // the sum of the frame durations
        // At rest and at frame 0: the bar as stored, moved by the instance.
        expectBox(boundsAt(s, -1, 0.0f), {9.5f, 0, 0}, {10.5f, 2, 0});
        expectBox(boundsAt(s, 0, 0.0f), {9.5f, 0, 0}, {10.5f, 2, 0});
        // Frame 1 (and held through its duration): the upper edge turned 90 degrees about (0, 1).
        expectBox(boundsAt(s, 0, 1.0f), {9.0f, 0, 0}, {10.5f, 1.5f, 0});
        expectBox(boundsAt(s, 0, 2.0f), {9.0f, 0, 0}, {10.5f, 1.5f, 0});
        // Half way: slerped to 45 degrees; the upper corners (+-0.5, 1) about the joint turn to
        // (-0.35, 1.06) and (-1.06, 0.35).
        const float c = std::sqrt(0.5f);
        expectBox(boundsAt(s, 0, 0.5f), {10.0f - 1.5f * c, 0, 0}, {10.5f, 1.0f + 1.5f * c, 0});
    }
}

TEST(AwdFixtures, AnimationViolationsNameTheBlock) {
    AwdWriter w;
    AwdWriter::SubGeometry sub;
    sub.streams.push_back(w.floats(1, {0, 0, 0, 1, 0, 0, 1, 1, 0}));
    sub.streams.push_back(AwdWriter::shorts(2, {0, 1, 2}));
    sub.streams.push_back(AwdWriter::shorts(6, {0, 1, 5}));
    sub.streams.push_back(w.floats(7, {1, 1, 1}));
    const uint32_t geo = w.block(1, w.triangleGeometry("tri", {sub}));
    w.block(23, w.meshInstance(0, glm::mat4(1.0f), "tri", geo, {}));
    w.block(101, w.skeleton("rig", {{"a", -1, glm::mat4(1.0f)}, {"b", 0, glm::mat4(1.0f)}}));
    const uint32_t pose = w.block(102, w.skeletonPose("short", {glm::mat4(1.0f)}));
    w.block(103, w.skeletonAnimation("Clip", {{pose, 100}}));
    LoadResult r = load(w.finish(), true);
    EXPECT_TRUE(problemHas(r, "block 1 (TriangleGeometry 'tri'): joint index 5 is beyond skeleton 'rig' (block 3, 2 joints)"))
        << problemsText(r);
    EXPECT_TRUE(problemHas(r, "block 4 (SkeletonPose 'short'): the pose has 1 joint transforms, skeleton 'rig' (block 3) 2 joints"))
        << problemsText(r);
    // A frame naming a block of another type.
    AwdWriter w2;
    const uint32_t g2 = w2.block(1, w2.triangleGeometry("quad", {quad(w2)}));
    w2.block(103, w2.skeletonAnimation("Bad", {{g2, 100}}));
    r = load(w2.finish(), true);
    EXPECT_TRUE(problemHas(r, "block 2 (SkeletonAnimation 'Bad'): frame 0's pose refers to block 1 (TriangleGeometry 'quad'), which is not a SkeletonPose"))
        << problemsText(r);
}

TEST(AwdFixtures, VertexAnimationBecomesMorphTargets) {
    for (bool withAnimator : {false, true}) {
        AwdWriter w;
        const uint32_t geo = w.block(1, w.triangleGeometry("quad", {quad(w)}));
        const uint32_t inst = w.block(23, w.meshInstance(0, glm::mat4(1.0f), "q", geo, {}));
        const std::vector<double> flat = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
        const std::vector<double> tall = {0, 0, 0, 1, 0, 0, 1, 3, 0, 0, 3, 0};
        const uint32_t clip = w.block(112, w.meshPoseAnimation("Grow", geo, {{500, flat}, {500, tall}}));
        if (withAnimator) {
            const uint32_t set = w.block(113, w.animationSet("set", {clip}));
            w.block(122, w.animator("va", 2, 0, set, {inst}));
        }
        LoadResult r = load(w.finish(), true);
        ASSERT_TRUE(r.ok()) << problemsText(r);
        const Scene& s = *r.scene;
        ASSERT_EQ(s.meshes[0].morphTargets.size(), 2u);
        EXPECT_FALSE(s.meshes[0].morphTargets[0].relative);  // absolute poses by default
        ASSERT_EQ(s.animation.clips.size(), 1u);
        EXPECT_EQ(s.animation.clips[0].name, "Grow");
        EXPECT_FLOAT_EQ(s.animation.clips[0].duration(), 1.0f);
        expectBox(boundsAt(s, 0, 0.0f), {0, 0, 0}, {1, 1, 0});
        expectBox(boundsAt(s, 0, 0.25f), {0, 0, 0}, {1, 2, 0});  // crossfading the two frames
        expectBox(boundsAt(s, 0, 0.5f), {0, 0, 0}, {1, 3, 0});
        expectBox(boundsAt(s, 0, 1.0f), {0, 0, 0}, {1, 3, 0});
    }
    // Additive poses (absolutePositions false): the frames are offsets.
    AwdWriter w;
    const uint32_t geo = w.block(1, w.triangleGeometry("quad", {quad(w)}));
    w.block(23, w.meshInstance(0, glm::mat4(1.0f), "q", geo, {}));
    const std::vector<double> up = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0};
    w.block(112, w.meshPoseAnimation("Add", geo, {{100, up}}, Props().flag(4, false)));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    EXPECT_TRUE(r.scene->meshes[0].morphTargets[0].relative);
    expectBox(boundsAt(*r.scene, 0, 0.0f), {0, 0, 0}, {1, 2, 0});
}

TEST(AwdFixtures, UvAnimationAnimatesTheDiffuseMap) {
    AwdWriter w;
    const uint32_t tex = w.block(82, w.texture("t", true, awdtest::jpegMagic()));
    const uint32_t mat = w.block(81, w.material("m", 2, Props().addr(2, tex)));
    const uint32_t geo = w.block(1, w.triangleGeometry("quad", {quad(w)}));
    const uint32_t inst = w.block(23, w.meshInstance(0, glm::mat4(1.0f), "q", geo, {mat}));
    const uint32_t uv = w.block(121, w.uvAnimation("Scroll", {{{1, 0, 0, 1, 0, 0}, 1000}, {{1, 0, 0, 1, 0.5f, 0}, 1000}}));
    const uint32_t set = w.block(113, w.animationSet("set", {uv}));
    w.block(122, w.animator("uva", 3, 0, set, {inst}));
    LoadResult r = load(w.finish(), true);
    ASSERT_TRUE(r.ok()) << problemsText(r);
    const Scene& s = *r.scene;
    ASSERT_EQ(s.uvTransforms.size(), 1u);
    EXPECT_EQ(s.materials[0].texture(TextureSlot::Diffuse).uvTransform, 0);
    ASSERT_EQ(s.animation.clips.size(), 1u);
    EXPECT_EQ(s.animation.clips[0].name, "Scroll");
    EXPECT_FLOAT_EQ(s.animation.clips[0].duration(), 2.0f);
    Pose pose;
    evaluatePose(s, 0, 1.0f, pose);
    ASSERT_EQ(pose.uvMatrices.size(), 1u);
    EXPECT_NEAR(pose.uvMatrices[0][3][0], 0.5f, 1e-6f);
    evaluatePose(s, 0, 0.5f, pose);
    EXPECT_NEAR(pose.uvMatrices[0][3][0], 0.25f, 1e-6f);
}

TEST(AwdFixtures, BlocksCompressedOnTheirOwn) {
    for (uint8_t flags : {uint8_t(0x08), uint8_t(0x18)}) {
        AwdWriter w;
        const uint32_t geo = w.block(1, w.triangleGeometry("quad", {quad(w, true)}), 0, flags);
        w.block(23, w.meshInstance(0, glm::mat4(1.0f), "q", geo, {}), 0, flags);
        LoadResult r = load(w.finish(), true);
        ASSERT_TRUE(r.ok()) << problemsText(r);
        EXPECT_EQ(value(r.scene->meshes[0], Semantic::Position, 0, 2), glm::vec4(1, 1, 0, 0));
        EXPECT_EQ(r.scene->nodes[0].object, 0);
    }
}

TEST(AwdFixtures, BlocksMustEndWhereTheirHeaderSays) {
    AwdWriter w;
    w.block(22, w.container(0, glm::mat4(1.0f), "c").u8(1).u8(2));
    LoadResult r = load(w.finish(), true);
    EXPECT_TRUE(problemHas(r, "block 1 (Container 'c'): 2 bytes after the block's fields are ignored")) << problemsText(r);
    AwdWriter w2;
    Bytes cut = w2.container(0, glm::mat4(1.0f), "c");
    cut.data.resize(cut.size() - 3);
    w2.block(22, cut);
    r = load(w2.finish());
    EXPECT_TRUE(problemHas(r, "block 1 (Container 'c'): the block ends inside")) << problemsText(r);
}

}  // namespace
}  // namespace esv
