// Runs the esview binary through the shell as a user would, for command-line tests: its exit code
// and what it wrote to stdout and stderr (captured apart, in files under the test output folder).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "common/test_paths.h"

namespace esv::test {

struct RunResult {
    int exitCode = -1;
    std::string out, err;
};

inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Runs `prefix 'binary' args`; `prefix` may set variables or wrap the run (tests/tools/with-xvfb.sh). The capture
// files are named after `tag`, the process and a counter, so parallel tests never share them.
inline RunResult runEsview(const std::string& binary, const std::string& args, const std::string& tag,
                           const std::string& prefix = "") {
    static int counter = 0;
    const std::string stem = tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
    const auto outPath = outputDir() / (stem + ".out"), errPath = outputDir() / (stem + ".err");
    const std::string cmd = prefix + " '" + binary + "' " + args + " >'" + outPath.string() + "' 2>'" +
                            errPath.string() + "'";
    const int status = std::system(cmd.c_str());
    RunResult r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readText(outPath);
    r.err = readText(errPath);
    return r;
}

}  // namespace esv::test
