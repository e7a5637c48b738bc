// VP archive reader: the header and directory are read through the bounds-checked reader, every
// size is checked against the archive's real size (in 64 bits) before anything is allocated, and
// each bad entry becomes one problem with the byte offset of the field at fault. The directory
// is a flat list walked once, so there is nothing that could loop; folder nesting is capped.
#include "loaders/archive/vp_archive.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <new>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loaders/byte_reader.h"
#include "loaders/format_table.h"

namespace esv {

namespace {

constexpr size_t kHeaderSize = 16;
constexpr size_t kEntrySize = 44;  // int32 offset, int32 size, char name[32], int32 timestamp
constexpr size_t kNameSize = 32;
constexpr size_t kMaxProblems = 200;

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string hex(uint64_t v) { return hexNumber(v); }

std::string num(uint64_t v) { return std::to_string(v); }

// A name as it can be printed: control and non-ASCII bytes as \xNN.
std::string printable(const std::string& s) {
    return printableBytes(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// Reads `n` bytes at `offset` of an open file descriptor; false on a short read or an error.
bool readAt(int fd, uint64_t offset, size_t n, uint8_t* out, std::string& error) {
    size_t done = 0;
    while (done < n) {
        const ssize_t got = ::pread(fd, out + done, n - done, static_cast<off_t>(offset + done));
        if (got < 0) {
            if (errno == EINTR) continue;
            error = std::strerror(errno);
            return false;
        }
        if (got == 0) {
            error = "the archive ends " + num(n - done) + " bytes early (it changed on disk?)";
            return false;
        }
        done += static_cast<size_t>(got);
    }
    return true;
}

}  // namespace

// Walks the header and the directory and fills a VpArchive. `fetch` reads a byte range of the
// archive (the directory) into a buffer; it is only asked for ranges inside the archive's size.
class VpParser {
public:
    using Fetch =
        std::function<bool(uint64_t offset, size_t size, std::vector<uint8_t>& out, std::string& error)>;

    VpParser(VpArchive& archive, std::vector<Problem>& problems, bool collectAll)
        : m_a(archive), m_out(problems), m_collectAll(collectAll) {}

    // False when the archive cannot be used at all (the problems say why).
    bool parse(const uint8_t* header, size_t headerSize, uint64_t size, const Fetch& fetch);

private:
    struct Open {
        uint64_t entryOffset;
        size_t pathLength;  // length of m_path before this folder was added
        bool usable;
    };

    void problem(uint64_t offset, const std::string& where, const std::string& message) {
        ++m_count;
        if (m_count > kMaxProblems + 1) return;
        Problem p{m_a.m_path, -1, 0, 0, "", "further problems are not listed"};
        if (m_count <= kMaxProblems)
            p = Problem{m_a.m_path, static_cast<int64_t>(offset), 0, 0, where, message};
        m_out.push_back(p);
        m_a.m_problems.push_back(std::move(p));
    }
    bool fatal(uint64_t offset, const std::string& where, const std::string& message) {
        problem(offset, where, message);
        return false;
    }
    void entry(ByteReader& r, uint32_t index);
    void finish();

    VpArchive& m_a;
    std::vector<Problem>& m_out;
    bool m_collectAll;
    size_t m_count = 0;
    uint64_t m_dirBegin = 0, m_dirEnd = 0;
    std::vector<Open> m_open;
    uint32_t m_unusable = 0;                      // folders on the stack whose files are skipped
    std::string m_path;                           // current folder path ("" = the root)
    std::map<std::string, uint32_t> m_fileIndex;  // lower-case path -> m_files index
    std::map<std::string, size_t> m_folderIndex;  // lower-case path -> m_folders index
};

bool VpParser::parse(const uint8_t* header, size_t headerSize, uint64_t size, const Fetch& fetch) {
    m_a.m_size = size;
    if (size < kHeaderSize || headerSize < kHeaderSize)
        return fatal(0, "header",
                     "the archive is " + num(size) + " bytes, too short for the " + num(kHeaderSize) +
                         "-byte VP header");
    ByteReader h(header, kHeaderSize);
    char magic[4];
    h.bytes(magic, 4);
    if (std::memcmp(magic, kVpMagic, 4) != 0)
        return fatal(0, "header",
                     "not a VP archive: it begins with '" + printable(std::string(magic, 4)) + "', not '" +
                         kVpMagic + "'");
    const int32_t version = h.i32();
    const int32_t dirOffset = h.i32();
    const int32_t count = h.i32();
    m_a.m_version = version;
    if (version != 2)
        problem(4, "header",
                "version " + std::to_string(version) + "; VP archives are version 2 (read as 2)");
    if (dirOffset < 0 || static_cast<uint64_t>(dirOffset) > size)
        return fatal(8, "header",
                     "directory offset " + std::to_string(dirOffset) + " is outside the archive (" +
                         num(size) + " bytes)");
    if (count < 0) return fatal(12, "header", "entry count " + std::to_string(count) + " is negative");
    if (count > 0 && static_cast<uint64_t>(dirOffset) < kHeaderSize)
        problem(8, "header",
                "directory offset " + std::to_string(dirOffset) + " lies inside the 16-byte header");

    // What the directory can hold is what the archive has after the directory offset: a count
    // beyond it is never allocated.
    const uint64_t room = size - static_cast<uint64_t>(dirOffset);
    uint64_t entries = static_cast<uint64_t>(count);
    if (entries > room / kEntrySize) {
        problem(12, "header",
                num(entries) + " directory entries (" + num(entries * kEntrySize) +
                    " bytes) do not fit in the " + num(room) + " bytes from the directory offset " +
                    hex(uint64_t(dirOffset)) + " to the end; the " + num(room / kEntrySize) +
                    " that fit are read");
        entries = room / kEntrySize;
    }
    if (entries > kVpMaxEntries) {
        problem(12, "header",
                num(entries) + " directory entries are more than esview reads; the first " +
                    num(kVpMaxEntries) + " are read");
        entries = kVpMaxEntries;
    }
    m_dirBegin = static_cast<uint64_t>(dirOffset);
    m_dirEnd = m_dirBegin + entries * kEntrySize;
    std::vector<uint8_t> directory;
    std::string error;
    if (entries > 0 && !fetch(m_dirBegin, static_cast<size_t>(entries * kEntrySize), directory, error))
        return fatal(m_dirBegin, "directory", "cannot read the directory: " + error);

    ByteReader r(directory.data(), directory.size(), static_cast<size_t>(m_dirBegin));
    const uint32_t n = static_cast<uint32_t>(entries);
    m_a.m_entries = n;
    for (uint32_t i = 0; i < n; ++i) entry(r, i);
    finish();
    return true;
}

void VpParser::entry(ByteReader& r, uint32_t index) {
    const uint64_t at = r.offset();
    const int32_t offset = r.i32();
    const int32_t size = r.i32();
    char raw[kNameSize];
    r.bytes(raw, kNameSize);
    const int32_t timestamp = r.i32();
    if (!r.ok()) return;  // cannot happen: the directory holds whole entries

    const size_t length = strnlen(raw, kNameSize);
    std::string name(raw, length);
    const std::string label = "directory entry " + num(index);
    if (length == kNameSize) {
        // FreeSpace reads the first 31 characters (it puts a NUL in the last byte).
        name.resize(kNameSize - 1);
        problem(at + 8, label,
                "the name '" + printable(name) +
                    "...' has no NUL in its 32 bytes; read as its first 31 characters");
    }
    const std::string where = label + " '" + printable(name) + "'";
    const bool separator = name.find_first_of("/\\") != std::string::npos;

    if (size == 0) {
        // A folder: ".." closes the current one, any other name opens one inside it.
        if (lower(name) == "..") {
            if (m_open.empty()) {
                problem(at + 8, where, "'..' closes a folder, but no folder is open; ignored");
                return;
            }
            const Open& o = m_open.back();
            if (!o.usable) --m_unusable;
            m_path.resize(o.pathLength);
            m_open.pop_back();
            return;
        }
        Open o{at, m_path.size(), true};
        if (m_unusable > 0) {
            o.usable = false;  // inside a folder already reported
        } else if (name.empty() || name == "." || separator) {
            o.usable = false;
            problem(at + 8, where,
                    std::string(name.empty() ? "a folder without a name"
                                             : "the folder name is not one path component") +
                        "; the files inside it are skipped");
        } else if (m_open.size() >= kVpMaxDepth) {
            o.usable = false;
            problem(at + 8, where,
                    "folders nest more than " + num(kVpMaxDepth) +
                        " levels deep here; the files inside are skipped");
        }
        if (!o.usable) {
            ++m_unusable;
            m_open.push_back(o);
            return;
        }
        if (!m_path.empty()) m_path += '/';
        m_path += name;
        m_open.push_back(o);
        const std::string key = lower(m_path);
        if (m_folderIndex.emplace(key, m_a.m_folders.size()).second) {
            m_a.m_folders.push_back({m_path, at});
            const auto file = m_fileIndex.find(key);
            if (file != m_fileIndex.end())
                problem(at + 8, where,
                        "folder '" + printable(m_path) + "' has the path of the file at entry offset " +
                            hex(m_a.m_files[file->second].entryOffset));
        }
        return;
    }

    // A file.
    if (m_unusable > 0) return;  // its folder was reported
    if (size < 0) {
        problem(at + 4, where, "size " + std::to_string(size) + " is negative; the file is skipped");
        return;
    }
    if (offset < 0) {
        problem(at, where, "data offset " + std::to_string(offset) + " is negative; the file is skipped");
        return;
    }
    if (name.empty() || name == "." || name == ".." || separator) {
        problem(
            at + 8, where,
            std::string(name.empty() ? "a file without a name" : "the file name is not one path component") +
                "; the file is skipped");
        return;
    }
    const uint64_t begin = static_cast<uint64_t>(offset), end = begin + static_cast<uint64_t>(size);
    if (end > m_a.m_size) {
        problem(at, where,
                "data at " + hex(begin) + ", " + num(uint64_t(size)) +
                    " bytes, runs past the end of the archive (" + num(m_a.m_size) +
                    " bytes); the file is skipped");
        return;
    }
    if (begin < kHeaderSize)
        problem(at, where, "data at " + hex(begin) + " overlaps the 16-byte header");
    else if (begin < m_dirEnd && end > m_dirBegin)
        problem(at, where,
                "data at " + hex(begin) + ".." + hex(end) + " overlaps the directory (" + hex(m_dirBegin) +
                    ".." + hex(m_dirEnd) + ")");
    const std::string path = m_path.empty() ? name : m_path + "/" + name;
    const std::string key = lower(path);
    const auto seen = m_fileIndex.find(key);
    if (seen != m_fileIndex.end()) {
        problem(at + 8, where,
                "'" + printable(path) + "' is already the file at entry offset " +
                    hex(m_a.m_files[seen->second].entryOffset) + "; the first is used, as FreeSpace does");
        return;
    }
    if (m_folderIndex.count(key))
        problem(at + 8, where, "file '" + printable(path) + "' has the path of a folder");
    m_fileIndex.emplace(key, static_cast<uint32_t>(m_a.m_files.size()));
    m_a.m_files.push_back({path, static_cast<uint32_t>(offset), static_cast<uint32_t>(size), timestamp, at});
}

void VpParser::finish() {
    if (!m_open.empty()) {
        const Open& outer = m_open.front();
        std::string name;
        for (const VpFolder& f : m_a.m_folders)
            if (f.entryOffset == outer.entryOffset) name = " '" + printable(f.path) + "'";
        problem(outer.entryOffset + 8, "directory",
                num(m_open.size()) + " folder" + (m_open.size() == 1 ? " is" : "s are") +
                    " still open at the end of the directory (no '..'), the outermost" + name +
                    " opened here; its files are kept");
    }
    if (m_collectAll) {
        // Overlapping data: files sorted by offset, each compared with the furthest end so far.
        std::vector<const VpFile*> byOffset;
        byOffset.reserve(m_a.m_files.size());
        for (const VpFile& f : m_a.m_files) byOffset.push_back(&f);
        std::sort(byOffset.begin(), byOffset.end(), [](const VpFile* a, const VpFile* b) {
            return a->offset != b->offset ? a->offset < b->offset : a->entryOffset < b->entryOffset;
        });
        const VpFile* furthest = nullptr;
        for (const VpFile* f : byOffset) {
            if (furthest && f->offset < uint64_t(furthest->offset) + furthest->size)
                problem(f->entryOffset, "directory entry '" + printable(f->path) + "'",
                        "data at " + hex(f->offset) + " overlaps the data of '" + printable(furthest->path) +
                            "' (" + hex(furthest->offset) + ".." +
                            hex(uint64_t(furthest->offset) + furthest->size) + ")");
            if (!furthest || uint64_t(f->offset) + f->size > uint64_t(furthest->offset) + furthest->size)
                furthest = f;
        }
    }
    for (const auto& [key, index] : m_fileIndex) {
        m_a.m_fileKeys.push_back(key);
        m_a.m_fileOrder.push_back(index);
    }
    for (const auto& entry : m_folderIndex) m_a.m_folderKeys.push_back(entry.first);
}

// ---------------------------------------------------------------------------------------------

std::shared_ptr<const VpArchive> VpArchive::open(const std::string& path, std::vector<Problem>& problems,
                                                 bool collectAll) {
    auto archive = std::make_shared<VpArchive>();
    archive->m_path = path;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        problems.push_back(
            {path, -1, 0, 0, "", std::string("cannot open the archive: ") + std::strerror(errno)});
        return nullptr;
    }
    struct stat info {};
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        problems.push_back(
            {path, -1, 0, 0, "", S_ISDIR(info.st_mode) ? "it is a directory" : "not a regular file"});
        ::close(fd);
        return nullptr;
    }
    const uint64_t size = static_cast<uint64_t>(info.st_size);
    uint8_t header[kHeaderSize] = {};
    std::string error;
    const size_t headerSize = size < kHeaderSize ? static_cast<size_t>(size) : kHeaderSize;
    if (!readAt(fd, 0, headerSize, header, error)) {
        problems.push_back({path, 0, 0, 0, "header", "cannot read the header: " + error});
        ::close(fd);
        return nullptr;
    }
    VpParser parser(*archive, problems, collectAll);
    const bool ok =
        parser.parse(header, headerSize, size,
                     [fd](uint64_t offset, size_t n, std::vector<uint8_t>& out, std::string& why) {
                         try {
                             out.resize(n);
                         } catch (const std::bad_alloc&) {
                             why = "out of memory";
                             return false;
                         }
                         return readAt(fd, offset, n, out.data(), why);
                     });
    ::close(fd);
    return ok ? archive : nullptr;
}

std::shared_ptr<const VpArchive> VpArchive::fromMemory(std::shared_ptr<const std::vector<uint8_t>> bytes,
                                                       const std::string& name,
                                                       std::vector<Problem>& problems, bool collectAll) {
    auto archive = std::make_shared<VpArchive>();
    archive->m_path = name;
    archive->m_memory = bytes;
    const std::vector<uint8_t>& data = *bytes;
    VpParser parser(*archive, problems, collectAll);
    const bool ok = parser.parse(data.data(), data.size(), data.size(),
                                 [&data](uint64_t offset, size_t n, std::vector<uint8_t>& out, std::string&) {
                                     out.assign(data.begin() + static_cast<ptrdiff_t>(offset),
                                                data.begin() + static_cast<ptrdiff_t>(offset + n));
                                     return true;
                                 });
    return ok ? archive : nullptr;
}

const VpFile* VpArchive::find(const std::string& innerPath) const {
    const std::string key = vpLookupKey(innerPath);
    const auto it = std::lower_bound(m_fileKeys.begin(), m_fileKeys.end(), key);
    if (it == m_fileKeys.end() || *it != key) return nullptr;
    return &m_files[m_fileOrder[static_cast<size_t>(it - m_fileKeys.begin())]];
}

bool VpArchive::hasFolder(const std::string& innerPath) const {
    const std::string key = vpLookupKey(innerPath);
    return key.empty() || std::binary_search(m_folderKeys.begin(), m_folderKeys.end(), key);
}

void VpArchive::list(const std::string& folder, std::vector<std::string>& folders,
                     std::vector<const VpFile*>& files) const {
    folders.clear();
    files.clear();
    const std::string key = vpLookupKey(folder);
    const std::string prefix = key.empty() ? key : key + "/";
    auto directlyInside = [&](const std::string& path, std::string& rest) {
        const std::string lowered = lower(path);
        if (lowered.size() <= prefix.size() || lowered.compare(0, prefix.size(), prefix) != 0) return false;
        rest = path.substr(prefix.size());
        return rest.find('/') == std::string::npos;
    };
    std::string rest;
    for (const VpFolder& f : m_folders)
        if (directlyInside(f.path, rest)) folders.push_back(rest);
    for (const VpFile& f : m_files)
        if (directlyInside(f.path, rest)) files.push_back(&f);
}

std::shared_ptr<const std::vector<uint8_t>> VpArchive::read(const VpFile& file, std::string& error) const {
    const uint64_t end = uint64_t(file.offset) + file.size;
    if (m_memory) {
        if (end > m_memory->size()) {
            error = "the file's data lies outside the archive";
            return nullptr;
        }
        try {
            return std::make_shared<const std::vector<uint8_t>>(
                m_memory->begin() + file.offset, m_memory->begin() + static_cast<ptrdiff_t>(end));
        } catch (const std::bad_alloc&) {
            error = "out of memory";
            return nullptr;
        }
    }
    const int fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = std::string("cannot open the archive: ") + std::strerror(errno);
        return nullptr;
    }
    std::shared_ptr<std::vector<uint8_t>> bytes;
    try {
        bytes = std::make_shared<std::vector<uint8_t>>(file.size);
    } catch (const std::bad_alloc&) {
        ::close(fd);
        error = "the file is too large to load";
        return nullptr;
    }
    const bool ok = readAt(fd, file.offset, file.size, bytes->data(), error);
    ::close(fd);
    if (!ok) return nullptr;
    return bytes;
}

// ---------------------------------------------------------------------------------------------
// Paths

bool isVpFileName(const std::string& name) {
    const std::string suffix = std::string(".") + kVpExtension;
    return name.size() >= suffix.size() && lower(name.substr(name.size() - suffix.size())) == suffix;
}

bool isVpArchiveFile(const std::string& path) {
    if (!isVpFileName(path)) return false;
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

bool splitArchivePath(const std::string& path, ArchivePath& out) {
    for (size_t colon = path.find(':'); colon != std::string::npos; colon = path.find(':', colon + 1)) {
        const std::string archive = path.substr(0, colon);
        if (!isVpArchiveFile(archive)) continue;
        std::string inner = path.substr(colon + 1);
        std::replace(inner.begin(), inner.end(), '\\', '/');
        inner.erase(0, inner.find_first_not_of('/'));
        out.archive = archive;
        out.inner = inner;
        return true;
    }
    return false;
}

std::string joinArchivePath(const std::string& archive, const std::string& inner) {
    std::string i = inner;
    std::replace(i.begin(), i.end(), '\\', '/');
    return archive + ":" + i;
}

std::string vpLookupKey(const std::string& innerPath) {
    std::string key;
    size_t start = 0;
    while (start <= innerPath.size()) {
        size_t end = innerPath.find_first_of("/\\", start);
        if (end == std::string::npos) end = innerPath.size();
        if (end > start) {
            if (!key.empty()) key += '/';
            key.append(innerPath, start, end - start);
        }
        start = end + 1;
    }
    return lower(key);
}

std::shared_ptr<const VpArchive> openVpArchiveCached(const std::string& path,
                                                     std::vector<Problem>* problems) {
    struct Cached {
        std::shared_ptr<const VpArchive> archive;
        int64_t size = -1;
        int64_t mtimeNs = 0;
        uint64_t used = 0;
    };
    static std::mutex mutex;
    static std::map<std::string, Cached> cache;
    static uint64_t clock = 0;
    constexpr size_t kCapacity = 32;

    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        if (problems)
            problems->push_back(
                {path, -1, 0, 0, "", std::string("cannot open the archive: ") + std::strerror(errno)});
        return nullptr;
    }
    const int64_t mtimeNs = int64_t(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
    {
        std::lock_guard<std::mutex> lock(mutex);
        const auto it = cache.find(path);
        if (it != cache.end() && it->second.size == int64_t(info.st_size) && it->second.mtimeNs == mtimeNs) {
            it->second.used = ++clock;
            return it->second.archive;
        }
    }
    std::vector<Problem> found;
    std::shared_ptr<const VpArchive> archive = VpArchive::open(path, found);
    if (!archive) {
        if (problems) problems->insert(problems->end(), found.begin(), found.end());
        return nullptr;
    }
    std::lock_guard<std::mutex> lock(mutex);
    if (cache.size() >= kCapacity && !cache.count(path)) {
        auto oldest = cache.begin();
        for (auto it = cache.begin(); it != cache.end(); ++it)
            if (it->second.used < oldest->second.used) oldest = it;
        cache.erase(oldest);
    }
    cache[path] = Cached{archive, int64_t(info.st_size), mtimeNs, ++clock};
    return archive;
}

bool isModelInArchive(const std::string& innerPath) {
    return hasModelExtension(innerPath);
}

std::string describeArchiveModels(const VpArchive& archive, const std::string& archivePath, size_t limit) {
    std::vector<std::string> names;
    size_t total = 0;
    for (const VpFile& f : archive.files())
        if (isModelInArchive(f.path)) {
            if (names.size() < limit) names.push_back(joinArchivePath(archivePath, f.path));
            ++total;
        }
    if (total == 0) return "it holds no model file";
    std::string text = total == 1 ? "the model in it: " : num(total) + " models in it: ";
    for (size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + names[i];
    if (total > names.size()) text += ", ...";
    return text;
}

ContainerRead readVpMember(const std::string& file, const std::string& inner) {
    ContainerRead read;
    std::shared_ptr<const VpArchive> archive = openVpArchiveCached(file, &read.problems);
    if (!archive) {
        if (read.problems.empty()) read.problems.push_back({file, -1, 0, 0, "", "cannot read the archive"});
        return read;
    }
    auto fail = [&](const std::string& message) {
        read.problems.push_back({"", -1, 0, 0, "", message});
        return read;
    };
    if (inner.empty())
        return fail("name a model inside the VP archive as " + file + ":PATH (" + describeArchiveModels(*archive, file) + ")");
    const VpFile* member = archive->find(inner);
    if (!member)
        return fail("no file '" + inner + "' in the archive (" + describeArchiveModels(*archive, file) + ")");
    std::string error;
    read.bytes = archive->read(*member, error);
    if (!read.bytes) return fail("cannot read the file from the archive: " + error);
    if (!archive->problems().empty()) {
        const size_t n = archive->problems().size();
        read.warning = "archive " + file + ": " + std::to_string(n) + " problem" + (n == 1 ? "" : "s") +
                       " in its directory ('esview check " + file + "' lists them), the first: " +
                       archive->problems().front().format();
    }
    return read;
}

std::string describeVpModels(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& name) {
    std::vector<Problem> ignored;
    const std::shared_ptr<const VpArchive> archive = VpArchive::fromMemory(std::move(bytes), name, ignored);
    return archive ? describeArchiveModels(*archive, name) : std::string();
}

}  // namespace esv
