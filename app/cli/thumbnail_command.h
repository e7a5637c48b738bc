// `esview thumbnail IN OUT.png [--size N] [--timeout S] [--memory MB]`: a framed, lit picture of
// the model, rendered headless, as a file manager's thumbnailer runs it (platforms/linux).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/cli/commands.h"

namespace esv {

struct ThumbnailRequest {
    std::string input;   // a model file, `archive.vp:path/model.pof`, or a VP archive (its first model)
    std::string output;  // the PNG; written only when the whole thumbnail succeeded
    int size = 256;      // width and height in pixels
    // Wall clock for reading and drawing, after which the work is killed: every shared sample takes
    // under a second cold (no shader cache, two busy cores), so ten leaves room for big files and
    // slow machines while a file manager never waits long.
    double timeoutSeconds = 10.0;
    // Address space of the process that reads and draws, in MiB: Mesa's llvmpipe with its compiler
    // takes about 300, the largest shared sample (an AWD with large textures) about 500.
    int memoryMiB = 2048;
};

// Makes the thumbnail: the reading and drawing run in a child process under `memoryMiB` of
// address space and `timeoutSeconds` of wall clock, which writes a temporary file beside the
// output; it is renamed to the output only on success. Returns an ExitCode (1, with one line per
// problem on stderr and no output file, when the input cannot be read or drawn within the caps).
int runThumbnail(const ThumbnailRequest& request);

// A thumbnail's pixels from the same frame drawn on black (`onBlack`) and on white (`onWhite`),
// both RGBA8 of `factor` x `size` pixels square: the background becomes transparent, each pixel's
// coverage its alpha (what the white showed through), and each `factor` x `factor` block one
// pixel. Returns size x size RGBA8 (straight alpha), top row first.
std::vector<uint8_t> composeThumbnail(const std::vector<uint8_t>& onBlack,
                                      const std::vector<uint8_t>& onWhite, int size, int factor);

// Adds the `thumbnail` subcommand to `app`.
Subcommand addThumbnailCommand(CLI::App& app);

}  // namespace esv
