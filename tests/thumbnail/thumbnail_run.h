// Running `esview thumbnail` from the thumbnail tests: timed, safe to call from several threads at
// once (each run's captures and picture have names of their own), and the picture's coverage.
#pragma once

#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "common/image_compare.h"
#include "common/run_esview.h"
#include "common/test_paths.h"

namespace esv::test {

struct ThumbnailRun {
    int exitCode = -1;
    std::string out, err;
    double seconds = 0.0;  // wall clock of the whole command
};

// Runs `esview thumbnail ARGS` through the shell, its stdout and stderr captured in files named
// after `tag` and a process-wide counter.
inline ThumbnailRun runThumbnail(const std::string& args, const std::string& tag) {
    static std::atomic<int> counter{0};
    const std::string stem = "thumbnail_" + tag + "_" + std::to_string(counter++);
    const auto outPath = outputDir() / (stem + ".out"), errPath = outputDir() / (stem + ".err");
    const std::string cmd =
        "'" ESVIEW_BINARY "' thumbnail " + args + " >'" + outPath.string() + "' 2>'" + errPath.string() + "'";
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(cmd.c_str());
    ThumbnailRun r;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readText(outPath);
    r.err = readText(errPath);
    return r;
}

// A path in single quotes for the shell (no quote in the test's paths).
inline std::string shellQuoted(const std::filesystem::path& path) {
    return "'" + path.string() + "'";
}

// Where a picture's drawn pixels (alpha above a faint edge) lie; empty when none is.
struct Coverage {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // [x0, x1) x [y0, y1)
    size_t pixels = 0;
    bool empty() const { return pixels == 0; }
};

inline Coverage coverage(const Image& image) {
    Coverage c;
    c.x0 = image.width;
    c.y0 = image.height;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            if (image.rgba[(size_t(y) * image.width + x) * 4 + 3] > 16) {
                ++c.pixels;
                c.x0 = std::min(c.x0, x);
                c.y0 = std::min(c.y0, y);
                c.x1 = std::max(c.x1, x + 1);
                c.y1 = std::max(c.y1, y + 1);
            }
    if (c.empty()) c = {};
    return c;
}

// Calls `work(i)` for i in [0, count) on a few threads (thumbnails are separate processes, so the
// runs overlap as a file manager's would).
inline void forEachParallel(size_t count, const std::function<void(size_t)>& work) {
    std::atomic<size_t> next{0};
    const unsigned threads = std::max(2u, std::min(4u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            for (size_t i; (i = next++) < count;) work(i);
        });
    for (std::thread& t : pool) t.join();
}

}  // namespace esv::test
