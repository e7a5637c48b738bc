#include "cost/budget.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace esv {

const std::vector<std::string>& budgetMeasures() {
    static const std::vector<std::string> kMeasures = {"triangles",     "draws",           "vertices",    "vertex_bytes",
                                                       "texture_bytes", "bones_per_batch", "texture_size"};
    return kMeasures;
}

bool parseBudget(const std::string& text, Budget& budget, std::string& error) {
    budget = Budget{};
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        error = "a budget is a JSON object of measures and limits ({\"triangles\": 20000, ...})";
        return false;
    }
    std::string known;
    for (const std::string& m : budgetMeasures()) known += (known.empty() ? "" : ", ") + m;
    for (const auto& [key, value] : j.items()) {
        const std::vector<std::string>& measures = budgetMeasures();
        if (std::find(measures.begin(), measures.end(), key) == measures.end()) {
            error = "unknown measure '" + key + "' (the measures: " + known + ")";
            return false;
        }
        if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<int64_t>() >= 0)) {
            error = "'" + key + "': the limit must be a whole number of zero or more, not " + value.dump();
            return false;
        }
        budget.limits.emplace_back(key, value.get<uint64_t>());
    }
    return true;
}

std::vector<BudgetCheck> checkBudget(const CostReport& report, const Budget& budget) {
    auto measure = [&report](const std::string& name) -> uint64_t {
        if (name == "triangles") return report.frame.triangles;
        if (name == "draws") return report.frame.draws;
        if (name == "vertices") return report.totals.vertices;
        if (name == "vertex_bytes") return report.totals.vertexBytes;
        if (name == "texture_bytes") return report.totals.textureBytes;
        if (name == "bones_per_batch") return report.totals.maxBonesPerBatch;
        if (name == "texture_size") return report.totals.maxTextureSize;
        return 0;
    };
    std::vector<BudgetCheck> checks;
    for (const auto& [name, limit] : budget.limits) checks.push_back({name, measure(name), limit});
    return checks;
}

}  // namespace esv
