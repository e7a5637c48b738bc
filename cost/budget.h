// Budgets for CI (`esview check PATH... --device NAME --budget FILE.json`): a JSON object with any of
// the measures below, each a non-negative number; a file whose cost report (cost_report.h) exceeds
// one fails the check with a line per measure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cost/cost_report.h"

namespace esv {

// The measures, as the budget file names them:
//   triangles        drawn in a frame at the rest pose (after preparation for the device)
//   draws            draw calls of that frame
//   vertices         the meshes' vertices, as stored
//   vertex_bytes     the meshes' vertex streams, as stored
//   texture_bytes    every texture's GPU bytes on the device
//   bones_per_batch  the most bones one bone batch holds, as stored
//   texture_size     the largest side of any texture, as stored
struct Budget {
    std::vector<std::pair<std::string, uint64_t>> limits;  // in the file's order
};

// The measure names a budget may hold.
const std::vector<std::string>& budgetMeasures();

// Parses a budget file's text. False with `error` (one sentence naming the key at fault) for text
// that is not a JSON object, an unknown measure, or a value that is not a non-negative integer.
bool parseBudget(const std::string& text, Budget& budget, std::string& error);

struct BudgetCheck {
    std::string measure;
    uint64_t value = 0;
    uint64_t limit = 0;
    bool over() const { return value > limit; }
};

// Every measure of the budget with the report's value for it, in the budget's order.
std::vector<BudgetCheck> checkBudget(const CostReport& report, const Budget& budget);

}  // namespace esv
