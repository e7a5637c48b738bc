// A small VP archive writer for tests: folders, files and hand-made directory entries, written
// as FreeSpace's tools lay them out (header, file data, directory). It writes whatever it is
// given, including broken archives (any offset, size, name or count can be set by hand).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace esv::vptest {

class VpWriter {
public:
    // Opens a folder (a size-0 entry named `name`).
    VpWriter& folder(const std::string& name);
    // Closes the current folder (a size-0 entry named "..").
    VpWriter& up();
    // A file whose data follows the data written so far.
    VpWriter& file(const std::string& name, const std::vector<uint8_t>& data, int32_t timestamp = 0);
    // A directory entry as given: `name` is copied into the 32-byte field (32 characters leave no
    // NUL); nothing is added to the data.
    VpWriter& entry(int32_t offset, int32_t size, const std::string& name, int32_t timestamp = 0);
    // Bytes appended to the data without an entry.
    VpWriter& data(const std::vector<uint8_t>& bytes);

    // Header fields written instead of the true ones when set.
    int32_t version = 2;
    std::optional<int32_t> directoryOffsetField, countField;

    std::vector<uint8_t> bytes() const;
    // Where the directory starts in bytes() and where entry `index` is.
    uint64_t directoryOffset() const { return 16 + m_data.size(); }
    uint64_t entryOffset(size_t index) const { return directoryOffset() + 44 * index; }
    // Where the next file's data will start.
    int32_t nextDataOffset() const { return static_cast<int32_t>(16 + m_data.size()); }
    size_t entries() const { return m_entries.size(); }

private:
    struct Entry {
        int32_t offset, size;
        std::string name;
        int32_t timestamp;
    };
    std::vector<uint8_t> m_data;
    std::vector<Entry> m_entries;
};

// An archive holding `files` at their inner paths ("data/models/x.pof"), folders opened and
// closed around them in the order given, every folder closed at the end.
std::vector<uint8_t> archiveOf(const std::vector<std::pair<std::string, std::vector<uint8_t>>>& files);

void writeFile(const std::filesystem::path& path, const std::vector<uint8_t>& bytes);
std::vector<uint8_t> readFile(const std::filesystem::path& path);

}  // namespace esv::vptest
