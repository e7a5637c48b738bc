// The VP archive reader: directories with folders read into full inner paths, lookups in any
// case, file bytes; every broken header or entry found by check mode with the offset of the field
// at fault; truncated and corrupted archives never crash; `archive.vp:path` splitting.
#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "archive/vp_writer.h"
#include "common/test_paths.h"
#include "loaders/archive/vp_archive.h"
#include "loaders/load.h"

namespace esv {
namespace {

namespace fs = std::filesystem;
using vptest::VpWriter;

std::vector<uint8_t> bytesOf(const std::string& text) {
    return std::vector<uint8_t>(text.begin(), text.end());
}

std::shared_ptr<const VpArchive> parse(const std::vector<uint8_t>& bytes, std::vector<Problem>& problems,
                                       bool collectAll = true) {
    return VpArchive::fromMemory(std::make_shared<const std::vector<uint8_t>>(bytes), "t.vp", problems,
                                 collectAll);
}

// The archive FreeSpace mods ship: data/ with models/ and maps/, a file at the top.
VpWriter sampleWriter() {
    VpWriter w;
    w.file("readme.txt", bytesOf("hello"), 100)
        .folder("data")
        .folder("models")
        .file("Fighter.pof", bytesOf("PSPO-not-really"), 200)
        .up()
        .folder("maps")
        .file("hull.dds", bytesOf("DDS hull"), 300)
        .file("Glass-Trans.PNG", bytesOf("png glass"), 400)
        .up()
        .up();
    return w;
}

// Every problem's offset, in order.
std::vector<int64_t> offsets(const std::vector<Problem>& problems) {
    std::vector<int64_t> out;
    for (const Problem& p : problems) out.push_back(p.offset);
    return out;
}

std::string joined(const std::vector<Problem>& problems) {
    std::string out;
    for (const Problem& p : problems) out += p.format() + "\n";
    return out;
}

TEST(VpArchive, ReadsFoldersIntoFullInnerPaths) {
    const VpWriter w = sampleWriter();
    std::vector<Problem> problems;
    auto archive = parse(w.bytes(), problems);
    ASSERT_TRUE(archive) << joined(problems);
    EXPECT_TRUE(problems.empty()) << joined(problems);
    EXPECT_EQ(archive->version(), 2);
    EXPECT_EQ(archive->entryCount(), 10u);
    ASSERT_EQ(archive->files().size(), 4u);
    EXPECT_EQ(archive->files()[0].path, "readme.txt");
    EXPECT_EQ(archive->files()[1].path, "data/models/Fighter.pof");
    EXPECT_EQ(archive->files()[2].path, "data/maps/hull.dds");
    EXPECT_EQ(archive->files()[3].path, "data/maps/Glass-Trans.PNG");
    EXPECT_EQ(archive->files()[0].offset, 16u);
    EXPECT_EQ(archive->files()[0].size, 5u);
    EXPECT_EQ(archive->files()[1].offset, 21u);
    EXPECT_EQ(archive->files()[2].timestamp, 300);
    EXPECT_EQ(archive->files()[2].entryOffset, w.entryOffset(6));
    ASSERT_EQ(archive->folders().size(), 3u);
    EXPECT_EQ(archive->folders()[0].path, "data");
    EXPECT_EQ(archive->folders()[1].path, "data/models");
    EXPECT_EQ(archive->folders()[2].path, "data/maps");

    // Any case, either separator, leading separators ignored.
    ASSERT_TRUE(archive->find("DATA\\Maps\\glass-trans.png"));
    EXPECT_EQ(archive->find("/data/maps/GLASS-TRANS.png")->path, "data/maps/Glass-Trans.PNG");
    EXPECT_EQ(archive->find("data//models/fighter.POF"), &archive->files()[1]);
    EXPECT_FALSE(archive->find("data/maps"));
    EXPECT_FALSE(archive->find("hull.dds"));
    EXPECT_TRUE(archive->hasFolder("Data/MAPS"));
    EXPECT_TRUE(archive->hasFolder(""));
    EXPECT_FALSE(archive->hasFolder("data/sounds"));

    std::vector<std::string> folders;
    std::vector<const VpFile*> files;
    archive->list("", folders, files);
    EXPECT_EQ(folders, std::vector<std::string>{"data"});
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0]->path, "readme.txt");
    archive->list("data", folders, files);
    EXPECT_EQ(folders, (std::vector<std::string>{"models", "maps"}));
    EXPECT_TRUE(files.empty());
    archive->list("DATA/maps", folders, files);
    EXPECT_TRUE(folders.empty());
    ASSERT_EQ(files.size(), 2u);
    EXPECT_EQ(files[1]->path, "data/maps/Glass-Trans.PNG");

    std::string error;
    auto bytes = archive->read(*archive->find("data/maps/hull.dds"), error);
    ASSERT_TRUE(bytes) << error;
    EXPECT_EQ(*bytes, bytesOf("DDS hull"));
}

TEST(VpArchive, OpensFromDiskAndReadsOnlyWhatIsAsked) {
    const fs::path path = test::outputDir() / "vp_reader" / "sample.vp";
    vptest::writeFile(path, sampleWriter().bytes());
    std::vector<Problem> problems;
    auto archive = VpArchive::open(path.string(), problems);
    ASSERT_TRUE(archive) << joined(problems);
    EXPECT_TRUE(problems.empty());
    EXPECT_EQ(archive->archiveSize(), fs::file_size(path));
    std::string error;
    auto bytes = archive->read(*archive->find("data/models/fighter.pof"), error);
    ASSERT_TRUE(bytes) << error;
    EXPECT_EQ(*bytes, bytesOf("PSPO-not-really"));

    // The same file read through the path syntax every loader accepts.
    auto whole = readWholeFile(path.string() + ":DATA/maps/glass-trans.png", error);
    ASSERT_TRUE(whole) << error;
    EXPECT_EQ(*whole, bytesOf("png glass"));
    EXPECT_FALSE(readWholeFile(path.string() + ":data/maps/none.png", error));
    EXPECT_NE(error.find("no file 'data/maps/none.png'"), std::string::npos) << error;

    // Shrunk on disk after opening: a read fails with a reason, nothing crashes.
    auto cached = openVpArchiveCached(path.string());
    ASSERT_TRUE(cached);
    const VpFile* last = cached->find("data/maps/glass-trans.png");
    ASSERT_TRUE(last);
    std::vector<uint8_t> cut = vptest::readFile(path);
    cut.resize(last->offset + 2);
    vptest::writeFile(path, cut);
    EXPECT_FALSE(cached->read(*last, error));
    EXPECT_FALSE(error.empty());
    // The cache notices the change (size and time) and reads the directory again: now it is gone.
    std::vector<Problem> again;
    EXPECT_FALSE(openVpArchiveCached(path.string(), &again));
    EXPECT_FALSE(again.empty());
}

TEST(VpArchive, EmptyArchiveIsFine) {
    VpWriter w;
    std::vector<Problem> problems;
    auto archive = parse(w.bytes(), problems);
    ASSERT_TRUE(archive);
    EXPECT_TRUE(problems.empty()) << joined(problems);
    EXPECT_TRUE(archive->files().empty());
}

// ---------------------------------------------------------------------------------------------
// Every problem check mode reports, with the offset of the field at fault.

TEST(VpArchiveCheck, HeaderProblems) {
    std::vector<Problem> problems;
    EXPECT_FALSE(parse({'V', 'P', 'V', 'P', 2, 0}, problems));
    EXPECT_EQ(offsets(problems), std::vector<int64_t>{0});
    EXPECT_NE(problems[0].message.find("too short"), std::string::npos);

    problems.clear();
    std::vector<uint8_t> notVp = sampleWriter().bytes();
    notVp[3] = 'X';
    EXPECT_FALSE(parse(notVp, problems));
    EXPECT_EQ(offsets(problems), std::vector<int64_t>{0});
    EXPECT_NE(problems[0].message.find("'VPVX'"), std::string::npos) << problems[0].message;

    problems.clear();
    VpWriter v3 = sampleWriter();
    v3.version = 3;
    auto archive = parse(v3.bytes(), problems);
    ASSERT_TRUE(archive);  // read as version 2
    EXPECT_EQ(offsets(problems), std::vector<int64_t>{4});
    EXPECT_EQ(archive->files().size(), 4u);

    problems.clear();
    VpWriter past = sampleWriter();
    past.directoryOffsetField = 1 << 30;
    EXPECT_FALSE(parse(past.bytes(), problems));
    EXPECT_EQ(offsets(problems), std::vector<int64_t>{8});
    EXPECT_NE(problems[0].message.find("outside the archive"), std::string::npos);

    problems.clear();
    VpWriter negative = sampleWriter();
    negative.directoryOffsetField = -16;
    EXPECT_FALSE(parse(negative.bytes(), problems));
    EXPECT_EQ(offsets(problems), std::vector<int64_t>{8});

    problems.clear();
    VpWriter negativeCount = sampleWriter();
    negativeCount.countField = -1;
    EXPECT_FALSE(parse(negativeCount.bytes(), problems));
    EXPECT_EQ(offsets(problems), std::vector<int64_t>{12});

    problems.clear();
    VpWriter inHeader;
    inHeader.folder("data").up();
    inHeader.directoryOffsetField = 4;
    parse(inHeader.bytes(), problems);
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems[0].offset, 8);
    EXPECT_NE(problems[0].message.find("inside the 16-byte header"), std::string::npos);
}

TEST(VpArchiveCheck, HugeCountIsNeverAllocatedAndTheEntriesThatFitAreRead) {
    for (int32_t count : {11, 1000, 0x7FFFFFFF}) {
        SCOPED_TRACE(count);
        VpWriter w = sampleWriter();
        w.countField = count;
        std::vector<Problem> problems;
        auto archive = parse(w.bytes(), problems);
        ASSERT_TRUE(archive);
        ASSERT_FALSE(problems.empty());
        EXPECT_EQ(problems[0].offset, 12);
        EXPECT_NE(problems[0].message.find("the 10 that fit are read"), std::string::npos)
            << problems[0].message;
        EXPECT_EQ(archive->entryCount(), 10u);
        EXPECT_EQ(archive->files().size(), 4u);
    }
}

TEST(VpArchiveCheck, DataPastTheEndIsSkippedWithTheEntryOffset) {
    VpWriter w;
    w.folder("data").file("ok.bin", bytesOf("12345"));
    const size_t bad = w.entries();
    w.entry(w.nextDataOffset(), 3, "tail.bin");  // where the directory is
    const size_t huge = w.entries();
    w.entry(0x7FFFFFFF, 0x7FFFFFFF, "wrap.bin");  // offset + size overflows 32 bits
    w.up();
    // The first stays in the archive (its bytes are there: the directory's); the second is skipped.
    std::vector<Problem> problems;
    auto archive = parse(w.bytes(), problems);
    ASSERT_TRUE(archive);
    ASSERT_EQ(problems.size(), 2u) << joined(problems);
    EXPECT_EQ(problems[0].offset, int64_t(w.entryOffset(bad)));
    EXPECT_NE(problems[0].message.find("overlaps the directory"), std::string::npos) << problems[0].message;
    EXPECT_EQ(problems[1].offset, int64_t(w.entryOffset(huge)));
    EXPECT_NE(problems[1].message.find("runs past the end"), std::string::npos) << problems[1].message;
    EXPECT_TRUE(archive->find("data/tail.bin"));
    EXPECT_FALSE(archive->find("data/wrap.bin"));

    VpWriter beyond;
    beyond.entry(16, 4096, "big.bin");
    problems.clear();
    archive = parse(beyond.bytes(), problems);
    ASSERT_TRUE(archive);
    EXPECT_EQ(offsets(problems), std::vector<int64_t>{int64_t(beyond.entryOffset(0))});
    EXPECT_TRUE(archive->files().empty());
}

TEST(VpArchiveCheck, NegativeFieldsNamesAndNesting) {
    VpWriter w;
    w.entry(16, -5, "negative.bin");                             // 0: size
    w.entry(-1, 4, "before.bin");                                // 1: offset
    w.entry(16, 1, std::string(32, 'n'));                        // 2: no NUL (kept as 31 characters)
    w.up();                                                      // 3: nothing to close
    w.entry(16, 1, "a/b.bin");                                   // 4: separator in a file name
    w.folder("sub\\dir").file("hidden.bin", bytesOf("x")).up();  // 5-7: bad folder name, file skipped
    w.folder("").up();                                           // 8-9: folder without a name
    w.data(bytesOf("padding"));
    std::vector<Problem> problems;
    auto archive = parse(w.bytes(), problems);
    ASSERT_TRUE(archive);
    const std::vector<int64_t> expected = {int64_t(w.entryOffset(0) + 4), int64_t(w.entryOffset(1)),
                                           int64_t(w.entryOffset(2) + 8), int64_t(w.entryOffset(3) + 8),
                                           int64_t(w.entryOffset(4) + 8), int64_t(w.entryOffset(5) + 8),
                                           int64_t(w.entryOffset(8) + 8)};
    EXPECT_EQ(offsets(problems), expected) << joined(problems);
    ASSERT_EQ(archive->files().size(), 1u);
    EXPECT_EQ(archive->files()[0].path, std::string(31, 'n'));
    EXPECT_FALSE(archive->find("sub/dir/hidden.bin"));
    EXPECT_FALSE(archive->find("hidden.bin"));
}

// Files named "." or ".." (a size above 0: they are not folder entries) and a folder named "." are
// not path components: each is skipped with one problem at its name, and nothing reaches the paths.
TEST(VpArchiveCheck, DotAndDotDotAreNotNames) {
    VpWriter w;
    w.file(".", bytesOf("dot"));                                // 0
    w.file("..", bytesOf("dotdot"));                            // 1
    w.folder(".").file("inside.bin", bytesOf("x")).up();        // 2-4: the folder's files are skipped
    w.file("kept.bin", bytesOf("kept"));                        // 5
    std::vector<Problem> problems;
    auto archive = parse(w.bytes(), problems);
    ASSERT_TRUE(archive);
    const std::vector<int64_t> expected = {int64_t(w.entryOffset(0) + 8), int64_t(w.entryOffset(1) + 8),
                                           int64_t(w.entryOffset(2) + 8)};
    EXPECT_EQ(offsets(problems), expected) << joined(problems);
    for (const Problem& p : problems)
        EXPECT_NE(p.message.find("not one path component"), std::string::npos) << p.format();
    ASSERT_EQ(archive->files().size(), 1u);
    EXPECT_EQ(archive->files()[0].path, "kept.bin");
    EXPECT_TRUE(archive->folders().empty());
}

TEST(VpArchiveCheck, FoldersLeftOpenAndNestingCap) {
    VpWriter open;
    open.folder("data").folder("maps").file("x.pcx", bytesOf("pcx"));
    std::vector<Problem> problems;
    auto archive = parse(open.bytes(), problems);
    ASSERT_TRUE(archive);
    EXPECT_EQ(offsets(problems), std::vector<int64_t>{int64_t(open.entryOffset(0) + 8)});
    EXPECT_NE(problems[0].message.find("2 folders are still open"), std::string::npos) << problems[0].message;
    EXPECT_TRUE(archive->find("data/maps/x.pcx"));  // kept

    VpWriter deep;
    for (uint32_t i = 0; i < kVpMaxDepth + 5; ++i) deep.folder("d" + std::to_string(i));
    deep.file("deep.bin", bytesOf("x"));
    for (uint32_t i = 0; i < kVpMaxDepth + 5; ++i) deep.up();
    deep.file("top.bin", bytesOf("y"));
    problems.clear();
    archive = parse(deep.bytes(), problems);
    ASSERT_TRUE(archive);
    EXPECT_EQ(offsets(problems), std::vector<int64_t>{int64_t(deep.entryOffset(kVpMaxDepth) + 8)})
        << joined(problems);
    ASSERT_EQ(archive->files().size(), 1u);  // the deep file skipped, the nesting unwound
    EXPECT_EQ(archive->files()[0].path, "top.bin");
    EXPECT_EQ(archive->folders().size(), kVpMaxDepth);
}

TEST(VpArchiveCheck, DuplicatesAndOverlapsFirstOneWins) {
    VpWriter w;
    w.folder("data").file("Tex.dds", bytesOf("first")).up();
    w.folder("DATA").file("tex.DDS", bytesOf("second")).up();  // 3-5: same path in another case
    const int32_t shared = 16;
    w.entry(shared + 2, 4, "overlap.bin");                // 6: inside "first"'s data
    w.entry(4, 4, "header.bin");                          // 7: inside the header
    w.folder("data").up();                                // a folder opened again: fine
    w.file("data", bytesOf("file named like a folder"));  // 10
    std::vector<Problem> problems;
    auto archive = parse(w.bytes(), problems);
    ASSERT_TRUE(archive);
    const std::vector<int64_t> expected = {int64_t(w.entryOffset(4) + 8), int64_t(w.entryOffset(7)),
                                           int64_t(w.entryOffset(10) + 8), int64_t(w.entryOffset(6))};
    EXPECT_EQ(offsets(problems), expected) << joined(problems);
    std::string error;
    auto bytes = archive->read(*archive->find("data/tex.dds"), error);
    ASSERT_TRUE(bytes);
    EXPECT_EQ(*bytes, bytesOf("first"));

    // Load mode does not look for overlaps.
    problems.clear();
    parse(w.bytes(), problems, false);
    EXPECT_EQ(problems.size(), 3u) << joined(problems);
}

TEST(VpArchiveCheck, ProblemsAreCappedAndFormattedWithTheArchiveName) {
    VpWriter w;
    for (int i = 0; i < 500; ++i) w.up();
    std::vector<Problem> problems;
    auto archive = parse(w.bytes(), problems);
    ASSERT_TRUE(archive);
    ASSERT_EQ(problems.size(), 201u);
    EXPECT_EQ(
        problems[0].format(),
        "t.vp: offset 0x18: directory entry 0 '..': '..' closes a folder, but no folder is open; ignored");
    EXPECT_EQ(problems.back().message, "further problems are not listed");
}

// ---------------------------------------------------------------------------------------------
// Robustness: every prefix, random corruptions, absurd fields; under ASan in the sanitizer build.

void exercise(const std::vector<uint8_t>& bytes) {
    for (bool collectAll : {false, true}) {
        std::vector<Problem> problems;
        auto archive = parse(bytes, problems, collectAll);
        if (!archive) {
            EXPECT_FALSE(problems.empty());
            continue;
        }
        std::vector<std::string> folders;
        std::vector<const VpFile*> files;
        for (const VpFolder& f : archive->folders()) archive->list(f.path, folders, files);
        for (const VpFile& f : archive->files()) {
            EXPECT_EQ(archive->find(f.path), &f);
            std::string error;
            auto data = archive->read(f, error);
            ASSERT_TRUE(data) << error;
            EXPECT_EQ(data->size(), f.size);
        }
    }
}

TEST(VpArchiveRobustness, EveryPrefixOfAValidArchive) {
    const std::vector<uint8_t> whole = sampleWriter().bytes();
    for (size_t n = 0; n <= whole.size(); ++n) {
        SCOPED_TRACE(n);
        exercise(std::vector<uint8_t>(whole.begin(), whole.begin() + static_cast<ptrdiff_t>(n)));
    }
    // Prefixes read from disk too (header and directory through pread).
    const fs::path path = test::outputDir() / "vp_reader" / "prefix.vp";
    for (size_t n :
         {size_t(0), size_t(3), size_t(15), size_t(16), size_t(40), whole.size() - 44, whole.size() - 1}) {
        vptest::writeFile(path,
                          std::vector<uint8_t>(whole.begin(), whole.begin() + static_cast<ptrdiff_t>(n)));
        std::vector<Problem> problems;
        auto archive = VpArchive::open(path.string(), problems, true);
        EXPECT_TRUE(archive || !problems.empty()) << n;
    }
}

TEST(VpArchiveRobustness, RandomCorruptions) {
    const std::vector<uint8_t> whole = sampleWriter().bytes();
    std::mt19937 rng(1234);
    for (int round = 0; round < 4000; ++round) {
        std::vector<uint8_t> bytes = whole;
        const int flips = 1 + int(rng() % 8);
        for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
        // Often into the header's fields, where one byte changes the most.
        if (round % 3 == 0) bytes[4 + rng() % 12] = static_cast<uint8_t>(rng());
        exercise(bytes);
    }
}

// ---------------------------------------------------------------------------------------------
// `archive.vp:path`

TEST(VpArchivePath, SplitsOnlyWhereAnArchiveExists) {
    const fs::path dir = test::outputDir() / "vp_paths";
    fs::remove_all(dir);
    const fs::path archive = dir / "Ships.VP";
    vptest::writeFile(archive, sampleWriter().bytes());
    const fs::path colonDir = dir / "odd:name";
    vptest::writeFile(colonDir / "x.vp", sampleWriter().bytes());

    ArchivePath split;
    ASSERT_TRUE(splitArchivePath(archive.string() + ":data\\models\\Fighter.pof", split));
    EXPECT_EQ(split.archive, archive.string());
    EXPECT_EQ(split.inner, "data/models/Fighter.pof");
    ASSERT_TRUE(splitArchivePath(archive.string() + ":", split));
    EXPECT_EQ(split.inner, "");
    ASSERT_TRUE(splitArchivePath(archive.string() + ":/data/", split));
    EXPECT_EQ(split.inner, "data/");
    // A colon before the archive's own one (a folder name) is passed over.
    ASSERT_TRUE(splitArchivePath((colonDir / "x.vp").string() + ":a.pof", split));
    EXPECT_EQ(split.archive, (colonDir / "x.vp").string());
    EXPECT_EQ(split.inner, "a.pof");

    EXPECT_FALSE(splitArchivePath(archive.string(), split));
    EXPECT_FALSE(splitArchivePath("C:\\models\\ship.pof", split));             // a drive letter
    EXPECT_FALSE(splitArchivePath("C:/games/fs2/root.vp:data/x.pof", split));  // no such archive here
    EXPECT_FALSE(splitArchivePath((dir / "missing.vp").string() + ":x.pof", split));
    EXPECT_FALSE(splitArchivePath(dir.string() + ":x.pof", split));  // a folder, not a .vp file
    EXPECT_TRUE(isVpArchiveFile(archive.string()));
    EXPECT_FALSE(isVpArchiveFile(dir.string()));
    EXPECT_TRUE(isVpFileName("a.Vp"));
    EXPECT_FALSE(isVpFileName("a.vpx"));
    EXPECT_EQ(vpLookupKey("\\Data//Maps/X.DDS"), "data/maps/x.dds");
    EXPECT_EQ(joinArchivePath("a.vp", "data\\x.pof"), "a.vp:data/x.pof");
}

TEST(VpArchivePath, LoadingNamesWhatIsMissing) {
    const fs::path dir = test::outputDir() / "vp_load";
    fs::remove_all(dir);
    const fs::path archive = dir / "ships.vp";
    vptest::writeFile(archive, sampleWriter().bytes());

    LoadResult missing = loadSceneFile(archive.string() + ":data/models/none.pof");
    ASSERT_EQ(missing.problems.size(), 1u);
    EXPECT_EQ(missing.problems[0].format(),
              archive.string() +
                  ":data/models/none.pof: no file 'data/models/none.pof' in the archive (the model in it: " +
                  archive.string() + ":data/models/Fighter.pof)");

    LoadResult bare = loadSceneFile(archive.string());
    ASSERT_EQ(bare.problems.size(), 1u);
    EXPECT_NE(bare.problems[0].message.find("name a model inside the VP archive"), std::string::npos);

    LoadResult notAModel = loadSceneFile(archive.string() + ":data/maps/hull.dds");
    ASSERT_FALSE(notAModel.scene);
    ASSERT_EQ(notAModel.problems.size(), 1u);
    EXPECT_NE(notAModel.problems[0].message.find("unknown file format"), std::string::npos);

    // A VP under another name still says what it is.
    const fs::path renamed = dir / "ships.bin";
    fs::copy_file(archive, renamed);
    LoadResult vpAsBin = loadSceneFile(renamed.string());
    ASSERT_EQ(vpAsBin.problems.size(), 1u);
    EXPECT_NE(vpAsBin.problems[0].message.find("a FreeSpace VP archive"), std::string::npos);
    EXPECT_NE(vpAsBin.problems[0].message.find("data/models/Fighter.pof"), std::string::npos);
}

}  // namespace
}  // namespace esv
