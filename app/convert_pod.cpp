#include "app/convert_pod.h"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "app/commands.h"

namespace esv {

void addPodConvertOptions(CLI::App* convert, PodConvertOptions& options) {
    convert->add_flag("--separate", options.separate, "One array per attribute instead of one interleaved buffer")
        ->group("To POD");
}

int convertToPod(Scene&, const std::string&, const std::string& output, const std::vector<std::string>&,
                 const PodConvertOptions&) {
    std::fprintf(stderr, "esview convert: %s: POD output is not built yet\n", output.c_str());
    return kExitUsage;
}

}  // namespace esv
