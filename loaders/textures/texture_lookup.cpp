// Texture file lookup: model files name their images loosely (Windows paths, another case,
// another extension than the file shipped with, or none at all), so the name is matched against
// directory listings case-insensitively instead of stat-ing one exact path. FreeSpace models also
// find their textures inside VP archives (see README.md, "Lookup").
#include "loaders/textures/texture_lookup.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <system_error>

#include "loaders/archive/vp_archive.h"

namespace esv {

namespace fs = std::filesystem;

namespace {

// The extensions readImage reads, in the order they are tried after the name's own.
const char* const kExtensions[] = {".pvr", ".ktx",  ".ktx2", ".png", ".dds", ".tga", ".jpg",
                                   ".jpeg", ".bmp", ".gif",  ".psd", ".hdr", ".pcx"};
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

// One place a texture may be: a folder on disk or a folder inside a VP archive, with its files.
struct Place {
    std::string label;               // for `searched`: "dir/stem.*" or "a.vp:data/maps/stem.*"
    std::vector<Entry> entries;      // its files (directories left out)
    std::vector<std::string> paths;  // the path to return for each entry
};

// "a/b/../c" -> "a/c"; false when ".." climbs above the start.
bool normalizeInner(const std::string& path, std::string& out) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= path.size()) {
        size_t slash = path.find('/', start);
        if (slash == std::string::npos) slash = path.size();
        const std::string part = path.substr(start, slash - start);
        start = slash + 1;
        if (part.empty() || part == ".") continue;
        if (part == "..") {
            if (parts.empty()) return false;
            parts.pop_back();
            continue;
        }
        parts.push_back(part);
    }
    out.clear();
    for (const std::string& p : parts) out += (out.empty() ? "" : "/") + p;
    return true;
}

std::string parentInner(const std::string& inner) {
    const size_t slash = inner.rfind('/');
    return slash == std::string::npos ? std::string() : inner.substr(0, slash);
}

// The places a texture of a model is looked for, in order, each once.
class Places {
public:
    explicit Places(std::string stem) : m_stem(std::move(stem)) {}

    void addDirectory(const fs::path& d) {
        const fs::path normal = d.lexically_normal();
        const std::string key = "dir:" + normal.string();
        if (std::find(m_keys.begin(), m_keys.end(), key) != m_keys.end()) return;
        m_keys.push_back(key);
        Place p;
        p.label = (normal / (m_stem + ".*")).string();
        for (Entry& e : listDirectory(normal)) {
            if (e.isDirectory) continue;
            p.paths.push_back((normal / e.name).string());
            p.entries.push_back(std::move(e));
        }
        m_places.push_back(std::move(p));
    }

    // `folder` of the archive at `archivePath`; left out when the archive has no such folder.
    void addArchiveFolder(const std::string& archivePath, const VpArchive& archive,
                          const std::string& folder) {
        if (!archive.hasFolder(folder)) return;
        const std::string key =
            "vp:" + fs::path(archivePath).lexically_normal().string() + ":" + vpLookupKey(folder);
        if (std::find(m_keys.begin(), m_keys.end(), key) != m_keys.end()) return;
        m_keys.push_back(key);
        Place p;
        p.label = joinArchivePath(archivePath, (folder.empty() ? "" : folder + "/") + m_stem + ".*");
        std::vector<std::string> folders;
        std::vector<const VpFile*> files;
        archive.list(folder, folders, files);
        for (const VpFile* f : files) {
            p.entries.push_back({f->path.substr(f->path.rfind('/') + 1), false});
            p.paths.push_back(joinArchivePath(archivePath, f->path));
        }
        // Sorted like a directory listing, so ties resolve the same way everywhere.
        std::vector<size_t> order(p.entries.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return p.entries[a].name < p.entries[b].name; });
        Place sorted;
        sorted.label = p.label;
        for (size_t i : order) {
            sorted.entries.push_back(p.entries[i]);
            sorted.paths.push_back(p.paths[i]);
        }
        m_places.push_back(std::move(sorted));
    }

    // The FreeSpace textures folder (data/maps) of every .vp file in `dir`, in the order the game
    // reads them: by name, case-insensitively (fs2open sorts a folder's packs so; the first to
    // have a file wins). `skip` (a path of one of them) is left out.
    void addArchivesIn(const fs::path& dir, const std::string& skip = {}) {
        std::vector<std::string> names;
        for (const Entry& e : listDirectory(dir))
            if (!e.isDirectory && isVpFileName(e.name)) names.push_back(e.name);
        std::stable_sort(names.begin(), names.end(),
                         [](const std::string& a, const std::string& b) { return lower(a) < lower(b); });
        for (const std::string& name : names) {
            const std::string archivePath = (dir / name).lexically_normal().string();
            if (!skip.empty() && fs::path(skip).lexically_normal() == fs::path(archivePath)) continue;
            if (auto archive = openVpArchiveCached(archivePath))
                addArchiveFolder(archivePath, *archive, "data/maps");
        }
    }

    std::vector<Place>& places() { return m_places; }

private:
    std::string m_stem;
    std::vector<std::string> m_keys;
    std::vector<Place> m_places;
};

// The folder named `name` (any case) inside `dir`, when there is one.
bool subfolder(const fs::path& dir, const std::string& name, fs::path& out) {
    return followDirectories(dir, name, out);
}

// True when the last component of `dir` (made absolute) is `name`, any case.
bool namedLike(const fs::path& dir, const char* name) {
    std::error_code ec;
    const fs::path absolute = fs::absolute(dir, ec).lexically_normal();
    if (ec) return false;
    fs::path last = absolute.filename();
    if (last.empty()) last = absolute.parent_path().filename();
    return lower(last.string()) == name;
}

}  // namespace

const std::vector<std::string>& textureExtensions() {
    static const std::vector<std::string> extensions(std::begin(kExtensions), std::end(kExtensions));
    return extensions;
}

std::string resolveTexturePath(const std::string& modelPath, const std::string& name,
                               std::vector<std::string>* searched, const std::vector<std::string>& extraFolders) {
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

    Places places(stem);
    ArchivePath inArchive;
    if (splitArchivePath(modelPath, inArchive) && !inArchive.inner.empty()) {
        // A model inside a VP archive: first its own archive (the folder its name gives, FreeSpace's
        // data/maps, the model's own folder), then loose files beside the archive (the game reads
        // loose files before packs: data/maps, then the folder itself), then the other archives
        // beside it in the game's order.
        fs::path archiveDir = fs::path(inArchive.archive).parent_path();
        if (archiveDir.empty()) archiveDir = ".";
        if (auto own = openVpArchiveCached(inArchive.archive)) {
            const std::string modelFolder = parentInner(inArchive.inner);
            std::string relative;
            if (!dirPart.empty() && !absolute) {
                // A folder in the name: under the model's folder, or under data/maps.
                if (normalizeInner(modelFolder.empty() ? dirPart : modelFolder + "/" + dirPart, relative))
                    places.addArchiveFolder(inArchive.archive, *own, relative);
                if (normalizeInner("data/maps/" + dirPart, relative))
                    places.addArchiveFolder(inArchive.archive, *own, relative);
            }
            places.addArchiveFolder(inArchive.archive, *own, "data/maps");
            places.addArchiveFolder(inArchive.archive, *own, modelFolder);
        }
        fs::path maps;
        if (subfolder(archiveDir, "data/maps", maps)) places.addDirectory(maps);
        places.addDirectory(archiveDir);
        places.addArchivesIn(archiveDir, inArchive.archive);
    } else {
        fs::path modelDir = fs::path(modelPath).parent_path();
        if (modelDir.empty()) modelDir = ".";
        if (!dirPart.empty() && !absolute) {
            fs::path followed;
            if (followDirectories(modelDir, dirPart, followed)) places.addDirectory(followed);
        } else if (n[0] == '/' && !dirPart.empty()) {
            fs::path given = dirPart;
            if (fs::is_directory(given, ec)) places.addDirectory(given);
        }
        places.addDirectory(modelDir);
        const std::vector<Entry> modelEntries = listDirectory(modelDir);
        for (const char* sub : kSubfolders)
            if (const Entry* e = findEntry(modelEntries, sub, true)) places.addDirectory(modelDir / e->name);
        // FreeSpace's layout: models in data/models, textures in data/maps, packs (.vp) in the game
        // folder above data/ and in data/ itself. Loose files come before packs, as in the game;
        // the game folder's packs before data/'s (fs2open orders a root's packs by folder type).
        std::vector<fs::path> packFolders;
        if (namedLike(modelDir, "models")) {
            fs::path maps;
            if (followDirectories(modelDir, "../maps", maps)) places.addDirectory(maps);
            if (namedLike(modelDir / "..", "data")) {
                packFolders.push_back((modelDir / ".." / "..").lexically_normal());
                packFolders.push_back((modelDir / "..").lexically_normal());
            }
        } else if (namedLike(modelDir, "data")) {
            packFolders.push_back((modelDir / "..").lexically_normal());
        }
        packFolders.push_back(modelDir);
        for (const fs::path& d : packFolders) places.addArchivesIn(d);
    }

    // The user's folders come after everything the model's own place offers.
    for (const std::string& folder : extraFolders)
        if (!folder.empty() && fs::is_directory(folder, ec)) places.addDirectory(folder);

    // The name as written, then the same stem with every other extension (and bare).
    std::vector<std::string> candidates{base};
    for (const char* ext : kExtensions)
        if (ownExtension != ext) candidates.push_back(stem + ext);
    if (!ownExtension.empty()) candidates.push_back(stem);

    std::vector<Place>& list = places.places();
    if (searched)
        for (const Place& p : list) searched->push_back(p.label);
    // Pass 1: the name as written, in every place; pass 2: place by place, the substitutions.
    auto lookIn = [&](const Place& p, const std::string& candidate) -> const std::string* {
        const Entry* e = findEntry(p.entries, candidate, false);
        return e ? &p.paths[static_cast<size_t>(e - p.entries.data())] : nullptr;
    };
    for (const Place& p : list)
        if (const std::string* found = lookIn(p, candidates[0])) return *found;
    for (const Place& p : list)
        for (size_t c = 1; c < candidates.size(); ++c)
            if (const std::string* found = lookIn(p, candidates[c])) return *found;
    return {};
}

}  // namespace esv
