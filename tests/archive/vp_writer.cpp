#include "archive/vp_writer.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

namespace esv::vptest {

namespace {

void putI32(std::vector<uint8_t>& out, int32_t v) {
    const uint32_t u = static_cast<uint32_t>(v);
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(u >> (8 * i)));
}

std::vector<std::string> splitPath(const std::string& path) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= path.size()) {
        size_t slash = path.find('/', start);
        if (slash == std::string::npos) slash = path.size();
        if (slash > start) parts.push_back(path.substr(start, slash - start));
        start = slash + 1;
    }
    return parts;
}

}  // namespace

VpWriter& VpWriter::folder(const std::string& name) {
    return entry(nextDataOffset(), 0, name);
}

VpWriter& VpWriter::up() {
    return entry(nextDataOffset(), 0, "..");
}

VpWriter& VpWriter::file(const std::string& name, const std::vector<uint8_t>& bytes, int32_t timestamp) {
    const int32_t offset = nextDataOffset();
    m_data.insert(m_data.end(), bytes.begin(), bytes.end());
    return entry(offset, static_cast<int32_t>(bytes.size()), name, timestamp);
}

VpWriter& VpWriter::entry(int32_t offset, int32_t size, const std::string& name, int32_t timestamp) {
    m_entries.push_back({offset, size, name, timestamp});
    return *this;
}

VpWriter& VpWriter::data(const std::vector<uint8_t>& bytes) {
    m_data.insert(m_data.end(), bytes.begin(), bytes.end());
    return *this;
}

std::vector<uint8_t> VpWriter::bytes() const {
    std::vector<uint8_t> out = {'V', 'P', 'V', 'P'};
    putI32(out, version);
    putI32(out, directoryOffsetField.value_or(static_cast<int32_t>(directoryOffset())));
    putI32(out, countField.value_or(static_cast<int32_t>(m_entries.size())));
    out.insert(out.end(), m_data.begin(), m_data.end());
    for (const Entry& e : m_entries) {
        putI32(out, e.offset);
        putI32(out, e.size);
        char name[32] = {};
        std::memcpy(name, e.name.data(), std::min<size_t>(e.name.size(), sizeof name));
        out.insert(out.end(), name, name + sizeof name);
        putI32(out, e.timestamp);
    }
    return out;
}

std::vector<uint8_t> archiveOf(const std::vector<std::pair<std::string, std::vector<uint8_t>>>& files) {
    VpWriter w;
    std::vector<std::string> open;
    for (const auto& [path, bytes] : files) {
        std::vector<std::string> parts = splitPath(path);
        const std::string name = parts.back();
        parts.pop_back();
        size_t common = 0;
        while (common < open.size() && common < parts.size() && open[common] == parts[common]) ++common;
        while (open.size() > common) {
            w.up();
            open.pop_back();
        }
        for (size_t i = common; i < parts.size(); ++i) {
            w.folder(parts[i]);
            open.push_back(parts[i]);
        }
        w.file(name, bytes, 1700000000);
    }
    for (size_t i = 0; i < open.size(); ++i) w.up();
    return w.bytes();
}

void writeFile(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::vector<uint8_t> readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace esv::vptest
