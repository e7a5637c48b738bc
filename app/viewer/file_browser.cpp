#include "app/viewer/file_browser.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "loaders/archive/vp_archive.h"
#include "loaders/format_table.h"

namespace esv {
namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

fs::path configDir() {
    if (const char* dir = std::getenv("ESVIEW_CONFIG_DIR"); dir && *dir) return dir;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return fs::path(xdg) / "esview";
    if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".config" / "esview";
    return {};
}

}  // namespace

bool isModelFileName(const std::string& name) {
    return hasModelExtension(name);
}

std::string modelExtensionsText() {
    std::string text;
    for (const FormatInfo& f : formats())
        for (const std::string& extension : f.extensions) text += "." + extension + ", ";
    return text + ".vp";
}

namespace {

bool entryOrder(const BrowserEntry& a, const BrowserEntry& b) {
    if (a.directory != b.directory) return a.directory;
    return lower(a.name) < lower(b.name);
}

}  // namespace

bool FileBrowser::isFolder(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec) || isVpArchiveFile(path)) return true;
    ArchivePath inside;
    if (!splitArchivePath(path, inside)) return false;
    const std::shared_ptr<const VpArchive> archive = openVpArchiveCached(inside.archive);
    return archive && archive->hasFolder(inside.inner);
}

std::string FileBrowser::folderOf(const std::string& file) {
    ArchivePath inside;
    if (splitArchivePath(file, inside)) {
        const size_t slash = inside.inner.rfind('/');
        return slash == std::string::npos ? inside.archive
                                          : joinArchivePath(inside.archive, inside.inner.substr(0, slash));
    }
    return fs::path(file).parent_path().string();
}

bool FileBrowser::listArchive(const std::string& archivePath, const std::string& folder) {
    std::error_code ec;
    const std::string absolute = fs::absolute(archivePath, ec).lexically_normal().string();
    if (ec) {
        m_error = archivePath + ": " + ec.message();
        return false;
    }
    std::vector<Problem> problems;
    const std::shared_ptr<const VpArchive> archive = openVpArchiveCached(absolute, &problems);
    if (!archive) {
        m_error = problems.empty() ? absolute + ": cannot read the archive" : problems.front().format();
        return false;
    }
    const std::string inner = vpLookupKey(folder).empty() ? std::string() : folder;
    if (!archive->hasFolder(inner)) {
        m_error = joinArchivePath(absolute, inner) + ": no such folder in the archive";
        return false;
    }
    std::vector<std::string> folders;
    std::vector<const VpFile*> files;
    archive->list(inner, folders, files);
    std::vector<BrowserEntry> entries;
    for (const std::string& name : folders) entries.push_back({name, true, false, 0});
    for (const VpFile* f : files) {
        const std::string name = f->path.substr(f->path.rfind('/') + 1);
        if (!showAll && !isModelFileName(name)) continue;
        entries.push_back({name, false, false, f->size});
    }
    std::sort(entries.begin(), entries.end(), entryOrder);
    m_archive = absolute;
    // The folder as the archive spells it (the listing's own paths), '/' separated.
    m_inner.clear();
    if (!inner.empty())
        for (const VpFolder& f : archive->folders())
            if (vpLookupKey(f.path) == vpLookupKey(inner)) m_inner = f.path;
    m_directory = m_inner.empty() ? m_archive : joinArchivePath(m_archive, m_inner);
    m_entries = std::move(entries);
    m_error.clear();
    return true;
}

bool FileBrowser::setDirectory(const std::string& directory) {
    ArchivePath inside;
    if (splitArchivePath(directory, inside)) return listArchive(inside.archive, inside.inner);
    if (isVpArchiveFile(directory)) return listArchive(directory, "");
    std::error_code ec;
    fs::path dir = fs::absolute(directory.empty() ? fs::path(".") : fs::path(directory), ec).lexically_normal();
    if (ec) {
        m_error = directory + ": " + ec.message();
        return false;
    }
    std::vector<BrowserEntry> entries;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        m_error = dir.string() + ": " + ec.message();
        return false;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) break;
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        std::error_code typeError;
        BrowserEntry e;
        e.name = name;
        e.directory = it->is_directory(typeError);
        if (!e.directory) {
            e.size = it->file_size(typeError);
            // A VP archive lists as a folder: entering it shows the folders and models inside.
            e.archive = isVpFileName(name) && it->is_regular_file(typeError);
            e.directory = e.archive;
            if (!e.archive && !showAll && !isModelFileName(name)) continue;
        }
        entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(), entryOrder);
    m_directory = dir.string();
    // Keep a trailing separator off, except for the root.
    while (m_directory.size() > 1 && m_directory.back() == '/') m_directory.pop_back();
    m_archive.clear();
    m_inner.clear();
    m_entries = std::move(entries);
    m_error.clear();
    return true;
}

void FileBrowser::up() {
    if (inArchive()) {
        if (m_inner.empty()) {
            const fs::path parent = fs::path(m_archive).parent_path();
            if (!parent.empty()) setDirectory(parent.string());
            return;
        }
        const size_t slash = m_inner.rfind('/');
        const std::string parent = slash == std::string::npos ? std::string() : m_inner.substr(0, slash);
        listArchive(m_archive, parent);
        return;
    }
    const fs::path parent = fs::path(m_directory).parent_path();
    if (!parent.empty()) setDirectory(parent.string());
}

std::string FileBrowser::pathOf(const BrowserEntry& entry) const {
    if (inArchive())
        return joinArchivePath(m_archive, m_inner.empty() ? entry.name : m_inner + "/" + entry.name);
    return (fs::path(m_directory) / entry.name).string();
}

std::string configFilePath(const std::string& name) {
    const fs::path dir = configDir();
    if (dir.empty()) return {};
    std::error_code ec;
    fs::create_directories(dir, ec);
    return ec ? std::string() : (dir / name).string();
}

namespace {

// The lines of <config>/name that are not empty, at most 64; none when there is no such file.
std::vector<std::string> readConfigLines(const char* name) {
    std::vector<std::string> lines;
    const fs::path dir = configDir();
    if (dir.empty()) return lines;
    std::ifstream in(dir / name);
    std::string line;
    while (lines.size() < 64 && std::getline(in, line))
        if (!line.empty()) lines.push_back(line);
    return lines;
}

// Replaces <config>/name with one line per entry.
void writeConfigLines(const char* name, const std::vector<std::string>& lines) {
    const fs::path dir = configDir();
    if (dir.empty()) return;
    std::error_code ec;
    fs::create_directories(dir, ec);
    std::ofstream out(dir / name, std::ios::trunc);
    for (const std::string& line : lines) out << line << "\n";
}

}  // namespace

std::vector<std::string> loadRecentFiles() { return readConfigLines("recent.txt"); }

void saveRecentFiles(const std::vector<std::string>& files) { writeConfigLines("recent.txt", files); }

std::vector<std::string> loadTextureFolders() { return readConfigLines("texture-folders.txt"); }

void saveTextureFolders(const std::vector<std::string>& folders) { writeConfigLines("texture-folders.txt", folders); }

bool loadLayout(SavedLayout& layout) {
    const fs::path dir = configDir();
    if (dir.empty()) return false;
    std::ifstream in(dir / "layout.txt");
    if (!in) return false;
    std::ostringstream text;
    text << in.rdbuf();
    parseLayout(text.str(), layout);
    return true;
}

void saveLayout(const SavedLayout& layout) {
    const fs::path dir = configDir();
    if (dir.empty()) return;
    std::error_code ec;
    fs::create_directories(dir, ec);
    std::ofstream(dir / "layout.txt", std::ios::trunc) << formatLayout(layout);
}

void addRecentFile(std::vector<std::string>& files, const std::string& path, size_t limit) {
    std::error_code ec;
    std::string absolute = path == "demo" ? path : fs::absolute(path, ec).lexically_normal().string();
    if (ec) absolute = path;
    ArchivePath inside;
    if (path != "demo" && splitArchivePath(path, inside)) {
        // Only the archive part is a path on disk; the inner one stays as written.
        absolute =
            joinArchivePath(fs::absolute(inside.archive, ec).lexically_normal().string(), inside.inner);
        if (ec) absolute = path;
    }
    files.erase(std::remove(files.begin(), files.end(), absolute), files.end());
    files.insert(files.begin(), absolute);
    if (files.size() > limit) files.resize(limit);
}

}  // namespace esv
