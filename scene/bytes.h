// Shared, immutable byte views: how the scene holds file payloads without copying them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace esv {

// A read-only view into a shared buffer. `owner` keeps the memory alive (a vector of the bytes, or
// any buffer a reader was handed: loadSceneFile reads a glTF file into one it never zero-fills);
// `data`/`size` select the part that belongs to this view. An empty view has size 0 and may have
// no owner.
struct ByteView {
    std::shared_ptr<const void> owner;
    const uint8_t* data = nullptr;
    size_t size = 0;

    bool empty() const { return size == 0; }
    const uint8_t* begin() const { return data; }
    const uint8_t* end() const { return data + size; }
    // A sub-view [offset, offset + length) of this view; the caller guarantees it is in range.
    ByteView sub(size_t offset, size_t length) const { return ByteView{owner, data + offset, length}; }
};

// Makes a view that owns `bytes` (moved into a new shared buffer).
ByteView makeOwnedBytes(std::vector<uint8_t> bytes);

}  // namespace esv
