// `esview check PATH...`: validates model files and FreeSpace VP archives, one at a time or a whole
// art folder at once (folders are searched recursively), in parallel, as an art repository's CI
// runs it. Every file gets one result, whatever happens to the others; a broken file never stops
// the batch.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "cost/budget.h"
#include "loaders/load.h"

namespace esv {

// What checking one file found.
struct CheckResult {
    std::string path;
    std::string format;  // the format table's key ("pod"), "vp" for an archive, "" when unknown
    std::vector<Problem> problems;  // spec violations, or why it could not be read at all
    std::vector<std::string> warnings;  // the import report's warnings (missing textures, ...)
    // Counts and extent as `esview info` gives them (a model that loaded; null for archives).
    nlohmann::ordered_json summary;
    double milliseconds = 0.0;
    // With a budget: every measure of it for this file on `device` (cost/budget.h).
    std::string device;
    std::vector<BudgetCheck> budget;
    bool overBudget() const {
        return std::any_of(budget.begin(), budget.end(), [](const BudgetCheck& b) { return b.over(); });
    }
    bool ok() const { return problems.empty() && !overBudget(); }
};

// `--device NAME --budget FILE`: each model's cost report on the device held to the budget.
struct BudgetOptions {
    const DeviceProfile* device = nullptr;
    Budget budget;
};

// Checks one model file, `archive.vp:inner/model`, or an archive itself (its header, directory and
// folders). Fully validated, textures looked for and read. Never throws.
// With `budget`, a model that loads is also measured against it.
CheckResult checkFile(const std::string& path, const BudgetOptions* budget = nullptr);

// The files `paths` name: files as given, folders searched recursively for the format table's
// model files and VP archives (sorted by path; hidden entries skipped), and for each archive found
// in a folder the models inside it as `archive.vp:inner` paths after it. A path that does not
// exist becomes an entry too, which checkFile reports.
std::vector<std::string> expandCheckPaths(const std::vector<std::string>& paths);

// The JSON line of a result: path, format, ok, problems (each: text, offset, line, column, where,
// message), warnings, counts (nodes, meshes, mesh_instances, materials, textures, lights, cameras,
// clips), triangles, bounds (min, max or null) and ms.
nlohmann::ordered_json checkResultJson(const CheckResult& result);

// Runs the command: every file of expandCheckPaths(paths) checked on `jobs` threads (0: one per
// core), the results printed in path order as they complete. Text: a file's problems on stderr, one
// line each, then "FILE: N problems"; "FILE: ok (...)" and its warnings on stdout; a summary line at
// the end when more than one file was checked. JSON: one line per file, then {"summary": {...}}.
// With `budget`, each measure a file exceeds is one line on stderr ("FILE: over budget on DEVICE:
// MEASURE VALUE, the limit LIMIT") and fails the file; JSON adds a "budget" object per file.
// Returns 0 when every file is ok, 1 when any has a problem or is over budget (kExitBadInput).
int runCheck(const std::vector<std::string>& paths, bool json, int jobs, const BudgetOptions* budget = nullptr);

// The `check` subcommand on `app` (with --device and --budget, read before the files are).
Subcommand addCheckCommand(CLI::App& app);

}  // namespace esv
