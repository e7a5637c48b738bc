// The format table (loaders/format_table.h) and what is built from it: detection, the message for an
// unknown file, the models counted inside VP archives, the folders each format owns, its samples and
// its writer. Every test walks the table, so a new row is tested without touching this file.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "loaders/archive/vp_archive.h"
#include "loaders/format_table.h"
#include "loaders/load.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::vector<uint8_t> bytesOf(const std::string& s) {
    return std::vector<uint8_t>(s.begin(), s.end());
}

std::vector<uint8_t> readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The sample files of `f` under ../shared/models/<key>, those with one of its extensions.
// Where a format's real files are: its folder of the shared models, or for glTF, which the shared
// set lacks, the files Blender, gltfpack and assimp wrote (tests/gltf_writers/fixtures).
fs::path sampleDir(const FormatInfo& f) {
    if (f.key == "gltf") return fs::path(ESVIEW_SOURCE_DIR) / "tests" / "gltf_writers" / "fixtures";
    return test::modelsDir() / f.key;
}

// Skips (fails where the shared models are required) when the format's real files are missing.
#define REQUIRE_SAMPLES(f)                                                                  \
    do {                                                                                    \
        if (!fs::exists(sampleDir(f)))                                                      \
            ESVIEW_SKIP_UNLESS_REQUIRED() << "sample models not found at " << sampleDir(f); \
    } while (0)

std::vector<fs::path> samplesOf(const FormatInfo& f) {
    std::vector<fs::path> files;
    const fs::path dir = sampleDir(f);
    if (!fs::is_directory(dir)) return files;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file() && formatForExtension(entry.path().string()) == &f)
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The scene of the smallest of `files` that loads; null when none does.
std::unique_ptr<Scene> smallestThatLoads(std::vector<fs::path> files) {
    std::stable_sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
        return fs::file_size(a) < fs::file_size(b);
    });
    for (const fs::path& p : files)
        if (LoadResult r = loadSceneFile(p.string()); r.scene) return std::move(r.scene);
    return nullptr;
}

TEST(FormatTable, EveryFormatHasOneWellFormedRow) {
    const std::vector<FormatInfo>& all = formats();
    ASSERT_EQ(all.size(), static_cast<size_t>(FileFormat::Count) - 1);
    std::set<FileFormat> ids;
    std::set<std::string> keys, names, extensions, magic;
    for (const FormatInfo& f : all) {
        SCOPED_TRACE(f.name);
        EXPECT_NE(f.id, FileFormat::Unknown);
        EXPECT_NE(f.id, FileFormat::Count);
        EXPECT_TRUE(ids.insert(f.id).second) << "one row per format";
        EXPECT_EQ(findFormat(f.id), &f);
        EXPECT_STREQ(formatName(f.id), f.key.c_str());
        EXPECT_FALSE(f.key.empty());
        EXPECT_FALSE(f.name.empty());
        EXPECT_FALSE(f.title.empty());
        EXPECT_FALSE(f.folder.empty());
        EXPECT_TRUE(keys.insert(f.key).second);
        EXPECT_TRUE(names.insert(f.name).second);
        EXPECT_NE(f.load, nullptr);
        ASSERT_FALSE(f.extensions.empty());
        for (const std::string& e : f.extensions) {
            EXPECT_FALSE(e.empty());
            EXPECT_EQ(e.find('.'), std::string::npos) << e;
            EXPECT_EQ(e,
                      [](std::string s) {
                          for (char& c : s)
                              c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                          return s;
                      }(e))
                << "extensions are lower case";
            EXPECT_TRUE(extensions.insert(e).second) << e << " belongs to one format";
        }
        for (const std::string& m : f.magic) {
            EXPECT_FALSE(m.empty()) << "an empty magic would match every file";
            EXPECT_TRUE(magic.insert(m).second);
        }
    }
    EXPECT_EQ(findFormat(FileFormat::Unknown), nullptr);
    EXPECT_STREQ(formatName(FileFormat::Unknown), "unknown");
    // No magic is a prefix of another's, so the table's order cannot decide a file's format.
    for (const std::string& a : magic)
        for (const std::string& b : magic)
            if (a != b) {
                EXPECT_NE(b.compare(0, a.size(), a), 0) << "one magic starts another";
            }
}

TEST(FormatTable, BinaryFormatsAreKnownByTheirMagicWhateverTheName) {
    for (const FormatInfo& f : formats()) {
        for (const std::string& m : f.magic) {
            SCOPED_TRACE(f.name + " magic of " + std::to_string(m.size()) + " bytes");
            std::vector<uint8_t> file = bytesOf(m);
            EXPECT_EQ(detectFormat(file.data(), file.size(), "model.bin"), f.id) << "the magic alone";
            file.insert(file.end(), {11, 0, 0, 0, 'x'});
            EXPECT_EQ(detectFormat(file.data(), file.size(), "noextension"), f.id);
            for (const FormatInfo& other : formats())
                for (const std::string& e : other.extensions)
                    EXPECT_EQ(detectFormat(file.data(), file.size(), "dir/model." + e), f.id)
                        << "the magic wins over the extension ." << e;
            // One byte short of the magic, or one byte of it changed, is not this format.
            EXPECT_NE(detectFormat(file.data(), m.size() - 1, "model.bin"), f.id);
            file[m.size() - 1] ^= 0x40;
            EXPECT_NE(detectFormat(file.data(), file.size(), "model.bin"), f.id);
        }
        // Binary formats are never guessed from the name alone.
        if (!f.magic.empty())
            for (const std::string& e : f.extensions) {
                const std::vector<uint8_t> text = bytesOf("# not a model\n");
                EXPECT_EQ(detectFormat(text.data(), text.size(), "a." + e), FileFormat::Unknown) << e;
            }
    }
}

TEST(FormatTable, TextFormatsAreKnownByTheirExtensionInAnyCase) {
    const std::vector<uint8_t> text = bytesOf("Metric {}\n");
    size_t textFormats = 0;
    for (const FormatInfo& f : formats()) {
        if (!f.magic.empty()) continue;
        ++textFormats;
        for (const std::string& e : f.extensions) {
            EXPECT_EQ(detectFormat(text.data(), text.size(), "scene." + e), f.id) << e;
            EXPECT_EQ(detectFormat(text.data(), text.size(), "DIR/Scene." + upper(e)), f.id) << e;
            EXPECT_EQ(detectFormat(text.data(), text.size(), "dir." + e + "/scene"), FileFormat::Unknown)
                << "the dot is in a folder's name, not the file's";
            EXPECT_EQ(detectFormat(text.data(), text.size(), "scene." + e + ".txt"), FileFormat::Unknown)
                << e;
        }
    }
    EXPECT_GE(textFormats, 1u) << "OpenGEX is text";
    EXPECT_EQ(detectFormat(nullptr, 0, "notes.txt"), FileFormat::Unknown);
    EXPECT_EQ(detectFormat(nullptr, 0, "noextension"), FileFormat::Unknown);
}

TEST(FormatTable, ExtensionsAreFoundInAnyCaseAndNowhereElse) {
    for (const FormatInfo& f : formats())
        for (const std::string& e : f.extensions) {
            EXPECT_EQ(formatForExtension("model." + e), &f) << e;
            EXPECT_EQ(formatForExtension("/a/b.c/MODEL." + upper(e)), &f) << e;
            EXPECT_EQ(formatForExtension("a\\b\\model." + e), &f) << e;
            EXPECT_TRUE(hasModelExtension("data/models/x." + e)) << e;
            EXPECT_FALSE(hasModelExtension("model." + e + "x")) << e;
            EXPECT_FALSE(hasModelExtension("model." + e + ".bak")) << e;
            EXPECT_FALSE(hasModelExtension("x." + e + "/model")) << e;
            EXPECT_FALSE(hasModelExtension(e)) << "a bare word is no extension";
        }
    for (const char* name : {"notes.txt", "image.png", "archive.vp", "model", "model.", ""})
        EXPECT_FALSE(hasModelExtension(name)) << name;
}

TEST(FormatTable, UnknownFileMessageNamesEveryFormat) {
    auto text = std::make_shared<const std::vector<uint8_t>>(bytesOf("hi\n"));
    LoadResult unknown = loadSceneMemory(text, "notes.txt");
    ASSERT_EQ(unknown.scene, nullptr);
    ASSERT_EQ(unknown.problems.size(), 1u);
    const std::string& message = unknown.problems[0].message;
    EXPECT_EQ(message, "unknown file format (expected " + formatNameList(" or ") + ")");
    for (const FormatInfo& f : formats()) EXPECT_NE(message.find(f.name), std::string::npos) << f.name;
    EXPECT_EQ(unknown.problems[0].offset, 0);
}

TEST(FormatTable, NameListsJoinTheNamesInTableOrder) {
    const std::string list = formatNameList(" or ");
    size_t at = 0;
    for (size_t i = 0; i < formats().size(); ++i) {
        const std::string& name = formats()[i].name;
        const size_t found = list.find(name, at);
        ASSERT_NE(found, std::string::npos) << name << " in " << list;
        const std::string separator = list.substr(at, found - at);
        EXPECT_EQ(separator, i == 0 ? "" : i + 1 == formats().size() ? " or " : ", ") << list;
        at = found + name.size();
    }
    EXPECT_EQ(at, list.size()) << list;
}

TEST(FormatTable, ModelsInsideVpArchivesAreThoseOfTheTable) {
    for (const FormatInfo& f : formats())
        for (const std::string& e : f.extensions) {
            EXPECT_TRUE(isModelInArchive("data/models/ship." + e)) << e;
            EXPECT_TRUE(isModelInArchive("DATA/MODELS/SHIP." + upper(e))) << e;
            EXPECT_FALSE(isModelInArchive("data/models." + e + "/ship")) << e;
        }
    EXPECT_FALSE(isModelInArchive("data/maps/hull.pcx"));
    EXPECT_FALSE(isModelInArchive("data/tables/ships.tbl"));
}

// Containers open through their row: `file.ext:inner` is split for an existing file with the row's
// extension (any case, either separator), the row's magic names it in the "not a model" message, and
// a bare container or a missing member is a problem from the row's reader, never a crash.
TEST(FormatTable, EveryContainerOpensThroughItsRow) {
    ASSERT_FALSE(containers().empty());
    for (const ContainerInfo& c : containers()) {
        SCOPED_TRACE(c.key);
        ASSERT_TRUE(c.readMember && c.describeModels);
        ASSERT_FALSE(c.extensions.empty() || c.magic.empty() || c.name.empty());
        const std::vector<uint8_t> magic = bytesOf(c.magic.front());
        EXPECT_EQ(containerForMagic(magic.data(), magic.size()), &c);
        const fs::path file = test::outputDir() / ("container_row." + upper(c.extensions.front()));
        {
            std::ofstream out(file, std::ios::binary);
            out.write(c.magic.front().data(), std::streamsize(c.magic.front().size()));
        }
        EXPECT_EQ(containerFile(file.string()), &c);
        ContainerPath where;
        ASSERT_TRUE(splitContainerPath(file.string() + ":\\data\\models\\ship.pof", where));
        EXPECT_EQ(where.container, &c);
        EXPECT_EQ(where.file, file.string());
        EXPECT_EQ(where.inner, "data/models/ship.pof");
        EXPECT_FALSE(splitContainerPath((test::outputDir() / ("missing." + c.extensions.front())).string() + ":a",
                                        where));
        EXPECT_FALSE(splitContainerPath("C:\\models\\ship.pof", where));
        // The file is only the magic: every way in is one problem naming the file.
        for (const std::string& path : {file.string(), file.string() + ":data/models/ship.pof"}) {
            const LoadResult r = loadSceneFile(path);
            EXPECT_FALSE(r.scene);
            ASSERT_FALSE(r.problems.empty()) << path;
            EXPECT_NE(r.problems.front().format().find(file.string()), std::string::npos) << r.problems.front().format();
        }
        std::string error;
        EXPECT_FALSE(readWholeFile(file.string() + ":data/models/ship.pof", error));
        EXPECT_FALSE(error.empty());
        const LoadResult inMemory =
            loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(magic), "held." + c.extensions.front());
        ASSERT_EQ(inMemory.problems.size(), 1u);
        EXPECT_NE(inMemory.problems[0].message.find("a " + c.mime.comment + ", not a model: name a model inside it as held."),
                  std::string::npos)
            << inMemory.problems[0].message;
        fs::remove(file);
    }
}

// Each format owns a reader folder, a test folder (a CMakeLists.txt) and a libFuzzer target (a
// *_fuzzer.cpp and its dictionary): fuzz/CMakeLists.txt and fuzz/run.sh find targets by folder.
TEST(FormatTable, EveryFormatHasItsReaderTestsAndFuzzTarget) {
    const fs::path root = test::sourceDir();
    for (const FormatInfo& f : formats()) {
        SCOPED_TRACE(f.name);
        EXPECT_TRUE(fs::is_directory(root / "loaders" / f.folder));
        EXPECT_TRUE(fs::exists(root / "loaders" / f.folder / "README.md"));
        EXPECT_TRUE(fs::exists(root / "tests" / f.folder / "CMakeLists.txt"));
        size_t fuzzers = 0, dictionaries = 0;
        if (fs::is_directory(root / "fuzz" / f.folder))
            for (const auto& entry : fs::directory_iterator(root / "fuzz" / f.folder)) {
                const std::string name = entry.path().filename().string();
                const std::string suffix = "_fuzzer.cpp";
                fuzzers += name.size() > suffix.size() &&
                           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
                dictionaries += entry.path().extension() == ".dict";
            }
        EXPECT_EQ(fuzzers, 1u) << "fuzz/" << f.folder << "/ holds one *_fuzzer.cpp";
        EXPECT_EQ(dictionaries, 1u) << "fuzz/" << f.folder << "/ holds one dictionary";
    }
}

// Every shared sample is detected as the format its folder and extension say, and the smallest
// that loads has Scene::format set to the row's key.
TEST(FormatTable, SharedSamplesAreDetectedAsTheirFormat) {
    for (const FormatInfo& f : formats()) {
        SCOPED_TRACE(f.name);
        REQUIRE_SAMPLES(f);
        const std::vector<fs::path> files = samplesOf(f);
        ASSERT_FALSE(files.empty()) << "no ." << f.extensions[0] << " file under " << sampleDir(f);
        for (const fs::path& p : files) {
            const std::vector<uint8_t> bytes = readFile(p);
            EXPECT_EQ(detectFormat(bytes.data(), bytes.size(), p.string()), f.id) << p;
        }
        std::unique_ptr<Scene> scene = smallestThatLoads(files);
        ASSERT_NE(scene, nullptr) << "no sample loads";
        EXPECT_EQ(scene->format, f.key) << scene->sourcePath;
    }
}

// A format with a writer writes what its reader reads back: the file is detected as that format
// (by its magic, whatever its name) and holds the same nodes and meshes. The scene written is the
// smallest shared sample of the format that loads.
TEST(FormatTable, WritersWriteWhatTheirReaderReads) {
    size_t writers = 0;
    for (const FormatInfo& f : formats()) {
        if (!f.write) continue;
        ++writers;
        SCOPED_TRACE(f.name);
        REQUIRE_SAMPLES(f);
        std::unique_ptr<Scene> scene = smallestThatLoads(samplesOf(f));
        ASSERT_NE(scene, nullptr) << "no sample loads";
        std::vector<uint8_t> out;
        std::string error;
        std::vector<std::string> notes;
        ASSERT_TRUE(f.write(*scene, out, error, &notes)) << error;
        ASSERT_FALSE(out.empty());
        EXPECT_EQ(detectFormat(out.data(), out.size(), "written." + f.extensions[0]), f.id);
        if (!f.magic.empty()) {
            EXPECT_EQ(detectFormat(out.data(), out.size(), "written.bin"), f.id);
        }
        LoadOptions check;
        check.collectAll = true;
        LoadResult back = loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(std::move(out)),
                                          "written." + f.extensions[0], check);
        ASSERT_NE(back.scene, nullptr) << (back.problems.empty() ? "" : back.problems[0].format());
        EXPECT_TRUE(back.problems.empty()) << back.problems[0].format();
        EXPECT_EQ(back.scene->format, f.key);
        EXPECT_EQ(back.scene->nodes.size(), scene->nodes.size());
        EXPECT_EQ(back.scene->meshes.size(), scene->meshes.size());
    }
    EXPECT_GE(writers, 1u) << "POD has a writer";
}

}  // namespace
}  // namespace esv
