#include "loaders/format_table.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include <sys/stat.h>

#include "loaders/archive/vp_archive.h"
#include "loaders/formats.h"
#include "loaders/pod/pod_writer.h"

namespace esv {
namespace {

using namespace std::string_literals;

bool writePodDefault(const Scene& scene, std::vector<uint8_t>& out, std::string& error,
                     std::vector<std::string>* notes) {
    return writePod(scene, PodWriteOptions{}, out, error, notes);
}

std::string lowerExtension(const std::string& path) {
    const size_t slash = path.find_last_of("/\\");
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

}  // namespace

const std::vector<FormatInfo>& formats() {
    // clang-format off
    static const std::vector<FormatInfo> kFormats = {
        // POD: the version block 1000 comes first (little-endian, or byte-swapped in big-endian files).
        // Perl's documentation also ends in .pod: the magic's priority puts these bytes before that
        // type's glob.
        {FileFormat::Pod, "pod", "POD", "PowerVR POD", "pod", {"pod"},
         {"\xE8\x03\0\0"s, "\0\0\x03\xE8"s}, loadPod, nullptr, writePodDefault,
         {"model/x-pvr-pod", "PowerVR POD model", "", "", "", "model-x-generic", 60}, {}, 0, {}},
        // OpenGEX is OpenDDL text, which has no magic: known by its extension.
        {FileFormat::OpenGex, "ogex", "OpenGEX", "OpenGEX", "opengex", {"ogex", "oddl"},
         {}, loadOpenGex, loadOpenGex, nullptr,
         {"model/x-opengex", "OpenGEX model", "OpenGEX", "Open Game Engine Exchange", "text/plain",
          "model-x-generic", 50}, {}, 0, {}},
        {FileFormat::Awd, "awd", "AWD", "AWD", "awd", {"awd"},
         {"AWD"s}, loadAwd, nullptr, nullptr,
         {"model/x-awd", "Away3D AWD model", "AWD", "Away3D Data", "", "model-x-generic", 50}, {}, 0, {}},
        {FileFormat::Pof, "pof", "POF", "POF", "pof", {"pof"},
         {"PSPO"s}, loadPof, nullptr, nullptr,
         {"model/x-freespace-pof", "FreeSpace POF model", "POF", "Parallax Object Format", "",
          "model-x-generic", 60}, {}, 0, {}},
        // glTF 2.0: a .glb starts with its magic; a .gltf is JSON, known by its extension and a '{'.
        // esview writes both through convert/ (app/cli/convert_command.cpp), not through this table.
        {FileFormat::Gltf, "gltf", "glTF", "glTF 2.0", "gltf", {"glb", "gltf"},
         {"glTF"s}, loadGltf, nullptr, nullptr,
         {"model/gltf-binary", "glTF binary model", "glTF", "GL Transmission Format", "", "model-x-generic", 60},
         {"gltf"}, '{',
         {"model/gltf+json", "glTF model", "glTF", "GL Transmission Format", "application/json", "model-x-generic", 50},
         loadGltfRead},
    };
    // clang-format on
    return kFormats;
}

const std::vector<ContainerInfo>& containers() {
    // clang-format off
    static const std::vector<ContainerInfo> kContainers = {
        {"vp", "VP archive", {kVpExtension}, {kVpMagic},
         {"application/x-freespace-vp", "FreeSpace VP archive", "", "", "", "package-x-generic", 60},
         readVpMember, describeVpModels},
    };
    // clang-format on
    return kContainers;
}

const ContainerInfo* containerFile(const std::string& path) {
    const std::string ext = lowerExtension(path);
    if (ext.empty()) return nullptr;
    for (const ContainerInfo& c : containers()) {
        if (std::find(c.extensions.begin(), c.extensions.end(), ext) == c.extensions.end()) continue;
        struct stat info {};
        return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) ? &c : nullptr;
    }
    return nullptr;
}

bool splitContainerPath(const std::string& path, ContainerPath& out) {
    for (size_t colon = path.find(':'); colon != std::string::npos; colon = path.find(':', colon + 1)) {
        const std::string file = path.substr(0, colon);
        const ContainerInfo* container = containerFile(file);
        if (!container) continue;
        std::string inner = path.substr(colon + 1);
        std::replace(inner.begin(), inner.end(), '\\', '/');
        inner.erase(0, inner.find_first_not_of('/'));
        out = {container, file, inner};
        return true;
    }
    return false;
}

const ContainerInfo* containerForMagic(const uint8_t* data, size_t size) {
    for (const ContainerInfo& c : containers())
        for (const std::string& m : c.magic)
            if (size >= m.size() && std::memcmp(data, m.data(), m.size()) == 0) return &c;
    return nullptr;
}

const FormatInfo* findFormat(FileFormat format) {
    for (const FormatInfo& f : formats())
        if (f.id == format) return &f;
    return nullptr;
}

const FormatInfo* formatForExtension(const std::string& path) {
    const std::string ext = lowerExtension(path);
    if (ext.empty()) return nullptr;
    for (const FormatInfo& f : formats())
        if (std::find(f.extensions.begin(), f.extensions.end(), ext) != f.extensions.end()) return &f;
    return nullptr;
}

const char* formatName(FileFormat format) {
    const FormatInfo* f = findFormat(format);
    return f ? f->key.c_str() : "unknown";
}

FileFormat detectFormat(const uint8_t* data, size_t size, const std::string& path) {
    for (const FormatInfo& f : formats())
        for (const std::string& m : f.magic)
            if (size >= m.size() && std::memcmp(data, m.data(), m.size()) == 0) return f.id;
    const FormatInfo* byName = formatForExtension(path);
    if (!byName) return FileFormat::Unknown;
    if (byName->magic.empty()) return byName->id;
    const std::string ext = lowerExtension(path);
    if (byName->textLead == 0 ||
        std::find(byName->textExtensions.begin(), byName->textExtensions.end(), ext) == byName->textExtensions.end())
        return FileFormat::Unknown;
    size_t i = size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF ? 3 : 0;  // a UTF-8 mark
    while (i < size && i < 4096 && std::isspace(static_cast<unsigned char>(data[i]))) ++i;
    return i < size && data[i] == uint8_t(byName->textLead) ? byName->id : FileFormat::Unknown;
}

std::string formatNameList(const std::string& last) {
    const std::vector<FormatInfo>& all = formats();
    std::string list;
    for (size_t i = 0; i < all.size(); ++i) {
        if (i > 0) list += i + 1 == all.size() ? last : ", ";
        list += all[i].name;
    }
    return list;
}

}  // namespace esv
