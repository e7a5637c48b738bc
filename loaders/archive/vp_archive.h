// FreeSpace VP archives (Volition "pack" files): a 16-byte header, the files' data, and a
// directory of 44-byte entries that opens and closes folders around the files. Models and their
// textures live inside them; `archive.vp:data/models/x.pof` names a file inside one wherever a
// model path is accepted. No GL here: this reads bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loaders/load.h"

namespace esv {

// The header's first bytes and the extension of an archive's name (lower case, no dot); the VP row
// of containers() (format_table.cpp), which the desktop integration reads, is made of these.
constexpr char kVpMagic[] = "VPVP";
constexpr char kVpExtension[] = "vp";

// One file of an archive. A size-0 entry is a folder in the VP directory, so every file has data.
struct VpFile {
    std::string path;          // full inner path, '/' between folders, case as stored: "data/maps/x.pcx"
    uint32_t offset = 0;       // first byte of the data in the archive
    uint32_t size = 0;         // bytes
    int32_t timestamp = 0;     // unix time, as stored
    uint64_t entryOffset = 0;  // archive offset of its directory entry (for messages)
};

// A folder opened by the directory (each distinct path once, in the order first opened).
struct VpFolder {
    std::string path;  // "data/maps"
    uint64_t entryOffset = 0;
};

// Limits that bound what a header can make the reader do. Both are far above what real archives
// hold (the FreeSpace 2 MediaVPs have a few thousand files, three folder levels).
constexpr uint32_t kVpMaxEntries = 1u << 21;
constexpr uint32_t kVpMaxDepth = 32;

class VpArchive {
public:
    // Reads the header and the directory of the archive file at `path` (the file data stays on
    // disk; read() fetches one file). On failure returns null with at least one problem. A usable
    // archive comes back even when some entries are bad: those are left out and each is a
    // problem (also kept in problems()). With `collectAll` (check mode) overlapping file data is
    // looked for too. Every problem carries the byte offset of the field at fault.
    static std::shared_ptr<const VpArchive> open(const std::string& path, std::vector<Problem>& problems,
                                                 bool collectAll = false);
    // The same for an archive held in memory (tests, fuzzing); `name` is used in problems.
    static std::shared_ptr<const VpArchive> fromMemory(std::shared_ptr<const std::vector<uint8_t>> bytes,
                                                       const std::string& name,
                                                       std::vector<Problem>& problems,
                                                       bool collectAll = false);

    const std::string& path() const { return m_path; }
    int32_t version() const { return m_version; }
    uint64_t archiveSize() const { return m_size; }
    uint32_t entryCount() const { return m_entries; }  // directory entries read (files, folders, "..")
    // Readable files in directory order. Of two files with the same path (any case) the first is
    // kept, as FreeSpace uses the first it meets.
    const std::vector<VpFile>& files() const { return m_files; }
    const std::vector<VpFolder>& folders() const { return m_folders; }
    // What was wrong with the directory (empty for a clean archive).
    const std::vector<Problem>& problems() const { return m_problems; }

    // The file at `innerPath` ('/' or '\', any case, leading separators ignored), or null.
    const VpFile* find(const std::string& innerPath) const;
    // True when `innerPath` ("" = the root) is a folder of the archive.
    bool hasFolder(const std::string& innerPath) const;
    // The folder names and files directly inside `folder` ("" = the root), in directory order.
    void list(const std::string& folder, std::vector<std::string>& folders,
              std::vector<const VpFile*>& files) const;
    // A file's bytes as a shared buffer; null with `error` set when they cannot be read (the
    // archive changed or shrank on disk since it was opened).
    std::shared_ptr<const std::vector<uint8_t>> read(const VpFile& file, std::string& error) const;

private:
    friend class VpParser;
    std::string m_path;
    std::shared_ptr<const std::vector<uint8_t>> m_memory;  // set for fromMemory
    int32_t m_version = 0;
    uint64_t m_size = 0;
    uint32_t m_entries = 0;
    std::vector<VpFile> m_files;
    std::vector<VpFolder> m_folders;
    std::vector<std::string> m_fileKeys, m_folderKeys;  // lower-case paths, sorted, for lookup
    std::vector<uint32_t> m_fileOrder;                  // m_files index of each m_fileKeys entry
    std::vector<Problem> m_problems;
};

// `archive.vp:inner/path` split in two.
struct ArchivePath {
    std::string archive;  // as written: "ships/data.vp"
    std::string inner;    // '/' separators, no leading one: "data/models/x.pof"; empty = the archive
};

// True when `name` ends in ".vp" (any case).
bool isVpFileName(const std::string& name);
// True when `path` is an existing regular file whose name ends in ".vp".
bool isVpArchiveFile(const std::string& path);
// Splits `path` at the first ':' whose left part is an existing regular file ending in ".vp"
// (any case). Anything else (plain paths, Windows drive letters, a missing archive) returns
// false and leaves the path alone.
bool splitArchivePath(const std::string& path, ArchivePath& out);
// "archive:inner" (inner with '/' separators).
std::string joinArchivePath(const std::string& archive, const std::string& inner);
// The inner path in lookup form: '/' separators, no empty or leading components, lower case.
std::string vpLookupKey(const std::string& innerPath);

// VpArchive::open (load mode) through a small process-wide cache: an archive whose size and
// modification time have not changed is not read again. Thread-safe. Null when it cannot be
// opened, the reasons appended to `problems` when given. Problems of a usable archive are in
// its problems().
std::shared_ptr<const VpArchive> openVpArchiveCached(const std::string& path,
                                                     std::vector<Problem>* problems = nullptr);

// The VP row's entries of the container table (format_table.h): member `inner` of the archive
// file at `file` through openVpArchiveCached, and the models named for an archive held in memory.
ContainerRead readVpMember(const std::string& file, const std::string& inner);
std::string describeVpModels(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& name);

// A model file's name by extension (any of the format table's, any case), for listing an archive.
bool isModelInArchive(const std::string& innerPath);
// One sentence naming up to `limit` model files of `archive` as `archivePath:inner` paths, for
// messages that ask for one ("models in it: a.vp:data/models/x.pof, ..." or "it holds no model").
std::string describeArchiveModels(const VpArchive& archive, const std::string& archivePath, size_t limit = 4);

}  // namespace esv
