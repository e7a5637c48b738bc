#include "app/cli/check_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>
#include <fstream>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/ordered_jobs.h"
#include "app/viewer/scene_info.h"
#include "app/viewer/scene_source.h"
#include "loaders/archive/vp_archive.h"
#include "loaders/format_table.h"
#include "loaders/textures/scene_textures.h"
#include "scene/sampler.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

void checkArchive(const std::string& path, CheckResult& result) {
    result.format = "vp";
    std::shared_ptr<const VpArchive> archive = VpArchive::open(path, result.problems, true);
    if (!archive || !result.problems.empty()) return;
    size_t models = 0;
    for (const VpFile& f : archive->files()) models += isModelInArchive(f.path) ? 1 : 0;
    result.summary = {{"archive_version", archive->version()},
                      {"files", archive->files().size()},
                      {"folders", archive->folders().size()},
                      {"models", models}};
}

// The format a file that did not load claims to be: its first bytes' magic, else its extension
// (a model inside an archive: its extension). Empty when neither says.
std::string claimedFormat(const std::string& path) {
    uint8_t head[64] = {};
    size_t size = 0;
    ArchivePath inside;
    if (!splitArchivePath(path, inside)) {
        std::ifstream in(path, std::ios::binary);
        in.read(reinterpret_cast<char*>(head), sizeof head);
        size = in ? sizeof head : size_t(std::max<std::streamsize>(in.gcount(), 0));
    }
    const FileFormat format = detectFormat(head, size, path);
    if (format != FileFormat::Unknown) return formatName(format);
    const FormatInfo* byExtension = formatForExtension(path);
    return byExtension ? byExtension->key : std::string();
}

void checkModel(const std::string& path, CheckResult& result, const BudgetOptions* budget) {
    LoadOptions options;
    options.collectAll = true;
    LoadResult loaded = openScene(path, options);
    result.problems = std::move(loaded.problems);
    if (!loaded.scene) {
        result.format = claimedFormat(path);
        if (result.problems.empty()) result.problems.push_back(Problem{path, -1, 0, 0, "", "could not be loaded"});
        return;
    }
    Scene& scene = *loaded.scene;
    result.format = scene.format;
    // Textures are found and read (not decoded for a GPU) so missing or unreadable ones are warnings.
    prepareSceneTextures(scene, nullptr);
    for (const ReportLine& r : scene.report)
        if (r.severity == Severity::Warning) result.warnings.push_back(r.text);
    if (budget && budget->device) {
        result.device = budget->device->name;
        result.budget = checkBudget(analyzeCost(scene, *budget->device), budget->budget);
    }
    ResolvedTime time;
    std::string error;
    if (!resolveTime(scene, TimeSelection{}, time, error)) return;
    Pose pose;
    evaluatePose(scene, time.clip, time.seconds, pose);
    const nlohmann::json info = sceneInfoJson(scene, pose, time);
    auto size = [&](const char* key) { return info[key].is_array() ? info[key].size() : info[key].get<size_t>(); };
    result.summary = {{"nodes", size("nodes")},
                      {"meshes", size("meshes")},
                      {"mesh_instances", size("mesh_instances")},
                      {"materials", size("materials")},
                      {"textures", size("textures")},
                      {"lights", size("lights")},
                      {"cameras", size("cameras")},
                      {"clips", info["animation"]["clips"].size()},
                      {"triangles", info.value("triangles_total", uint64_t(0))},
                      {"bounds", info["bounds"].is_null()
                                     ? nlohmann::ordered_json(nullptr)
                                     : nlohmann::ordered_json{{"min", nlohmann::ordered_json::parse(info["bounds"]["min"].dump())},
                                                              {"max", nlohmann::ordered_json::parse(info["bounds"]["max"].dump())}}}};
}

bool isHidden(const fs::path& p) {
    const std::string name = p.filename().string();
    return !name.empty() && name[0] == '.';
}

}  // namespace

CheckResult checkFile(const std::string& path, const BudgetOptions* budget) {
    const auto start = std::chrono::steady_clock::now();
    CheckResult result;
    result.path = path;
    try {
        ArchivePath inside;
        if (isVpArchiveFile(path)) {
            checkArchive(path, result);
        } else if (splitArchivePath(path, inside) && inside.inner.empty()) {
            checkArchive(inside.archive, result);
        } else {
            checkModel(path, result, budget);
        }
    } catch (const std::exception& e) {
        // The readers do not throw; running out of memory still may. The batch goes on.
        result.problems.push_back(Problem{path, -1, 0, 0, "", std::string("could not be checked: ") + e.what()});
    }
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

std::vector<std::string> expandCheckPaths(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const std::string& path : paths) {
        std::error_code ec;
        if (!fs::is_directory(path, ec)) {
            out.push_back(path);
            continue;
        }
        std::vector<std::string> found;
        fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
        for (; !ec && it != end; it.increment(ec)) {
            if (isHidden(it->path())) {
                if (it->is_directory(ec)) it.disable_recursion_pending();
                continue;
            }
            if (!it->is_regular_file(ec)) continue;
            const std::string file = it->path().string();
            if (hasModelExtension(file) || isVpFileName(file)) found.push_back(file);
        }
        std::sort(found.begin(), found.end());
        for (const std::string& file : found) {
            out.push_back(file);
            if (!isVpFileName(file)) continue;
            std::vector<Problem> ignored;  // the archive's own entry reports them
            std::shared_ptr<const VpArchive> archive = VpArchive::open(file, ignored, false);
            if (!archive) continue;
            std::vector<std::string> inner;
            for (const VpFile& f : archive->files())
                if (isModelInArchive(f.path)) inner.push_back(joinArchivePath(file, f.path));
            std::sort(inner.begin(), inner.end());
            out.insert(out.end(), inner.begin(), inner.end());
        }
    }
    return out;
}

nlohmann::ordered_json checkResultJson(const CheckResult& r) {
    nlohmann::ordered_json problems = nlohmann::ordered_json::array();
    for (const Problem& p : r.problems) {
        nlohmann::ordered_json j = {{"text", p.format()}, {"where", p.where}, {"message", p.message}};
        j["offset"] = p.offset >= 0 ? nlohmann::ordered_json(p.offset) : nlohmann::ordered_json(nullptr);
        j["line"] = p.line > 0 ? nlohmann::ordered_json(p.line) : nlohmann::ordered_json(nullptr);
        j["column"] = p.column > 0 ? nlohmann::ordered_json(p.column) : nlohmann::ordered_json(nullptr);
        problems.push_back(std::move(j));
    }
    nlohmann::ordered_json j = {{"path", r.path},
                        {"format", r.format.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.format)},
                        {"ok", r.ok()},
                        {"problems", std::move(problems)},
                        {"warnings", r.warnings}};
    if (r.format == "vp") {
        j["archive"] = r.summary.is_null() ? nlohmann::ordered_json(nullptr) : r.summary;
    } else if (!r.summary.is_null()) {
        nlohmann::ordered_json counts = r.summary;
        counts.erase("triangles");
        counts.erase("bounds");
        j["counts"] = std::move(counts);
        j["triangles"] = r.summary["triangles"];
        j["bounds"] = r.summary["bounds"];
    } else {
        j["counts"] = nullptr;
        j["triangles"] = nullptr;
        j["bounds"] = nullptr;
    }
    if (!r.device.empty()) {
        nlohmann::ordered_json measures = nlohmann::ordered_json::array();
        for (const BudgetCheck& b : r.budget)
            measures.push_back({{"measure", b.measure}, {"value", b.value}, {"limit", b.limit}, {"over", b.over()}});
        j["budget"] = {{"device", r.device}, {"ok", !r.overBudget()}, {"measures", std::move(measures)}};
    }
    j["ms"] = std::round(r.milliseconds * 10.0) / 10.0;
    return j;
}

namespace {

// "1 mesh", "2 meshes".
std::string plural(size_t n, const char* noun, const char* nouns = nullptr) {
    return std::to_string(n) + " " + (n == 1 ? std::string(noun) : nouns ? std::string(nouns) : std::string(noun) + "s");
}

void printText(const CheckResult& r) {
    if (r.problems.empty() && r.overBudget()) {
        size_t over = 0;
        for (const BudgetCheck& b : r.budget)
            if (b.over()) {
                std::fprintf(stderr, "%s: over budget on %s: %s %llu, the limit %llu\n", r.path.c_str(), r.device.c_str(),
                             b.measure.c_str(), static_cast<unsigned long long>(b.value),
                             static_cast<unsigned long long>(b.limit));
                ++over;
            }
        std::fprintf(stderr, "%s: over budget (%s)\n", r.path.c_str(), plural(over, "measure").c_str());
        return;
    }
    if (!r.ok()) {
        for (const Problem& p : r.problems) std::fprintf(stderr, "%s\n", p.format().c_str());
        std::fprintf(stderr, "%s: %s\n", r.path.c_str(), plural(r.problems.size(), "problem").c_str());
        return;
    }
    for (const std::string& w : r.warnings) std::printf("%s: warning: %s\n", r.path.c_str(), w.c_str());
    if (r.format == "vp") {
        const nlohmann::json& a = r.summary;
        std::printf("%s: ok (VP archive version %d, %s, %s, %s)\n", r.path.c_str(), a["archive_version"].get<int>(),
                    plural(a["files"].get<size_t>(), "file").c_str(), plural(a["folders"].get<size_t>(), "folder").c_str(),
                    plural(a["models"].get<size_t>(), "model").c_str());
    } else {
        const nlohmann::json& s = r.summary;
        const size_t nodes = s.is_null() ? 0 : s["nodes"].get<size_t>();
        const size_t meshes = s.is_null() ? 0 : s["meshes"].get<size_t>();
        std::printf("%s: ok (%s, %s, %s, %s)\n", r.path.c_str(), r.format.c_str(), plural(nodes, "node").c_str(),
                    plural(meshes, "mesh", "meshes").c_str(), plural(r.warnings.size(), "warning").c_str());
    }
}

}  // namespace

int runCheck(const std::vector<std::string>& paths, bool json, int jobs, const BudgetOptions* budget) {
    const std::vector<std::string> files = expandCheckPaths(paths);
    if (files.empty()) {
        std::string where;
        for (const std::string& p : paths) where += (where.empty() ? "" : ", ") + p;
        std::fprintf(stderr, "esview check: no model files found in %s\n", where.c_str());
        return kExitBadInput;
    }
    // Results in path order as each one's predecessors are done: the same output for any number of jobs.
    size_t ok = 0, failed = 0, warnings = 0, overBudget = 0;
    runInIndexOrder<CheckResult>(
        files.size(), jobs, [&](size_t i) { return checkFile(files[i], budget); },
        [&](size_t, CheckResult& r) {
            (r.ok() ? ok : !r.problems.empty() ? failed : overBudget) += 1;
            warnings += r.warnings.size();
            if (json) {
                std::cout << checkResultJson(r).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n" << std::flush;
            } else {
                printText(r);
                std::fflush(stdout);
                std::fflush(stderr);
            }
        });

    if (json) {
        nlohmann::ordered_json summary = {{"files", files.size()}, {"ok", ok}, {"failed", failed}, {"warnings", warnings}};
        if (budget) summary["over_budget"] = overBudget;
        std::cout << nlohmann::ordered_json{{"summary", summary}}.dump() << "\n";
    } else if (files.size() != 1) {
        std::printf("checked %s: %zu ok, %zu with problems, %s%s\n", plural(files.size(), "file").c_str(), ok, failed,
                    budget ? (std::to_string(overBudget) + " over budget, ").c_str() : "",
                    plural(warnings, "warning").c_str());
    }
    return failed == 0 && overBudget == 0 ? kExitOk : kExitBadInput;
}

namespace {

// `check`, with its budget read first (a budget that cannot be read is a usage error).
int runCheckCommand(const std::vector<std::string>& paths, bool json, int jobs, const std::string& device,
                    const std::string& budgetFile) {
    if (budgetFile.empty()) return runCheck(paths, json, jobs);
    BudgetOptions budget;
    budget.device = findDevice(device);
    std::ifstream in(budgetFile, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string error;
    if (!parseBudget(text, budget.budget, error)) {
        std::fprintf(stderr, "esview check: %s: %s\n", budgetFile.c_str(), error.c_str());
        return kExitUsage;
    }
    return runCheck(paths, json, jobs, &budget);
}

}  // namespace

Subcommand addCheckCommand(CLI::App& app) {
    struct Args {
        std::vector<std::string> paths;
        bool json = false;
        int jobs = 0;
        std::string device = "ge8320", budget;
    };
    auto args = std::make_shared<Args>();
    CLI::App* check = app.add_subcommand(
        "check", "Validate files and folders (recursive); list every problem with its byte offset or line");
    check
        ->add_option("PATH", args->paths,
                     "Model files, FreeSpace VP archives (the archive itself) or folders (their models and archives, "
                     "recursively, with the models inside the archives)")
        ->required();
    check->add_flag("--json", args->json, "One JSON line per file, then a summary line");
    check->add_option("--jobs", args->jobs, "Files checked at once (default: one per core)")->check(CLI::Range(1, 256));
    check->add_option("--device", args->device, "With --budget: the device profile the files are costed on (default ge8320)")
        ->check(checkDeviceName);
    check->add_option("--budget", args->budget,
                      "A JSON file of limits (triangles, draws, vertices, vertex_bytes, texture_bytes, "
                      "bones_per_batch, texture_size): each one a file exceeds fails it")
        ->check(CLI::ExistingFile);
    return {check, [args] { return runCheckCommand(args->paths, args->json, args->jobs, args->device, args->budget); }};
}

}  // namespace esv
