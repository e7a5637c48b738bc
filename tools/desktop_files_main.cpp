// esview_desktop_files: writes the desktop integration's files from the format table
// (desktop_files.h).
//   esview_desktop_files linux SOURCE_DIR OUT_DIR
//     OUT_DIR/esview-mime.xml, and OUT_DIR/esview.desktop.in and esview.thumbnailer.in from the
//     templates of the same names in SOURCE_DIR (platforms/linux), whose @ESVIEW_BINARY@ the
//     install step fills in. The build runs this.
//   esview_desktop_files android APP_MAIN_DIR
//     APP_MAIN_DIR/java/org/esview/viewer/ModelFormats.java and the generated lines of
//     APP_MAIN_DIR/AndroidManifest.xml, in place (Gradle builds the app without this build, so the
//     files are kept in the repository; the target esview_update_android runs this).
// Exits 1 with a message on stderr when a file cannot be read or written, 2 on a wrong command line.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "tools/desktop_files.h"

namespace {

bool readText(const std::string& path, std::string& text) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "esview_desktop_files: cannot read %s\n", path.c_str());
        return false;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
    return true;
}

// Writes `text` to `path`. With `keepSame`, a file that already holds it is left alone (a file of
// the repository keeps its time); build outputs are always written, so that they are newer than
// what they were made from.
bool writeText(const std::string& path, const std::string& text, bool keepSame = false) {
    std::ifstream in(path, std::ios::binary);
    if (keepSame && in) {
        std::ostringstream buffer;
        buffer << in.rdbuf();
        if (buffer.str() == text) return true;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
        std::fprintf(stderr, "esview_desktop_files: cannot write %s\n", path.c_str());
        return false;
    }
    return true;
}

bool writeLinux(const std::string& sourceDir, const std::string& outDir) {
    const std::vector<esv::DesktopType> types = esv::desktopTypes();
    if (!writeText(outDir + "/esview-mime.xml", esv::mimePackageXml(types))) return false;
    // The viewer opens models; the thumbnailer draws a container's first model too.
    for (const auto& [name, withContainers] : {std::pair<const char*, bool>{"esview.desktop.in", false},
                                               std::pair<const char*, bool>{"esview.thumbnailer.in", true}}) {
        std::string text;
        if (!readText(sourceDir + "/" + name, text)) return false;
        if (!writeText(outDir + "/" + name, esv::fillDesktopTemplate(text, types, withContainers)))
            return false;
    }
    return true;
}

bool writeAndroid(const std::string& mainDir) {
    const std::vector<esv::DesktopType> types = esv::desktopTypes();
    if (!writeText(mainDir + "/java/org/esview/viewer/ModelFormats.java", esv::androidModelFormatsJava(types),
                   true))
        return false;
    const std::string manifest = mainDir + "/AndroidManifest.xml";
    std::string text;
    if (!readText(manifest, text)) return false;
    if (!esv::updateAndroidManifest(text, types)) {
        std::fprintf(stderr, "esview_desktop_files: %s has no generated lines between '%s' and '%s'\n",
                     manifest.c_str(), esv::kAndroidBeginMarker, esv::kAndroidEndMarker);
        return false;
    }
    return writeText(manifest, text, true);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "linux" && argc == 4) return writeLinux(argv[2], argv[3]) ? 0 : 1;
    if (mode == "android" && argc == 3) return writeAndroid(argv[2]) ? 0 : 1;
    std::fprintf(stderr,
                 "usage: esview_desktop_files linux SOURCE_DIR OUT_DIR\n"
                 "       esview_desktop_files android APP_MAIN_DIR\n");
    return 2;
}
