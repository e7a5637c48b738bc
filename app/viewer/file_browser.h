// The file browser's model: a folder listing filtered to the formats esview opens, and what is kept
// between runs in the configuration folder: recently opened files and the window layout. The ImGui drawing is in panels (drawBrowserPanel).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/viewer/layout.h"

namespace esv {

struct BrowserEntry {
    std::string name;
    bool directory = false;  // a folder, or a VP archive (entered like one)
    bool archive = false;    // a FreeSpace VP archive on disk
    uintmax_t size = 0;
};

class FileBrowser {
public:
    // Lists `directory` (made absolute); on failure keeps the old listing and sets error(). A VP
    // archive is a folder: `x/data.vp` lists its top folders, `x/data.vp:data/models` one inside.
    bool setDirectory(const std::string& directory);
    void refresh() { setDirectory(m_directory); }
    // The parent folder; from an archive's top level, the folder holding the archive.
    void up();
    const std::string& directory() const { return m_directory; }
    // Folders first (VP archives among them), then files, each sorted case-insensitively; hidden
    // entries (leading dot) left out. Files are the supported model formats unless showAll.
    const std::vector<BrowserEntry>& entries() const { return m_entries; }
    const std::string& error() const { return m_error; }
    // True while the listing is inside a VP archive.
    bool inArchive() const { return !m_archive.empty(); }
    // What opening or entering `entry` of this listing names: `dir/name` on disk,
    // `x/data.vp:data/models/name.pof` inside an archive.
    std::string pathOf(const BrowserEntry& entry) const;
    // True when `path` is something setDirectory lists: a folder, a VP archive, or a folder
    // inside one (`x/data.vp:data/maps`).
    static bool isFolder(const std::string& path);
    // The folder holding `file` (`x/data.vp:data/models` for `x/data.vp:data/models/a.pof`);
    // empty when it has none.
    static std::string folderOf(const std::string& file);

    bool showAll = false;
    std::string nameFilter;  // case-insensitive substring applied by the panel

private:
    bool listArchive(const std::string& archive, const std::string& folder);

    std::string m_directory;
    std::string m_archive;  // the archive listed (absolute), empty on disk
    std::string m_inner;    // the folder inside it ("" = its top level)
    std::vector<BrowserEntry> m_entries;
    std::string m_error;
};

// True for the extensions esview opens (any case): those of loaders/format_table.h.
bool isModelFileName(const std::string& name);

// What the browser lists and a drop opens, for messages: ".pod, .ogex, .oddl, .awd, .pof, .vp", the
// extensions of loaders/format_table.h in its order, then the VP archives the browser enters.
std::string modelExtensionsText();

// Recently opened files, most recent first, kept in <config>/recent.txt where <config> is
// $ESVIEW_CONFIG_DIR, else $XDG_CONFIG_HOME/esview, else ~/.config/esview.
std::vector<std::string> loadRecentFiles();
void saveRecentFiles(const std::vector<std::string>& files);
// The folders searched for textures after a model's own (the panel adds them), one per line in
// <config>/texture-folders.txt.
std::vector<std::string> loadTextureFolders();
void saveTextureFolders(const std::vector<std::string>& folders);
// The window layout (open panels, region sizes, selected tabs) in <config>/layout.txt: loadLayout
// overwrites what the file says (false when there is none), saveLayout replaces the file.
bool loadLayout(SavedLayout& layout);
void saveLayout(const SavedLayout& layout);
// <config>/name (see loadRecentFiles); empty when no configuration folder can be found. The folder
// is created.
std::string configFilePath(const std::string& name);
// Moves `path` (made absolute) to the front, keeping at most `limit` entries.
void addRecentFile(std::vector<std::string>& files, const std::string& path, size_t limit = 12);

}  // namespace esv
