#include "app/file_browser.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>

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
    const std::string ext = lower(fs::path(name).extension().string());
    return ext == ".pod" || ext == ".ogex" || ext == ".awd" || ext == ".pof";
}

bool FileBrowser::setDirectory(const std::string& directory) {
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
            if (!showAll && !isModelFileName(name)) continue;
            e.size = it->file_size(typeError);
        }
        entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(), [](const BrowserEntry& a, const BrowserEntry& b) {
        if (a.directory != b.directory) return a.directory;
        return lower(a.name) < lower(b.name);
    });
    m_directory = dir.string();
    // Keep a trailing separator off, except for the root.
    while (m_directory.size() > 1 && m_directory.back() == '/') m_directory.pop_back();
    m_entries = std::move(entries);
    m_error.clear();
    return true;
}

void FileBrowser::up() {
    const fs::path parent = fs::path(m_directory).parent_path();
    if (!parent.empty()) setDirectory(parent.string());
}

std::string configFilePath(const std::string& name) {
    const fs::path dir = configDir();
    if (dir.empty()) return {};
    std::error_code ec;
    fs::create_directories(dir, ec);
    return ec ? std::string() : (dir / name).string();
}

std::vector<std::string> loadRecentFiles() {
    std::vector<std::string> files;
    const fs::path dir = configDir();
    if (dir.empty()) return files;
    std::ifstream in(dir / "recent.txt");
    std::string line;
    while (files.size() < 64 && std::getline(in, line))
        if (!line.empty()) files.push_back(line);
    return files;
}

void saveRecentFiles(const std::vector<std::string>& files) {
    const fs::path dir = configDir();
    if (dir.empty()) return;
    std::error_code ec;
    fs::create_directories(dir, ec);
    std::ofstream out(dir / "recent.txt", std::ios::trunc);
    for (const std::string& f : files) out << f << "\n";
}

void addRecentFile(std::vector<std::string>& files, const std::string& path, size_t limit) {
    std::error_code ec;
    std::string absolute = path == "demo" ? path : fs::absolute(path, ec).lexically_normal().string();
    if (ec) absolute = path;
    files.erase(std::remove(files.begin(), files.end(), absolute), files.end());
    files.insert(files.begin(), absolute);
    if (files.size() > limit) files.resize(limit);
}

}  // namespace esv
