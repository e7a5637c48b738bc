// The one table of the model formats esview reads. Detection, the dispatch to the readers, the
// "unknown file format" message, the file browser's filter, the models counted inside VP archives,
// the command line's help, the desktop integration (the MIME types, the .desktop and .thumbnailer
// files, the Android app's list: tools/desktop_files.cpp), the tests and the fuzz targets all read
// it; adding a format is a reader folder, a row in format_table.cpp and its sources in
// loaders/CMakeLists.txt (loaders/README.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace esv {

struct LoadOptions;
struct LoadResult;
struct Scene;

// Unknown is no format; every other value has exactly one row in formats().
enum class FileFormat : uint8_t { Unknown, Pod, OpenGex, Awd, Pof, Gltf, Count };

// A reader's entry point: the whole file as one shared buffer (the scene may keep views into it).
// Returns a scene or problems, never throws; the caller validates the scene.
using LoadFn = LoadResult (*)(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                              const LoadOptions& options);
// The same for bytes owned by anything (loadSceneFile passes a mapped file), for formats whose
// scene keeps no view into them. With `parsed` set, what the parse built is handed over there
// instead of being freed before the return.
using LoadViewFn = LoadResult (*)(std::shared_ptr<const void> owner, const uint8_t* data, size_t size,
                                  const std::string& path, const LoadOptions& options,
                                  std::shared_ptr<void>* parsed);
// A writer with its default options: `out` replaced by the file, or false with one sentence in
// `error` when the scene holds something the format cannot express. Lossless changes it made are
// appended to `notes` when given.
using WriteFn = bool (*)(const Scene& scene, std::vector<uint8_t>& out, std::string& error,
                         std::vector<std::string>* notes);

// How desktops name a file type: the row's part of shared-mime-info's package, whose type the
// .desktop and .thumbnailer files and the Android app list too. Globs and magic are not repeated
// here: they are the row's extensions and magic.
struct MimeInfo {
    std::string type;             // "model/x-pvr-pod"
    std::string comment;          // "PowerVR POD model": what a file manager calls such a file
    std::string acronym;          // "AWD"; empty: none
    std::string expandedAcronym;  // "Away3D Data"; empty with no acronym
    std::string subClassOf;       // "text/plain" for a text format; empty: none
    std::string genericIcon = "model-x-generic";
    // shared-mime-info's weight of the magic against other types' (0 to 100; 50 is its default).
    int magicPriority = 50;
};

// One row of the table: everything about a format that code outside its reader needs.
struct FormatInfo {
    FileFormat id = FileFormat::Unknown;
    std::string key;     // "pod": Scene::format, formatName(), the folder of its samples in ../shared/models
    std::string name;    // "POD": how messages and the file browser name it
    std::string title;   // "PowerVR POD": the first line of the command line's help
    std::string folder;  // "pod": reader in loaders/<folder>, tests in tests/<folder>, fuzz/<folder>
    std::vector<std::string> extensions;  // lower case, no dot; the first is the one a writer's file takes
    // A file is of this format when it starts with one of these byte strings, whatever its name.
    // None: a text format, recognised by its extension once no format's magic matched.
    std::vector<std::string> magic;
    LoadFn load = nullptr;
    LoadViewFn loadView = nullptr;  // null: loadSceneFile copies the file into a buffer for `load`
    WriteFn write = nullptr;        // null: no writer
    MimeInfo mime;
    // A text form of a binary format (glTF: .gltf beside .glb), with extensions of its own (also in
    // `extensions`): a file with one of them is this format when no magic matched and its first
    // byte other than white space (after a UTF-8 byte order mark) is `textLead`. The desktop files list it as `textMime`'s type.
    std::vector<std::string> textExtensions;
    char textLead = 0;
    MimeInfo textMime;
    // For a format whose scene keeps views into the file's bytes (glTF's buffers): loadSceneFile
    // reads the file into a buffer of its own that is never zero-filled first (not a mapping, which a
    // file changed on disk would change under the scene) and hands it here, `parsed` null. Null: the
    // file is read into a vector for `load`.
    LoadViewFn loadRead = nullptr;
};

struct ContainerRead;  // load.h
// Reads member `inner` ('/' separated; empty: a problem naming the models inside) of the
// container file at `file`.
using ReadMemberFn = ContainerRead (*)(const std::string& file, const std::string& inner);
// One sentence naming the models inside a container held in `bytes` (for "not a model" messages).
using DescribeModelsFn = std::string (*)(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& name);

// A file that holds models rather than being one (a FreeSpace VP archive). `file.ext:inner` names a
// member wherever a model path is accepted: loadSceneFile and readWholeFile read it through the
// row's readMember, so opening a file has one path whatever holds it. A desktop file type too: the
// thumbnailer draws its first model; the viewer browses it from its file browser.
struct ContainerInfo {
    std::string key;                      // "vp"
    std::string name;                     // "VP archive": how messages name it
    std::vector<std::string> extensions;  // lower case, no dot
    std::vector<std::string> magic;       // a file's first bytes, as FormatInfo::magic
    MimeInfo mime;
    ReadMemberFn readMember = nullptr;
    DescribeModelsFn describeModels = nullptr;
};

// `file.ext:inner` split at the first ':' whose left part is an existing regular file with a
// container's extension (any case); `inner` with '/' separators and no leading one. False, and
// `path` left alone, for anything else (plain paths, Windows drive letters, a missing container).
struct ContainerPath {
    const ContainerInfo* container = nullptr;
    std::string file;
    std::string inner;
};
bool splitContainerPath(const std::string& path, ContainerPath& out);
// The container row `path` is, when it is an existing regular file with a container's extension.
const ContainerInfo* containerFile(const std::string& path);
// The container whose magic `data` starts with; null when none.
const ContainerInfo* containerForMagic(const uint8_t* data, size_t size);

// Every format, in the order detection tries their magic and messages name them.
const std::vector<FormatInfo>& formats();

// Every container type, in the order the desktop files list them after the formats.
const std::vector<ContainerInfo>& containers();

// The row of `format`; null for Unknown.
const FormatInfo* findFormat(FileFormat format);

// The format one of whose extensions `path` ends with (any case: "dir/a.OGEX"); null when none.
// The extension is what follows the last dot of the last path component ('/' or '\' separated).
const FormatInfo* formatForExtension(const std::string& path);

// True when `path` ends with an extension of a format in the table (any case).
inline bool hasModelExtension(const std::string& path) {
    return formatForExtension(path) != nullptr;
}

// The row's key ("pod", "ogex", ...); "unknown" for Unknown.
const char* formatName(FileFormat format);

// The format whose magic the first bytes are, else a text format by the extension of `path`, else
// Unknown. Reads at most the longest magic's length of `data` (and, for a row's text form, its
// leading white space up to 4 KiB and the byte after it).
FileFormat detectFormat(const uint8_t* data, size_t size, const std::string& path);

// The formats' names in table order for a sentence, `last` before the final one:
// formatNameList(" or ") is "POD, OpenGEX, AWD, POF or glTF".
std::string formatNameList(const std::string& last);

}  // namespace esv
