// A batch over many files on several threads whose output is the same for any number of them: the
// work runs in any order, the results are handed over in index order, each as soon as it and every
// one before it are done (`check` and `convert` over folders).
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace esv {

// Calls work(i) for every i below `count` on `jobs` threads (0: one per core; never more than
// `count`), and report(i, result) on the calling thread for i = 0, 1, ... in order. A result is
// released once reported.
template <typename Result>
void runInIndexOrder(size_t count, int jobs, const std::function<Result(size_t)>& work,
                     const std::function<void(size_t, Result&)>& report) {
    if (jobs <= 0) jobs = int(std::max(1u, std::thread::hardware_concurrency()));
    jobs = std::max(1, std::min<int>(jobs, int(std::max<size_t>(count, 1))));
    std::vector<Result> results(count);
    std::vector<bool> done(count, false);
    std::mutex mutex;
    std::condition_variable finished;
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i = next++; i < count; i = next++) {
            Result r = work(i);
            std::lock_guard<std::mutex> lock(mutex);
            results[i] = std::move(r);
            done[i] = true;
            finished.notify_all();
        }
    };
    std::vector<std::thread> workers;
    for (int i = 0; i < jobs; ++i) workers.emplace_back(worker);
    for (size_t i = 0; i < count; ++i) {
        {
            std::unique_lock<std::mutex> lock(mutex);
            finished.wait(lock, [&] { return bool(done[i]); });
        }
        report(i, results[i]);
        results[i] = Result{};
    }
    for (std::thread& t : workers) t.join();
}

}  // namespace esv
