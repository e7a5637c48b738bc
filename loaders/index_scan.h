// The largest of a run of stored indices, scanned in place: the one loop the validator's index check
// and the glTF reader's per-accessor check share. Each case is a plain loop the compiler vectorises
// (a 100 MB glTF's 9 M indices take about a millisecond).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <system_error>
#include <thread>

#include "scene/scene.h"

namespace esv {

// The largest of `count` indices of type T stored `stride` bytes apart at `p` (host order, as GL
// reads them), leaving out the all-ones restart index when `skipRestart` is set.
template <class T>
uint32_t largestIndexOf(const uint8_t* p, uint64_t count, size_t stride, bool skipRestart) {
    T most = 0;
    const T restart = T(~T(0));
    if (skipRestart) {
        for (uint64_t i = 0; i < count; ++i) {
            T v;
            std::memcpy(&v, p + i * stride, sizeof(T));
            if (v != restart && v > most) most = v;
        }
    } else if (stride == sizeof(T)) {
        for (uint64_t i = 0; i < count; ++i) {
            T v;
            std::memcpy(&v, p + i * sizeof(T), sizeof(T));
            most = v > most ? v : most;
        }
    } else {
        for (uint64_t i = 0; i < count; ++i) {
            T v;
            std::memcpy(&v, p + i * stride, sizeof(T));
            most = v > most ? v : most;
        }
    }
    return most;
}

// The same for an index type (UInt8, UInt16 or UInt32; any other reads as UInt32).
inline uint32_t largestIndex(ComponentType type, const uint8_t* p, uint64_t count, size_t stride, bool skipRestart) {
    return type == ComponentType::UInt8    ? largestIndexOf<uint8_t>(p, count, stride, skipRestart)
           : type == ComponentType::UInt16 ? largestIndexOf<uint16_t>(p, count, stride, skipRestart)
                                           : largestIndexOf<uint32_t>(p, count, stride, skipRestart);
}

// Index bytes from which a scan is shared with a second thread (bench_gltf's 100 MB file holds 18 MB
// of indices; a small scene is not worth a thread).
constexpr uint64_t kSharedScanBytes = uint64_t(8) << 20;

// Calls scan(from, to) over items [0, n), item i holding bytes(i) bytes: with kSharedScanBytes or more
// in all, the items after the byte halfway point go to a second thread meanwhile; where no thread can
// be made, or with fewer bytes, all run on this one.
template <class Bytes, class Scan>
void scanOnTwoThreads(size_t n, Bytes bytes, Scan scan) {
    uint64_t total = 0;
    for (size_t i = 0; i < n; ++i) total += bytes(i);
    size_t split = n;
    if (total >= kSharedScanBytes) {
        uint64_t first = 0;
        for (split = 0; split < n && first < total / 2; ++split) first += bytes(split);
    }
    std::thread second;
    try {
        if (split < n) second = std::thread(scan, split, n);
    } catch (const std::system_error&) {
    }
    scan(size_t(0), second.joinable() ? split : n);
    if (second.joinable()) second.join();
}

}  // namespace esv
