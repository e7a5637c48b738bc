// Animation curves as glTF holds them: which esview tracks map exactly onto a glTF sampler, and the
// Bezier -> CUBICSPLINE conversion. Pure CPU.
#pragma once

#include <vector>

#include "scene/scene.h"

namespace esv::gltf {

// True when the Bezier time curve of `track` (inTimes/outTimes) is linear in time: every control
// time lies at a third of its interval (within a small tolerance), or the track has none. A curve
// whose parameter is not linear in time has no exact glTF form.
bool timeCurveIsLinear(const Track& track);

// Converts a Bezier track (control values in inValues/outValues, linear time curve) to glTF
// CUBICSPLINE sampler data: `times` are the keys minus `timeOffset` (seconds), `outputs` holds per
// key in-tangent, value, out-tangent (components floats each), the tangents being derivatives per
// second: out_k = 3 (c_out_k - p_k) / (t_k+1 - t_k), in_k = 3 (p_k - c_in_k) / (t_k - t_k-1), zero at
// the ends. The Hermite curve glTF evaluates is then the same cubic as the Bezier segment. Returns
// false (outputs untouched) when the track is not Bezier, lacks control values, has a time curve
// that is not linear, or has keys that are not strictly increasing.
bool bezierToCubicSpline(const Track& track, float timeOffset, std::vector<float>& times,
                         std::vector<float>& outputs);

// Evaluates glTF CUBICSPLINE data (as bezierToCubicSpline writes it) at `seconds` into `out`
// (components floats), following the glTF 2.0 specification, appendix C; clamps outside the keys.
void evaluateCubicSpline(const std::vector<float>& times, const std::vector<float>& outputs,
                         uint32_t components, float seconds, float* out);

}  // namespace esv::gltf
