// `esview thumbnail IN OUT.png [--size N]`: a framed, lit picture of the model, rendered headless,
// as a file manager's thumbnailer runs it (platforms/linux).
#pragma once

#include "app/commands.h"

namespace esv {

// Adds the `thumbnail` subcommand to `app`.
Subcommand addThumbnailCommand(CLI::App& app);

}  // namespace esv
