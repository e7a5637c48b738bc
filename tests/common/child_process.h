// Runs part of a test in a forked child process, so that what it costs in memory can be measured
// on its own. ru_maxrss is a process's peak: read inside a test binary that has already run other
// tests it shows their peak, not this test's. A child starts from this process's current pages, so
// its peak minus that of a child that does nothing is what the work added, whether the test runs
// alone (ctest) or after others (the binary run by hand, --gtest_filter, a debugger).
#pragma once

#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>

#include <gtest/gtest.h>

namespace esv::test {

struct ChildRun {
    bool passed = false;       // exited 0: no crash, no failed expectation inside
    std::string outcome;       // "exited N" or "killed by signal N", for failure messages
    size_t peakGrowthMiB = 0;  // the child's peak resident memory over an idle child's
};

namespace detail {
// Forks, runs `work` in the child (which exits 1 when an expectation failed in it) and reports
// the child's exit status and ru_maxrss in KiB.
inline ChildRun forkAndWait(const std::function<void()>& work, long& maxrssKiB) {
    ChildRun run;
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) {
        run.outcome = "fork failed";
        return run;
    }
    if (pid == 0) {
        work();
        std::fflush(stdout);
        std::fflush(stderr);
        _exit(::testing::Test::HasFailure() ? 1 : 0);
    }
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid) {
        run.outcome = "wait4 failed";
        return run;
    }
    maxrssKiB = usage.ru_maxrss;  // Linux: KiB
    if (WIFEXITED(status)) {
        run.outcome = "exited " + std::to_string(WEXITSTATUS(status));
        run.passed = WEXITSTATUS(status) == 0;
    } else if (WIFSIGNALED(status)) {
        run.outcome = "killed by signal " + std::to_string(WTERMSIG(status));
    }
    return run;
}
}  // namespace detail

// Runs `work` in a child process and measures how far its peak resident memory rose. Expectations
// that fail inside the child print there and make `passed` false; assert on it in the parent.
inline ChildRun runInChild(const std::function<void()>& work) {
    long idleKiB = 0, busyKiB = 0;
    detail::forkAndWait([] {}, idleKiB);
    ChildRun run = detail::forkAndWait(work, busyKiB);
    run.peakGrowthMiB = busyKiB > idleKiB ? static_cast<size_t>(busyKiB - idleKiB) / 1024 : 0;
    return run;
}

}  // namespace esv::test
