// Texture file lookup: model files name their images loosely (Windows paths, another case,
// another extension than the file shipped with, or none at all), so the name is matched against
// directory listings case-insensitively instead of stat-ing one exact path.
#include "loaders/textures/texture_lookup.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace esv {

namespace fs = std::filesystem;

namespace {

// The extensions readImage reads, in the order they are tried after the name's own.
const char* const kExtensions[] = {".pvr", ".png", ".dds", ".tga", ".jpg", ".jpeg",
                                   ".bmp", ".gif", ".psd", ".hdr", ".pcx"};
// Folders next to the model where exporters and SDKs commonly put images.
const char* const kSubfolders[] = {"textures", "maps", "images", "tex"};

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool isKnownExtension(const std::string& ext) {
    return std::any_of(std::begin(kExtensions), std::end(kExtensions),
                       [&](const char* e) { return ext == e; });
}

struct Entry {
    std::string name;
    bool isDirectory = false;
};

// One directory's entries (empty when it cannot be listed), sorted so ties resolve the same way
// on every run.
std::vector<Entry> listDirectory(const fs::path& dir) {
    std::vector<Entry> entries;
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        std::error_code typeError;
        const bool isDir = it->is_directory(typeError);
        const bool isFile = it->is_regular_file(typeError);
        if (isDir || isFile) entries.push_back({it->path().filename().string(), isDir});
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
    return entries;
}

// The entry of `entries` named `name` in any case (an exact-case match wins), or null.
const Entry* findEntry(const std::vector<Entry>& entries, const std::string& name, bool wantDirectory) {
    const Entry* folded = nullptr;
    const std::string key = lower(name);
    for (const Entry& e : entries) {
        if (e.isDirectory != wantDirectory) continue;
        if (e.name == name) return &e;
        if (!folded && lower(e.name) == key) folded = &e;
    }
    return folded;
}

// Follows a relative directory path one component at a time, each matched case-insensitively.
// Returns false when a component does not exist.
bool followDirectories(fs::path dir, const std::string& relative, fs::path& out) {
    size_t start = 0;
    while (start <= relative.size()) {
        size_t slash = relative.find('/', start);
        if (slash == std::string::npos) slash = relative.size();
        const std::string part = relative.substr(start, slash - start);
        start = slash + 1;
        if (part.empty() || part == ".") continue;
        if (part == "..") {
            dir /= "..";
            continue;
        }
        const std::vector<Entry> entries = listDirectory(dir);
        const Entry* e = findEntry(entries, part, true);
        if (!e) return false;
        dir /= e->name;
    }
    out = dir;
    return true;
}

}  // namespace

std::string resolveTexturePath(const std::string& modelPath, const std::string& name,
                               std::vector<std::string>* searched) {
    std::string n = name;
    std::replace(n.begin(), n.end(), '\\', '/');
    const auto notSpace = [](char c) { return c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\0'; };
    n.erase(n.begin(), std::find_if(n.begin(), n.end(), notSpace));
    n.erase(std::find_if(n.rbegin(), n.rend(), notSpace).base(), n.end());
    if (n.empty()) return {};

    const size_t slash = n.rfind('/');
    const std::string base = slash == std::string::npos ? n : n.substr(slash + 1);
    const std::string dirPart = slash == std::string::npos ? std::string() : n.substr(0, slash);
    if (base.empty() || base == "." || base == "..") return {};
    const bool driveLetter = n.size() >= 2 && std::isalpha(static_cast<unsigned char>(n[0])) && n[1] == ':';
    const bool absolute = n[0] == '/' || driveLetter;

    // An absolute POSIX path that exists as given wins outright.
    std::error_code ec;
    if (n[0] == '/' && fs::is_regular_file(n, ec)) return n;

    std::string stem = base, ownExtension;
    const size_t dot = base.rfind('.');
    if (dot != std::string::npos && dot > 0 && isKnownExtension(lower(base.substr(dot)))) {
        stem = base.substr(0, dot);
        ownExtension = lower(base.substr(dot));
    }

    fs::path modelDir = fs::path(modelPath).parent_path();
    if (modelDir.empty()) modelDir = ".";
    std::vector<fs::path> dirs;
    auto addDir = [&](const fs::path& d) {
        const fs::path normal = d.lexically_normal();
        if (std::find(dirs.begin(), dirs.end(), normal) == dirs.end()) dirs.push_back(normal);
    };
    if (!dirPart.empty() && !absolute) {
        fs::path followed;
        if (followDirectories(modelDir, dirPart, followed)) addDir(followed);
    } else if (n[0] == '/' && !dirPart.empty()) {
        fs::path given = dirPart;
        if (fs::is_directory(given, ec)) addDir(given);
    }
    addDir(modelDir);
    const std::vector<Entry> modelEntries = listDirectory(modelDir);
    for (const char* sub : kSubfolders)
        if (const Entry* e = findEntry(modelEntries, sub, true)) addDir(modelDir / e->name);

    // The name as written, then the same stem with every other extension (and bare).
    std::vector<std::string> candidates{base};
    for (const char* ext : kExtensions)
        if (ownExtension != ext) candidates.push_back(stem + ext);
    if (!ownExtension.empty()) candidates.push_back(stem);

    if (searched)
        for (const fs::path& d : dirs) searched->push_back((d / (stem + ".*")).string());
    std::vector<std::vector<Entry>> listings;
    listings.reserve(dirs.size());
    for (const fs::path& d : dirs) listings.push_back(listDirectory(d));
    // Pass 1: the name as written, in every folder; pass 2: folder by folder, the substitutions.
    for (size_t d = 0; d < dirs.size(); ++d)
        if (const Entry* e = findEntry(listings[d], candidates[0], false))
            return (dirs[d] / e->name).string();
    for (size_t d = 0; d < dirs.size(); ++d)
        for (size_t c = 1; c < candidates.size(); ++c)
            if (const Entry* e = findEntry(listings[d], candidates[c], false))
                return (dirs[d] / e->name).string();
    return {};
}

}  // namespace esv
