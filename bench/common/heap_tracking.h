// Heap accounting for benchmarks: linking heap_tracking.cpp replaces the global allocation
// functions with ones that count the bytes currently allocated and the peak since the last reset.
#pragma once

#include <cstddef>

namespace esv::bench {

// Bytes allocated through operator new and not yet freed (malloc_usable_size of each block).
size_t heapCurrent();
// The highest heapCurrent() since the last resetHeapPeak().
size_t heapPeak();
// Starts a new peak measurement at the current level.
void resetHeapPeak();

}  // namespace esv::bench
