// `esview convert IN OUT [options]`: any format esview reads (or `demo`) to POD shaped for the
// device (app/cli/convert_pod.h) or to glTF 2.0 (app/cli/convert_gltf.h); OUT's extension picks which.
#pragma once

#include "app/cli/commands.h"

namespace esv {

// Adds the `convert` subcommand with the options of both targets to `app`.
Subcommand addConvertCommand(CLI::App& app);

}  // namespace esv
