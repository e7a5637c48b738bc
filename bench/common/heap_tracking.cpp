// Counting replacements of the global allocation functions (see heap_tracking.h).
#include "bench/common/heap_tracking.h"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<size_t> g_current{0};
std::atomic<size_t> g_peak{0};
void noteAlloc(void* p) {
    if (!p) return;
    size_t now = g_current.fetch_add(malloc_usable_size(p)) + malloc_usable_size(p);
    size_t peak = g_peak.load();
    while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
    }
}
void noteFree(void* p) {
    if (p) g_current.fetch_sub(malloc_usable_size(p));
}
}  // namespace

__attribute__((noinline)) void* operator new(size_t n) {
    void* p = std::malloc(n ? n : 1);
    if (!p) throw std::bad_alloc();
    noteAlloc(p);
    return p;
}
void* operator new[](size_t n) {
    return operator new(n);
}
// Not inlined: GCC would otherwise see free() paired with new at the call sites.
__attribute__((noinline)) void operator delete(void* p) noexcept {
    noteFree(p);
    std::free(p);
}
void operator delete[](void* p) noexcept {
    operator delete(p);
}
void operator delete(void* p, size_t) noexcept {
    operator delete(p);
}
void operator delete[](void* p, size_t) noexcept {
    operator delete(p);
}

namespace esv::bench {

size_t heapCurrent() {
    return g_current.load();
}

size_t heapPeak() {
    return g_peak.load();
}

void resetHeapPeak() {
    g_peak.store(g_current.load());
}

}  // namespace esv::bench
