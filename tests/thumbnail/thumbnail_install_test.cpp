// `cmake --install` into a fresh prefix puts esview's desktop integration where file managers and
// menus find it (platforms/linux): the binary, the thumbnailer entry naming the installed binary,
// the MIME types (their globs and magic the format table's), the .desktop file and the icon. The
// files pass the freedesktop tools (desktop-file-validate, xmllint, update-mime-database), and the
// MIME database built from them gives every shared sample its type (gio), which the thumbnailer
// lists; the thumbnailer's command, run as a file manager runs it, writes the picture. A missing
// tool skips its part (fails with ESVIEW_REQUIRE_SHARED: CI has them all).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/image_compare.h"
#include "common/run_esview.h"
#include "common/shared_samples.h"
#include "loaders/archive/vp_archive.h"
#include "loaders/format_table.h"

namespace {

namespace fs = std::filesystem;

struct Shell {
    int exitCode = -1;
    std::string out;  // stdout and stderr together
};

// Runs `command` through the shell, its output captured.
Shell shell(const std::string& command) {
    static int counter = 0;
    const fs::path capture =
        esv::test::outputDir() / ("thumbnail_install_" + std::to_string(counter++) + ".log");
    const int status = std::system((command + " >'" + capture.string() + "' 2>&1").c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, esv::test::readText(capture)};
}

std::string q(const fs::path& path) {
    return "'" + path.string() + "'";
}

// The installed tree, made once for all the tests of this file.
const fs::path& prefix() {
    static const fs::path dir = [] {
        // One per process: ctest runs each test of this file as a process of its own, in parallel.
        const fs::path p = esv::test::outputDir() / ("thumbnail_install_" + std::to_string(::getpid()));
        fs::remove_all(p);
        const Shell r = shell("'" ESVIEW_CMAKE_COMMAND "' --install '" ESVIEW_BUILD_DIR "' --prefix " + q(p));
        EXPECT_EQ(r.exitCode, 0) << r.out;
        return p;
    }();
    return dir;
}

// `key=value` lines of a freedesktop entry file's group `[group]`.
std::map<std::string, std::string> entryKeys(const fs::path& file, const std::string& group) {
    std::map<std::string, std::string> keys;
    std::ifstream in(file);
    bool inGroup = false;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.front() == '[') {
            inGroup = line == "[" + group + "]";
            continue;
        }
        const size_t eq = line.find('=');
        if (inGroup && eq != std::string::npos) keys[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return keys;
}

std::vector<std::string> splitList(const std::string& list) {
    std::vector<std::string> items;
    std::istringstream in(list);
    for (std::string item; std::getline(in, item, ';');)
        if (!item.empty()) items.push_back(item);
    return items;
}

// What mime_types.py reads from the installed MIME package: its lines, split into words.
std::vector<std::vector<std::string>> mimeFacts() {
    if (std::string(ESVIEW_PYTHON).empty()) return {};
    const Shell r = shell("'" ESVIEW_PYTHON "' '" ESVIEW_SOURCE_DIR "/tests/thumbnail/mime_types.py' " +
                          q(prefix() / "share/mime/packages/esview-mime.xml"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    std::vector<std::vector<std::string>> facts;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        facts.emplace_back();
        for (std::string w; words >> w;) facts.back().push_back(w);
    }
    return facts;
}

// The MIME type each format's files are given, the table's (the package defines exactly these, plus
// VP's; tests/desktop_files checks the generated files against the table in more detail).
const std::map<std::string, std::string> kTypeOfFormat = [] {
    std::map<std::string, std::string> types;
    for (const esv::FormatInfo& format : esv::formats()) types[format.key] = format.mime.type;
    return types;
}();
const std::string kVpType = esv::containers().at(0).mime.type;

std::string hex(const std::string& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) out += {digits[c >> 4], digits[c & 15]};
    return out;
}

TEST(ThumbnailInstall, PlacesTheFiles) {
    const fs::path& p = prefix();
    for (const char* file :
         {"bin/esview", "share/thumbnailers/esview.thumbnailer", "share/mime/packages/esview-mime.xml",
          "share/applications/esview.desktop", "share/icons/hicolor/scalable/apps/esview.svg"})
        EXPECT_TRUE(fs::is_regular_file(p / file)) << file;
    struct stat st {};
    ASSERT_EQ(stat((p / "bin/esview").c_str(), &st), 0);
    EXPECT_TRUE(st.st_mode & S_IXUSR);
}

TEST(ThumbnailInstall, ThumbnailerNamesTheInstalledBinary) {
    const fs::path binary = prefix() / "bin/esview";
    const auto keys = entryKeys(prefix() / "share/thumbnailers/esview.thumbnailer", "Thumbnailer Entry");
    ASSERT_TRUE(keys.count("Exec"));
    EXPECT_EQ(keys.at("Exec"), binary.string() + " thumbnail %i %o --size %s");
    EXPECT_EQ(keys.count("TryExec") ? keys.at("TryExec") : "", binary.string());
    std::vector<std::string> types = splitList(keys.count("MimeType") ? keys.at("MimeType") : "");
    std::sort(types.begin(), types.end());
    std::vector<std::string> expected{kVpType};
    for (const auto& [format, type] : kTypeOfFormat) expected.push_back(type);
    for (const esv::FormatInfo& format : esv::formats())
        if (!format.textExtensions.empty()) expected.push_back(format.textMime.type);
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(types, expected);

    // The command as a file manager runs it: %i the file, %o the picture, %s the size (a cross
    // build's binary runs only under its emulator).
    if (ESVIEW_CROSS_BUILD) return;
    ESVIEW_REQUIRE_MODELS("pof");
    const fs::path png = esv::test::outputDir() / "thumbnail_install_exec.png";
    fs::remove(png);
    std::string command = keys.at("Exec");
    for (const auto& [field, value] : std::vector<std::pair<std::string, std::string>>{
             {"%i", q(esv::test::modelsDir() / "pof/air_missile1.pof")}, {"%o", q(png)}, {"%s", "128"}})
        command.replace(command.find(field), field.size(), value);
    const Shell r = shell(command);
    ASSERT_EQ(r.exitCode, 0) << command << "\n" << r.out;
    esv::test::Image image;
    ASSERT_TRUE(esv::test::loadPng(png.string(), image));
    EXPECT_EQ(image.width, 128);
    EXPECT_EQ(image.height, 128);
}

TEST(ThumbnailInstall, DesktopEntryIsValid) {
    const fs::path desktop = prefix() / "share/applications/esview.desktop";
    const auto keys = entryKeys(desktop, "Desktop Entry");
    EXPECT_EQ(keys.count("Exec") ? keys.at("Exec") : "", (prefix() / "bin/esview").string() + " %f");
    EXPECT_EQ(keys.count("Icon") ? keys.at("Icon") : "", "esview");
    const std::vector<std::string> categories =
        splitList(keys.count("Categories") ? keys.at("Categories") : "");
    for (const char* c : {"Graphics", "3DGraphics", "Viewer"})
        EXPECT_NE(std::find(categories.begin(), categories.end(), c), categories.end()) << c;
    // The viewer opens model files (a VP archive is browsed from inside the viewer instead).
    std::vector<std::string> types = splitList(keys.count("MimeType") ? keys.at("MimeType") : "");
    for (const auto& [format, type] : kTypeOfFormat)
        EXPECT_NE(std::find(types.begin(), types.end(), type), types.end()) << type;
    if (std::string(DESKTOP_FILE_VALIDATE).empty())
        ESVIEW_SKIP_UNLESS_REQUIRED() << "desktop-file-validate (Debian desktop-file-utils) not found";
    const Shell r = shell("'" DESKTOP_FILE_VALIDATE "' " + q(desktop));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_EQ(r.out, "") << "warnings or hints";
}

TEST(ThumbnailInstall, MimeTypesAreTheFormatTables) {
    if (std::string(ESVIEW_PYTHON).empty()) ESVIEW_SKIP_UNLESS_REQUIRED() << "python3 not found";
    const auto facts = mimeFacts();
    std::set<std::string> types, typesWithGlob;
    std::map<std::string, std::set<std::string>> magicOf;
    for (const auto& f : facts) {
        ASSERT_GE(f.size(), 2u);
        if (f[0] == "type") types.insert(f[1]);
        if (f[0] == "glob") {
            ASSERT_EQ(f.size(), 3u);
            typesWithGlob.insert(f[1]);
            // Every glob is "*." and an extension of the table (or the VP archive's), of its type.
            ASSERT_EQ(f[2].substr(0, 2), "*.") << f[2];
            const std::string name = "x" + f[2].substr(1);
            if (f[1] == kVpType) {
                EXPECT_TRUE(esv::isVpFileName(name)) << f[2];
                continue;
            }
            const esv::FormatInfo* format = esv::formatForExtension(name);
            ASSERT_NE(format, nullptr) << f[2] << " is not an extension of the format table";
            // A row's text form (glTF's .gltf) has its own type.
            const std::string ext = f[2].substr(2);
            const bool text = std::find(format->textExtensions.begin(), format->textExtensions.end(), ext) !=
                              format->textExtensions.end();
            EXPECT_EQ(text ? format->textMime.type : kTypeOfFormat.at(format->key), f[1]) << f[2];
        }
        if (f[0] == "magic") {
            ASSERT_EQ(f.size(), 4u);
            EXPECT_EQ(f[2], "0") << "the table's magic is a file's first bytes";
            magicOf[f[1]].insert(f[3]);
        }
    }
    std::set<std::string> expectedTypes{kVpType};
    for (const auto& [format, type] : kTypeOfFormat) expectedTypes.insert(type);
    // A row's text form (glTF's .gltf) is a type of its own, with globs and no magic.
    for (const esv::FormatInfo& format : esv::formats())
        if (!format.textExtensions.empty()) expectedTypes.insert(format.textMime.type);
    EXPECT_EQ(types, expectedTypes);
    EXPECT_EQ(typesWithGlob, expectedTypes);
    // The magic of each type is exactly the table's (a text format has none).
    for (const esv::FormatInfo& format : esv::formats()) {
        std::set<std::string> magic;
        for (const std::string& m : format.magic) magic.insert(hex(m));
        const std::string& type = kTypeOfFormat.at(format.key);
        EXPECT_EQ(magicOf.count(type) ? magicOf.at(type) : std::set<std::string>{}, magic) << type;
    }
    EXPECT_EQ(magicOf[kVpType], std::set<std::string>{hex("VPVP")});
}

TEST(ThumbnailInstall, MimeDatabaseGivesEverySampleItsType) {
    const fs::path package = prefix() / "share/mime/packages/esview-mime.xml";
    if (std::string(XMLLINT).empty())
        ESVIEW_SKIP_UNLESS_REQUIRED() << "xmllint (Debian libxml2-utils) not found";
    Shell r = shell("'" XMLLINT "' --noout " + q(package));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    if (std::string(UPDATE_MIME_DATABASE).empty() || std::string(GIO).empty())
        ESVIEW_SKIP_UNLESS_REQUIRED()
            << "update-mime-database (Debian shared-mime-info) or gio (Debian libglib2.0-bin) not found";
    // The database of the system's types and ours, as a desktop builds it (ours from the prefix).
    const fs::path mime = prefix() / "share/mime";
    r = shell("'" UPDATE_MIME_DATABASE "' " + q(mime));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    EXPECT_EQ(r.out.find("rror"), std::string::npos) << r.out;
    ESVIEW_REQUIRE_MODELS("");
    // A VP archive too, and an upper-case extension (simple.AWD among the samples).
    const fs::path vp = esv::test::outputDir() / "thumbnail_install_sample.vp";
    std::ofstream(vp, std::ios::binary) << "VPVP" << std::string(12, '\0');
    std::vector<fs::path> files = esv::test::sharedModelFiles();
    files.push_back(vp);
    std::string command = "XDG_DATA_HOME=" + q(prefix() / "share") +
                          " XDG_DATA_DIRS=/usr/local/share:/usr/share '" GIO
                          "' info -a standard::content-type";
    for (const fs::path& f : files) command += " " + q(f);
    r = shell(command);
    ASSERT_EQ(r.exitCode, 0) << r.out;
    // gio prints each file's "uri:" line and then its attributes.
    std::vector<std::string> types;
    std::istringstream in(r.out);
    const std::string key = "standard::content-type: ";
    for (std::string line; std::getline(in, line);)
        if (line.find(key) != std::string::npos) types.push_back(line.substr(line.find(key) + key.size()));
    ASSERT_EQ(types.size(), files.size()) << r.out;
    for (size_t i = 0; i < files.size(); ++i) {
        const esv::FormatInfo* format = esv::formatForExtension(files[i].string());
        EXPECT_EQ(types[i], format ? kTypeOfFormat.at(format->key) : kVpType) << files[i];
    }
}

}  // namespace
