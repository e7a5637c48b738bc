// The desktop integration's files list every format of the table and the VP container, and only
// those (issue 33): the MIME package the build writes has each type with a glob per extension and
// a match per magic, the .desktop and .thumbnailer files' MimeType lines name the same types (the
// thumbnailer's with the containers), and the Android app's files, kept in the repository, are what
// the table makes now. The files are read back by a parser of this test's own, which a synthetic
// table shows to notice a row added or taken away.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_paths.h"
#include "tools/desktop_files.h"

namespace {

namespace fs = std::filesystem;
using esv::DesktopType;

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The generated files' text, from the build (Linux) and the repository (Android).
struct Files {
    std::string mimeXml, desktop, thumbnailer, androidJava, androidManifest;
};

// The value of attribute `name` in the tag starting at `tag`.
std::string attribute(const std::string& text, size_t tag, const std::string& name) {
    const size_t close = text.find('>', tag);
    const size_t at = text.find(" " + name + "=\"", tag);
    if (at == std::string::npos || at > close) return {};
    const size_t from = at + name.size() + 3;
    return text.substr(from, text.find('"', from) - from);
}

// A shared-mime-info string match's bytes: XML entities, then the C escapes it reads.
std::string matchBytes(std::string value) {
    for (const auto& [entity, c] : std::vector<std::pair<std::string, std::string>>{
             {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}})
        for (size_t at = value.find(entity); at != std::string::npos; at = value.find(entity, at + 1))
            value.replace(at, entity.size(), c);
    std::string bytes;
    for (size_t i = 0; i < value.size(); ++i) {
        if (value[i] != '\\') {
            bytes += value[i];
        } else if (value[i + 1] == 'x') {
            bytes += char(std::stoi(value.substr(i + 2, 2), nullptr, 16));
            i += 3;
        } else {
            bytes += value[++i];
        }
    }
    return bytes;
}

// What the MIME package says: each type's globs and magic byte strings.
struct TypeFacts {
    std::set<std::string> globs, magic;
    int count = 0;  // <mime-type> elements of the type
};

std::map<std::string, TypeFacts> mimeFacts(const std::string& xml) {
    std::map<std::string, TypeFacts> facts;
    for (size_t at = xml.find("<mime-type "); at != std::string::npos; at = xml.find("<mime-type ", at + 1)) {
        TypeFacts& f = facts[attribute(xml, at, "type")];
        ++f.count;
        const size_t end = xml.find("</mime-type>", at);
        for (size_t g = xml.find("<glob ", at); g < end; g = xml.find("<glob ", g + 1))
            f.globs.insert(attribute(xml, g, "pattern"));
        for (size_t m = xml.find("<match ", at); m < end; m = xml.find("<match ", m + 1)) {
            EXPECT_EQ(attribute(xml, m, "type"), "string");
            EXPECT_EQ(attribute(xml, m, "offset"), "0");
            f.magic.insert(matchBytes(attribute(xml, m, "value")));
        }
    }
    return facts;
}

// The ';'-separated items of the line starting with `key` in a freedesktop entry file.
std::vector<std::string> entryList(const std::string& text, const std::string& key) {
    std::vector<std::string> items;
    const size_t at = text.find("\n" + key);
    if (at == std::string::npos) return items;
    std::istringstream line(text.substr(at + key.size() + 1, text.find('\n', at + 1) - at - key.size() - 1));
    for (std::string item; std::getline(line, item, ';');)
        if (!item.empty()) items.push_back(item);
    return items;
}

// The quoted strings of `text` between `from` and the next `to`.
std::vector<std::string> quotedBetween(const std::string& text, const std::string& from,
                                       const std::string& to) {
    std::vector<std::string> items;
    const size_t begin = text.find(from);
    if (begin == std::string::npos) return items;
    const size_t end = text.find(to, begin + from.size());
    for (size_t q = text.find('"', begin); q < end; q = text.find('"', q + 1)) {
        const size_t close = text.find('"', q + 1);
        items.push_back(text.substr(q + 1, close - q - 1));
        q = close;
    }
    return items;
}

// Every way `files` differ from what `types` ask for, one sentence each; empty when they agree.
std::vector<std::string> mismatches(const std::vector<DesktopType>& types, const Files& files) {
    std::vector<std::string> out;
    std::map<std::string, TypeFacts> facts = mimeFacts(files.mimeXml);
    std::vector<std::string> models, all, extensions;
    for (const DesktopType& t : types) {
        all.push_back(t.mime.type);
        if (!t.container) models.push_back(t.mime.type);
        for (const std::string& ext : t.extensions)
            if (!t.container) extensions.push_back("." + ext);
        auto it = facts.find(t.mime.type);
        if (it == facts.end()) {
            out.push_back(t.mime.type + " is not in the MIME package");
            continue;
        }
        std::set<std::string> globs, magic(t.magic.begin(), t.magic.end());
        for (const std::string& ext : t.extensions) globs.insert("*." + ext);
        if (it->second.count != 1) out.push_back(t.mime.type + " is in the MIME package more than once");
        if (it->second.globs != globs) out.push_back(t.mime.type + "'s globs are not its extensions");
        if (it->second.magic != magic) out.push_back(t.mime.type + "'s magic is not the table's");
        facts.erase(it);
    }
    for (const auto& [type, f] : facts) out.push_back(type + " is in the MIME package but not in the table");
    if (entryList(files.desktop, "MimeType=") != models) out.push_back("the .desktop file's MimeType line");
    if (entryList(files.thumbnailer, "MimeType=") != all) out.push_back("the thumbnailer's MimeType line");
    if (quotedBetween(files.androidJava, "EXTENSIONS = {", "}") != extensions)
        out.push_back("the Android app's extensions");
    std::vector<std::string> manifestTypes;
    for (const std::string& q :
         quotedBetween(files.androidManifest, esv::kAndroidBeginMarker, esv::kAndroidEndMarker))
        if (q.find('/') != std::string::npos) manifestTypes.push_back(q);
    if (manifestTypes != models) out.push_back("the Android manifest's MIME types");
    return out;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& l : lines) text += l + "\n";
    return text;
}

const char* const kDesktopTemplate =
    "[Desktop Entry]\nExec=@ESVIEW_BINARY@ %f\n"
    "Comment=View @ESVIEW_FORMAT_NAMES@ models\n"
    "MimeType=@ESVIEW_MIME_TYPES@\nKeywords=3D;@ESVIEW_FORMAT_KEYWORDS@\n";
const char* const kManifest =
    "<filter>\n"
    "    <!-- Generated from the format table -->\n"
    "    <data android:mimeType=\"old/type\" />\n"
    "    <!-- End of the generated lines -->\n"
    "</filter>\n";

// What the generator makes of `types`, as the build and esview_update_android write it.
Files generate(const std::vector<DesktopType>& types) {
    Files f;
    f.mimeXml = esv::mimePackageXml(types);
    f.desktop = esv::fillDesktopTemplate(kDesktopTemplate, types, false);
    f.thumbnailer =
        esv::fillDesktopTemplate("[Thumbnailer Entry]\nMimeType=@ESVIEW_MIME_TYPES@\n", types, true);
    f.androidJava = esv::androidModelFormatsJava(types);
    f.androidManifest = kManifest;
    EXPECT_TRUE(esv::updateAndroidManifest(f.androidManifest, types));
    return f;
}

// Two formats, one of text, one with binary magic that needs every escape, and a container.
std::vector<DesktopType> syntheticTable() {
    DesktopType text{"TXT", {}, {"txt3", "t3d"}, {}, false};
    text.mime = {"model/x-text3d", "Text3D model", "T3D", "Text 3D", "text/plain", "model-x-generic", 50};
    DesktopType binary{"BIN", {}, {"bin3"}, {std::string("\0\x01\xff", 3), "A\\<&\"B"}, false};
    binary.mime = {"model/x-bin3d", "Acme BIN model", "", "", "", "model-x-generic", 70};
    DesktopType box{"", {}, {"box"}, {"BOX!"}, true};
    box.mime = {"application/x-box", "Box archive", "", "", "", "package-x-generic", 60};
    return {text, binary, box};
}

TEST(DesktopFiles, GeneratorWritesASyntheticTable) {
    const std::vector<DesktopType> types = syntheticTable();
    const Files f = generate(types);
    EXPECT_EQ(joined(mismatches(types, f)), "");
    EXPECT_NE(f.mimeXml.find("<sub-class-of type=\"text/plain\"/>"), std::string::npos) << f.mimeXml;
    EXPECT_NE(f.mimeXml.find("<expanded-acronym>Text 3D</expanded-acronym>"), std::string::npos);
    EXPECT_NE(f.mimeXml.find("<magic priority=\"70\">"), std::string::npos);
    EXPECT_NE(f.mimeXml.find("value=\"\\x00\\x01\\xff\""), std::string::npos) << f.mimeXml;
    EXPECT_NE(f.mimeXml.find("value=\"A\\\\&lt;&amp;&quot;B\""), std::string::npos) << f.mimeXml;
    EXPECT_EQ(f.desktop,
              "[Desktop Entry]\nExec=@ESVIEW_BINARY@ %f\nComment=View Text3D and Acme BIN models\n"
              "MimeType=model/x-text3d;model/x-bin3d;\nKeywords=3D;TXT;Text3D;BIN;Acme;\n");
    EXPECT_EQ(f.thumbnailer,
              "[Thumbnailer Entry]\nMimeType=model/x-text3d;model/x-bin3d;application/x-box;\n");
    EXPECT_NE(f.androidJava.find("EXTENSIONS = {\".txt3\", \".t3d\", \".bin3\"};"), std::string::npos);
    EXPECT_EQ(f.androidManifest,
              "<filter>\n    <!-- Generated from the format table -->\n"
              "    <data android:mimeType=\"model/x-text3d\" />\n"
              "    <data android:mimeType=\"model/x-bin3d\" />\n"
              "    <!-- End of the generated lines -->\n</filter>\n");
}

TEST(DesktopFiles, CheckNoticesARowAddedOrRemoved) {
    const std::vector<DesktopType> table = syntheticTable();
    for (size_t i = 0; i < table.size(); ++i) {
        // Files written before a row was added, or after one was taken away.
        std::vector<DesktopType> fewer = table;
        fewer.erase(fewer.begin() + long(i));
        EXPECT_NE(mismatches(table, generate(fewer)), std::vector<std::string>{}) << "row " << i << " added";
        EXPECT_NE(mismatches(fewer, generate(table)), std::vector<std::string>{})
            << "row " << i << " removed";
    }
    // A changed extension or magic.
    std::vector<DesktopType> changed = table;
    changed[1].extensions.push_back("bn3");
    EXPECT_EQ(mismatches(changed, generate(table)).size(), 2u) << "the glob and the Android extension";
    changed = table;
    changed[2].magic = {"BOX?"};
    EXPECT_EQ(mismatches(changed, generate(table)),
              std::vector<std::string>{"application/x-box's magic is not the table's"});
}

TEST(DesktopFiles, MarkersMissing) {
    std::string text = "<filter>\n</filter>\n";
    EXPECT_FALSE(esv::updateAndroidManifest(text, syntheticTable()));
    EXPECT_EQ(text, "<filter>\n</filter>\n");
}

TEST(DesktopFiles, TypesAreTheTablesRows) {
    const std::vector<DesktopType> types = esv::desktopTypes();
    // One type per row, and one more for a row's text form (glTF's .gltf) with its own extensions.
    std::vector<std::vector<std::string>> extensions;
    for (const esv::FormatInfo& f : esv::formats()) {
        std::vector<std::string> binary;
        for (const std::string& e : f.extensions)
            if (std::find(f.textExtensions.begin(), f.textExtensions.end(), e) == f.textExtensions.end())
                binary.push_back(e);
        extensions.push_back(binary);
        if (!f.textExtensions.empty()) extensions.push_back(f.textExtensions);
    }
    const size_t formatTypes = extensions.size();
    for (const esv::ContainerInfo& c : esv::containers()) extensions.push_back(c.extensions);
    ASSERT_EQ(types.size(), extensions.size());
    std::set<std::string> mimeTypes;
    for (size_t i = 0; i < types.size(); ++i) {
        const bool container = i >= formatTypes;
        EXPECT_EQ(types[i].container, container);
        EXPECT_EQ(types[i].extensions, extensions[i]);
        EXPECT_TRUE(mimeTypes.insert(types[i].mime.type).second) << types[i].mime.type << " twice";
        EXPECT_NE(types[i].mime.comment, "") << types[i].mime.type;
        // A format known by its extension alone is text (JSON for glTF).
        if (types[i].magic.empty()) {
            EXPECT_TRUE(types[i].mime.subClassOf == "text/plain" || types[i].mime.subClassOf == "application/json")
                << types[i].mime.type;
        }
    }
    const esv::ContainerInfo& vp = esv::containers().at(0);
    EXPECT_EQ(vp.mime.type, "application/x-freespace-vp");
    EXPECT_EQ(vp.extensions, std::vector<std::string>{"vp"});
    EXPECT_EQ(vp.magic, std::vector<std::string>{"VPVP"});
}

// The files the build wrote and the Android app's files in the repository.
TEST(DesktopFiles, GeneratedFilesListEveryFormatAndOnlyThose) {
    const fs::path linuxDir = ESVIEW_DESKTOP_DIR;
    const fs::path android = esv::test::sourceDir() / "platforms/android/app/src/main";
    Files f;
    f.mimeXml = readFile(linuxDir / "esview-mime.xml");
    f.desktop = readFile(linuxDir / "esview.desktop.in");
    f.thumbnailer = readFile(linuxDir / "esview.thumbnailer.in");
    f.androidJava = readFile(android / "java/org/esview/viewer/ModelFormats.java");
    f.androidManifest = readFile(android / "AndroidManifest.xml");
    ASSERT_NE(f.mimeXml, "") << linuxDir / "esview-mime.xml";
    EXPECT_EQ(joined(mismatches(esv::desktopTypes(), f)), "");
    // The install step fills in the binary's path; the build leaves no other placeholder.
    for (const std::string* text : {&f.desktop, &f.thumbnailer}) {
        std::string rest = *text;
        for (size_t at = rest.find("@ESVIEW_BINARY@"); at != std::string::npos;
             at = rest.find("@ESVIEW_BINARY@"))
            rest.erase(at, 15);
        EXPECT_EQ(rest.find('@'), std::string::npos) << *text;
    }
}

TEST(DesktopFiles, AndroidFilesAreCurrent) {
    const fs::path android = esv::test::sourceDir() / "platforms/android/app/src/main";
    const std::vector<DesktopType> types = esv::desktopTypes();
    const char* const hint =
        "run `cmake --build build --target esview_update_android` after changing the table";
    EXPECT_EQ(readFile(android / "java/org/esview/viewer/ModelFormats.java"),
              esv::androidModelFormatsJava(types))
        << hint;
    std::string manifest = readFile(android / "AndroidManifest.xml");
    const std::string before = manifest;
    ASSERT_TRUE(esv::updateAndroidManifest(manifest, types));
    EXPECT_EQ(before, manifest) << hint;
}

}  // namespace
