// Counting the GL calls made through the loader. glad is generated with its debug wrappers, whose
// hook runs before every call: installCallCounter (called where a context's entry points are
// loaded) makes it a counter, and replaces glad's default hooks, which would call glGetError around
// every call. The panel's own backend does not go through glad, so its calls are not counted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace esv::gl {

void installCallCounter();

// Calls made since the program started (read before and after a piece of work to count it).
uint64_t callCount();

// While on, the name of every call is kept as well (tests print them when a budget is exceeded).
void recordCallNames(bool on);
const std::vector<std::string>& recordedCallNames();
void clearRecordedCallNames();

}  // namespace esv::gl
