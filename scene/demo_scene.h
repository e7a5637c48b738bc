// The built-in demo scene, generated in code: a skinned, animated object with a 6-bone chain in
// two bone batches, a morph target driven by animation, two materials, a point and a directional
// light and a camera. It is what `esview` shows with no file and what rendering tests draw first.
#pragma once

#include "scene/scene.h"

namespace esv {

// Builds the demo scene. Deterministic: every call returns the same scene.
Scene makeDemoScene();

}  // namespace esv
