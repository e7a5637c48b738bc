// `esview convert IN OUT.pod`: the scene written as POD shaped for the device (what PVRGeoPOD
// does): bone batches for a palette budget, interleaved or separate streams, per-attribute
// quantisation with the error it introduced reported, vertex-cache order, strips, fixed point.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace esv {

struct Scene;

struct PodConvertOptions {
    bool separate = false;  // one array per attribute instead of one interleaved buffer
};

// Adds the POD options (group "To POD") to the convert subcommand.
void addPodConvertOptions(CLI::App* convert, PodConvertOptions& options);

// Shapes `scene` (as loaded from `input`) and writes it to `output`. Prints what it changed and the
// error each quantisation introduced on stdout, a refusal as one line on stderr. Returns an ExitCode.
int convertToPod(Scene& scene, const std::string& input, const std::string& output,
                 const std::vector<std::string>& texturePaths, const PodConvertOptions& options);

}  // namespace esv
