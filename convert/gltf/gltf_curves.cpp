#include "convert/gltf/gltf_curves.h"

#include <algorithm>
#include <cmath>

namespace esv::gltf {

bool timeCurveIsLinear(const Track& track) {
    const size_t n = track.times.size();
    if (track.inTimes.empty() && track.outTimes.empty()) return true;
    if (track.inTimes.size() < n || track.outTimes.size() < n) return false;
    for (size_t k = 0; k + 1 < n; ++k) {
        const float t0 = track.times[k], t1 = track.times[k + 1];
        const float h = t1 - t0;
        const float tolerance = 1e-4f * std::max(h, 1e-3f);
        if (std::fabs(track.outTimes[k] - (t0 + h / 3.0f)) > tolerance) return false;
        if (std::fabs(track.inTimes[k + 1] - (t1 - h / 3.0f)) > tolerance) return false;
    }
    return true;
}

bool bezierToCubicSpline(const Track& track, float timeOffset, std::vector<float>& times,
                         std::vector<float>& outputs) {
    const size_t n = track.times.size();
    const size_t comps = track.components;
    if (track.interpolation != Interpolation::Bezier || n == 0 || comps == 0) return false;
    if (track.values.size() < n * comps || track.inValues.size() < n * comps ||
        track.outValues.size() < n * comps)
        return false;
    if (!timeCurveIsLinear(track)) return false;
    for (size_t k = 0; k + 1 < n; ++k)
        if (!(track.times[k + 1] > track.times[k])) return false;
    times.resize(n);
    outputs.assign(n * comps * 3, 0.0f);
    for (size_t k = 0; k < n; ++k) {
        times[k] = track.times[k] - timeOffset;
        float* in = &outputs[(k * 3 + 0) * comps];
        float* value = &outputs[(k * 3 + 1) * comps];
        float* out = &outputs[(k * 3 + 2) * comps];
        for (size_t c = 0; c < comps; ++c) {
            const float p = track.values[k * comps + c];
            value[c] = p;
            if (k > 0)
                in[c] = 3.0f * (p - track.inValues[k * comps + c]) / (track.times[k] - track.times[k - 1]);
            if (k + 1 < n)
                out[c] = 3.0f * (track.outValues[k * comps + c] - p) / (track.times[k + 1] - track.times[k]);
        }
    }
    return true;
}

void evaluateCubicSpline(const std::vector<float>& times, const std::vector<float>& outputs,
                         uint32_t components, float seconds, float* out) {
    const size_t n = times.size();
    const size_t comps = components;
    if (n == 0 || outputs.size() < n * comps * 3) {
        std::fill(out, out + comps, 0.0f);
        return;
    }
    auto value = [&](size_t k) { return &outputs[(k * 3 + 1) * comps]; };
    if (n == 1 || seconds <= times[0]) {
        std::copy(value(0), value(0) + comps, out);
        return;
    }
    if (seconds >= times[n - 1]) {
        std::copy(value(n - 1), value(n - 1) + comps, out);
        return;
    }
    const size_t k = size_t(std::upper_bound(times.begin(), times.end(), seconds) - times.begin()) - 1;
    const float td = times[k + 1] - times[k];
    const float t = (seconds - times[k]) / td;
    const float t2 = t * t, t3 = t2 * t;
    const float* p0 = value(k);
    const float* b0 = &outputs[(k * 3 + 2) * comps];
    const float* p1 = value(k + 1);
    const float* a1 = &outputs[((k + 1) * 3 + 0) * comps];
    for (size_t c = 0; c < comps; ++c)
        out[c] = (2 * t3 - 3 * t2 + 1) * p0[c] + td * (t3 - 2 * t2 + t) * b0[c] + (-2 * t3 + 3 * t2) * p1[c] +
                 td * (t3 - t2) * a1[c];
}

}  // namespace esv::gltf
