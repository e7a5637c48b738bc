#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/load.h"

using namespace esv;

TEST(DetectFormat, ByMagicNotExtension) {
    const uint8_t pod[] = {0xE8, 0x03, 0x00, 0x00, 11, 0, 0, 0};
    const uint8_t podBigEndian[] = {0x00, 0x00, 0x03, 0xE8};
    const uint8_t awd[] = {'A', 'W', 'D', 2, 1, 0};
    const uint8_t pof[] = {'P', 'S', 'P', 'O', 0x75, 0x08, 0, 0};
    EXPECT_EQ(detectFormat(pod, sizeof pod, "model.bin"), FileFormat::Pod);
    EXPECT_EQ(detectFormat(podBigEndian, sizeof podBigEndian, "x"), FileFormat::Pod);
    EXPECT_EQ(detectFormat(awd, sizeof awd, "scene.pod"), FileFormat::Awd);
    EXPECT_EQ(detectFormat(pof, sizeof pof, "ship"), FileFormat::Pof);
    const char text[] = "Metric {}";
    EXPECT_EQ(detectFormat(reinterpret_cast<const uint8_t*>(text), sizeof text, "a.OGEX"), FileFormat::OpenGex);
    EXPECT_EQ(detectFormat(reinterpret_cast<const uint8_t*>(text), sizeof text, "a.txt"), FileFormat::Unknown);
    EXPECT_EQ(detectFormat(nullptr, 0, "dir.v2/file"), FileFormat::Unknown);
}

TEST(LoadScene, ProblemsNameFileOffsetAndPath) {
    Problem p{"ship.pod", 0x1A4, 0, 0, "mesh 2 / normal list", "stride 8 is smaller than 3 floats"};
    EXPECT_EQ(p.format(), "ship.pod: offset 0x1A4: mesh 2 / normal list: stride 8 is smaller than 3 floats");
    Problem q{"a.ogex", -1, 12, 5, "", "expected '}'"};
    EXPECT_EQ(q.format(), "a.ogex: line 12, column 5: expected '}'");
}

TEST(LoadScene, MissingAndUnknownFilesAreOneProblemEach) {
    LoadResult missing = loadSceneFile("/no/such/file.pod");
    EXPECT_EQ(missing.scene, nullptr);
    ASSERT_EQ(missing.problems.size(), 1u);
    EXPECT_NE(missing.problems[0].format().find("/no/such/file.pod"), std::string::npos);

    auto text = std::make_shared<const std::vector<uint8_t>>(std::vector<uint8_t>{'h', 'i', '\n'});
    LoadResult unknown = loadSceneMemory(text, "notes.txt");
    EXPECT_EQ(unknown.scene, nullptr);
    ASSERT_EQ(unknown.problems.size(), 1u);
    EXPECT_NE(unknown.problems[0].message.find("unknown file format"), std::string::npos);

    LoadResult directory = loadSceneFile(test::sourceDir().string());
    EXPECT_EQ(directory.scene, nullptr);
    EXPECT_EQ(directory.problems.size(), 1u);
}
