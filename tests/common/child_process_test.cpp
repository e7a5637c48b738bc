// The child-process helper that memory checks rely on: it must see memory the work touches, not
// memory the parent touched before, and report failures and crashes inside the child.
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "common/child_process.h"

namespace esv::test {
namespace {

void touch(size_t mib) {
    std::vector<char> block(mib << 20);
    std::memset(block.data(), 1, block.size());
    volatile char sink = block[block.size() / 2];
    (void)sink;
}

TEST(ChildProcess, MeasuresWhatTheWorkTouches) {
    const ChildRun idle = runInChild([] {});
    EXPECT_TRUE(idle.passed) << idle.outcome;
    EXPECT_LT(idle.peakGrowthMiB, 8u);

    const ChildRun busy = runInChild([] { touch(96); });
    EXPECT_TRUE(busy.passed) << busy.outcome;
    EXPECT_GE(busy.peakGrowthMiB, 90u);
    EXPECT_LT(busy.peakGrowthMiB, 140u);
}

TEST(ChildProcess, IgnoresThePeakTheParentReachedBefore) {
    touch(128);  // the parent's ru_maxrss now includes this; a child's growth must not
    const ChildRun small = runInChild([] { touch(16); });
    EXPECT_TRUE(small.passed) << small.outcome;
    EXPECT_GE(small.peakGrowthMiB, 12u);
    EXPECT_LT(small.peakGrowthMiB, 64u);
}

TEST(ChildProcess, ReportsFailuresAndCrashesInside) {
    const ChildRun failed = runInChild([] { ADD_FAILURE() << "expected: a failure inside the child"; });
    EXPECT_FALSE(failed.passed);
    EXPECT_EQ(failed.outcome, "exited 1");
    EXPECT_FALSE(::testing::Test::HasFailure()) << "the child's failure must not fail the parent";

    const ChildRun crashed = runInChild([] { std::raise(SIGKILL); });
    EXPECT_FALSE(crashed.passed);
    EXPECT_EQ(crashed.outcome, "killed by signal 9");
}

}  // namespace
}  // namespace esv::test
