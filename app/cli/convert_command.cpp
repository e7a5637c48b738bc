#include "app/cli/convert_command.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/check_command.h"
#include "app/cli/convert_gltf.h"
#include "app/cli/convert_notes.h"
#include "app/cli/convert_pod.h"
#include "app/cli/ordered_jobs.h"
#include "app/viewer/scene_source.h"
#include "convert/pod/pod_shape.h"
#include "loaders/archive/vp_archive.h"
#include "loaders/textures/texture_lookup.h"

namespace esv {
namespace {

namespace fs = std::filesystem;

struct ConvertArgs {
    std::string input, output;
    std::vector<std::string> texturePaths;
    PodConvertOptions pod;
    GltfConvertOptions gltf;
    // Batch conversion (IN a folder):
    std::string to;     // pod, glb or gltf
    int jobs = 0;       // 0: one per core
    bool json = false;  // one JSON line per file, then a summary
    std::string shard;  // "K/N": the K-th of N parts of the file list
};

std::string lowerExtension(const std::string& path) {
    size_t slash = path.find_last_of("/\\");
    size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

// What convert writes: one row per output extension, the converter it dispatches to. The POD row is
// the format table's POD row (loaders/format_table.h), the one readable format with a writer; glTF
// is written only. The command line's choices, its messages and the dispatch all read this table.
struct ConvertTarget {
    std::string extension;
    int (*convert)(Scene& scene, const std::string& input, const std::string& output, const ConvertArgs& args,
                   ConvertLog& log);
};

const std::vector<ConvertTarget>& convertTargets() {
    static const std::vector<ConvertTarget> kTargets = [] {
        std::vector<ConvertTarget> targets;
        for (const FormatInfo& f : formats())
            if (f.write && f.id == FileFormat::Pod)
                targets.push_back({f.extensions.front(), [](Scene& scene, const std::string& input,
                                                            const std::string& output, const ConvertArgs& args,
                                                            ConvertLog& log) {
                                       return convertToPod(scene, input, output, args.texturePaths, args.pod, log);
                                   }});
        targets.push_back({"gltf", [](Scene& scene, const std::string& input, const std::string& output,
                                      const ConvertArgs& args, ConvertLog& log) {
                               return convertToGltf(scene, input, output, false, args.texturePaths, args.gltf, log);
                           }});
        targets.push_back({"glb", [](Scene& scene, const std::string& input, const std::string& output,
                                     const ConvertArgs& args, ConvertLog& log) {
                               return convertToGltf(scene, input, output, true, args.texturePaths, args.gltf, log);
                           }});
        return targets;
    }();
    return kTargets;
}

const ConvertTarget* convertTargetFor(const std::string& extension) {
    for (const ConvertTarget& t : convertTargets())
        if (t.extension == extension) return &t;
    return nullptr;
}

// The targets' extensions for a sentence: each as `before` + extension, `last` before the final one.
std::string targetList(const std::string& before, const std::string& last) {
    std::string list;
    const std::vector<ConvertTarget>& all = convertTargets();
    for (size_t i = 0; i < all.size(); ++i)
        list += (i == 0 ? "" : i + 1 == all.size() ? last : ", ") + before + all[i].extension;
    return list;
}

// Loads `input` and converts it to `output` (its extension picks the target), saying everything in `log`.
int convertOne(const ConvertArgs& args, const std::string& input, const std::string& output, ConvertLog& log) {
    const ConvertTarget* target = convertTargetFor(lowerExtension(output));
    LoadResult loaded = openScene(input);
    if (!loaded.scene) {
        for (const Problem& p : loaded.problems) appendf(log.err, "%s\n", p.format().c_str());
        return kExitBadInput;
    }
    if (!target) {
        appendf(log.err, "%s: the output must end in %s\n", output.c_str(), targetList(".", " or ").c_str());
        return kExitUsage;
    }
    return target->convert(*loaded.scene, input, output, args, log);
}

// 64-bit FNV-1a: a hash of the relative path that is the same on every machine and every run, so that
// shards split a library the same way wherever they run.
uint64_t stableHash(const std::string& text) {
    uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    return h;
}

// "K/N" with 1 <= K <= N.
bool parseShard(const std::string& text, uint64_t& k, uint64_t& n) {
    const size_t slash = text.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 >= text.size()) return false;
    for (size_t i = 0; i < text.size(); ++i)
        if (i != slash && !std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    if (slash > 9 || text.size() - slash - 1 > 9) return false;
    k = std::stoull(text.substr(0, slash));
    n = std::stoull(text.substr(slash + 1));
    return n >= 1 && k >= 1 && k <= n;
}

// One file of a batch: the model (a file, or `archive.vp:inner`), its path relative to the folder
// converted (what the shard hash and the output mirror), and the output.
struct BatchFile {
    std::string input, relative, output;
};

// The file a model's modification time is taken from (the archive for `archive.vp:inner`).
std::string timeSource(const std::string& input) {
    ArchivePath split;
    return splitArchivePath(input, split) ? split.archive : input;
}

bool newer(const fs::path& output, const std::string& input, fs::file_time_type& outputTime) {
    std::error_code ec;
    outputTime = fs::last_write_time(output, ec);
    if (ec) return false;
    const fs::file_time_type inputTime = fs::last_write_time(timeSource(input), ec);
    return !ec && outputTime >= inputTime;
}

// True when `output` is newer than the model and every texture file it names (looked up as the
// viewer looks them up); false when anything is missing or newer.
bool upToDate(const ConvertArgs& args, const BatchFile& f) {
    fs::file_time_type outputTime;
    if (!newer(f.output, f.input, outputTime)) return false;
    LoadOptions options;
    LoadResult loaded = openScene(f.input, options);
    if (!loaded.scene) return false;
    for (const Texture& t : loaded.scene->textures) {
        if (!t.embedded.empty()) continue;
        const std::string found = resolveTexturePath(f.input, t.path, nullptr, args.texturePaths);
        if (found.empty()) continue;  // missing: converting again cannot find it either
        std::error_code ec;
        const fs::file_time_type when = fs::last_write_time(timeSource(found), ec);
        if (ec || when > outputTime) return false;
    }
    return true;
}

std::vector<BatchFile> batchFiles(const ConvertArgs& args, const std::string& ext) {
    std::vector<BatchFile> out;
    const fs::path root(args.input);
    for (const std::string& path : expandCheckPaths({args.input})) {
        if (isVpFileName(path)) continue;  // its models follow as archive.vp:inner entries
        ArchivePath split;
        std::string relative;
        if (splitArchivePath(path, split)) {
            // ships/data.vp:data/models/x.pof mirrors as ships/data/data/models/x.pof
            fs::path archive = fs::path(split.archive).lexically_relative(root);
            archive.replace_extension();
            relative = (archive / split.inner).generic_string();
        } else {
            relative = fs::path(path).lexically_relative(root).generic_string();
        }
        fs::path target = fs::path(args.output) / relative;
        target.replace_extension("." + ext);
        out.push_back({path, relative, target.string()});
    }
    return out;
}

// What became of one file of a batch.
struct BatchResult {
    std::string status;  // converted, up to date, refused
    int exitCode = 0;
    ConvertLog log;
    double milliseconds = 0.0;
};

// Splits a log's text into its lines.
nlohmann::ordered_json lines(const std::string& text) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

int runBatch(const ConvertArgs& args) {
    std::string ext = args.to;
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (!convertTargetFor(ext)) {
        std::fprintf(stderr, "esview convert: %s is a folder: %s says what to convert its models to\n",
                     args.input.c_str(), targetList("--to ", " or ").c_str());
        return kExitUsage;
    }
    uint64_t shardK = 1, shardN = 1;
    if (!args.shard.empty() && !parseShard(args.shard, shardK, shardN)) {
        std::fprintf(stderr, "esview convert: --shard %s: expected K/N with 1 <= K <= N (the K-th of N parts)\n",
                     args.shard.c_str());
        return kExitUsage;
    }
    std::error_code ec;
    if (fs::exists(args.output, ec) && !fs::is_directory(args.output, ec)) {
        std::fprintf(stderr, "esview convert: %s: converting a folder needs a folder to write to\n",
                     args.output.c_str());
        return kExitUsage;
    }
    std::vector<BatchFile> files;
    for (BatchFile& f : batchFiles(args, ext))
        if (stableHash(f.relative) % shardN == shardK - 1) files.push_back(std::move(f));
    if (files.empty()) {
        std::fprintf(stderr, "esview convert: %s: no model files found%s\n", args.input.c_str(),
                     shardN > 1 ? " in this shard" : "");
        return shardN > 1 ? kExitOk : kExitBadInput;
    }

    // Printed in path order as each file's predecessors finish: the same output for any --jobs.
    size_t converted = 0, current = 0, refused = 0;
    runInIndexOrder<BatchResult>(
        files.size(), args.jobs,
        [&](size_t i) {
            const auto start = std::chrono::steady_clock::now();
            BatchResult r;
            const BatchFile& f = files[i];
            if (upToDate(args, f)) {
                r.status = "up to date";
            } else {
                std::error_code dirError;
                fs::create_directories(fs::path(f.output).parent_path(), dirError);
                r.exitCode = convertOne(args, f.input, f.output, r.log);
                r.status = r.exitCode == kExitOk ? "converted" : "refused";
            }
            r.milliseconds =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            return r;
        },
        [&](size_t i, BatchResult& r) {
            (r.status == "converted" ? converted : r.status == "up to date" ? current : refused) += 1;
            if (args.json) {
                nlohmann::ordered_json j = {{"path", files[i].input},       {"output", files[i].output},
                                            {"status", r.status},           {"notes", lines(r.log.out)},
                                            {"problems", lines(r.log.err)}, {"ms", r.milliseconds}};
                std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n" << std::flush;
                return;
            }
            if (r.status == "up to date") {
                std::printf("%s: up to date (%s)\n", files[i].input.c_str(), files[i].output.c_str());
            } else {
                std::fputs(r.log.out.c_str(), stdout);
                std::fputs(r.log.err.c_str(), stderr);
            }
            std::fflush(stdout);
            std::fflush(stderr);
        });
    if (args.json) {
        std::cout << nlohmann::ordered_json{{"summary",
                                             {{"files", files.size()},
                                              {"converted", converted},
                                              {"up_to_date", current},
                                              {"refused", refused}}}}
                         .dump()
                  << "\n";
    } else {
        std::printf("converted %zu %s to %s: %zu written, %zu up to date, %zu refused\n", files.size(),
                    files.size() == 1 ? "file" : "files", ext.c_str(), converted, current, refused);
    }
    return refused == 0 ? kExitOk : kExitBadInput;
}

int runConvert(ConvertArgs& args) {
    // Options checked once, before any file (a batch would otherwise say it per file).
    for (const std::string& item : args.pod.quantize) {
        PodQuantize q;
        std::string error;
        if (!parsePodQuantize(item, q, error)) {
            std::fprintf(stderr, "esview convert: %s\n", error.c_str());
            return kExitUsage;
        }
    }
    std::error_code ec;
    if (fs::is_directory(args.input, ec)) return runBatch(args);
    if (!args.shard.empty()) {
        std::fprintf(stderr, "esview convert: --shard splits the files of a folder; %s is a file\n",
                     args.input.c_str());
        return kExitUsage;
    }
    const std::string ext = lowerExtension(args.output);
    if (!convertTargetFor(ext)) {
        std::fprintf(stderr, "esview convert: %s: the output must end in %s\n", args.output.c_str(),
                     targetList(".", " or ").c_str());
        return kExitUsage;
    }
    if (!args.to.empty() && args.to != ext) {
        std::fprintf(stderr, "esview convert: --to %s but the output %s ends in .%s\n", args.to.c_str(),
                     args.output.c_str(), ext.c_str());
        return kExitUsage;
    }
    ConvertLog log;
    const int status = convertOne(args, args.input, args.output, log);
    std::fputs(log.out.c_str(), stdout);
    std::fputs(log.err.c_str(), stderr);
    return status;
}

}  // namespace

Subcommand addConvertCommand(CLI::App& app) {
    auto args = std::make_shared<ConvertArgs>();
    CLI::App* cmd = app.add_subcommand(
        "convert",
        "Convert a model to POD shaped for the device (.pod) or to glTF 2.0 (.gltf with .bin, or .glb); or every "
        "model under a folder into another folder (--to)");
    cmd->add_option("IN", args->input,
                    "Model file (archive.vp:path/model.pof inside a VP archive), 'demo', or a folder of models")
        ->required();
    cmd->add_option("OUT", args->output,
                    "Output file, whose extension picks the format (" + targetList(".", " or ") +
                        "); for a folder IN, the folder the converted tree is written to")
        ->required();
    cmd->add_option("--texture-path", args->texturePaths,
                    "Also look for textures in this folder, after the model's own (repeatable)")
        ->check(CLI::ExistingDirectory);
    std::vector<std::string> extensions;
    for (const ConvertTarget& t : convertTargets()) extensions.push_back(t.extension);
    cmd->add_option("--to", args->to, "Folder IN: the format to convert to (" + targetList("", " or ") + ")")
        ->check(CLI::IsMember(extensions, CLI::ignore_case))
        ->group("Folders");
    cmd->add_option("--jobs", args->jobs, "Folder IN: files converted at once (default: one per core)")
        ->check(CLI::Range(1, 1024))
        ->group("Folders");
    cmd->add_flag("--json", args->json,
                  "Folder IN: one JSON line per file (path, output, status, notes, problems, ms), then a summary")
        ->group("Folders");
    cmd->add_option("--shard", args->shard,
                    "Folder IN: convert only the K-th of N parts of the file list (K/N; a file's part is a stable "
                    "hash of its path relative to IN), so N machines split a library with no coordinator")
        ->group("Folders");
    addPodConvertOptions(cmd, args->pod);
    addGltfConvertOptions(cmd, args->gltf);
    return {cmd, [args] { return runConvert(*args); }};
}

}  // namespace esv
