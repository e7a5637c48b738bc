#include "app/viewer/transport.h"

#include <algorithm>
#include <cmath>

namespace esv {
namespace {

// Key times closer than this are one key (exporters write the same frame time through different
// float paths per track).
constexpr float kKeyEpsilon = 1e-5f;
// A time within this many frames of a grid line counts as on it, so a stored time of 14.9999997
// frames steps to frame 16, not 15.
constexpr float kFrameEpsilon = 1e-3f;

const Clip* clipAt(const Scene& scene, int clip) {
    if (clip < 0 || static_cast<size_t>(clip) >= scene.animation.clips.size()) return nullptr;
    return &scene.animation.clips[clip];
}

// x wrapped into [0, period]; period > 0. fmod keeps the cost independent of how far x is out.
float wrapTime(float x, float period) {
    float r = std::fmod(x, period);
    if (std::isnan(r)) return 0.0f;
    if (r < 0.0f) r += period;  // may round up to period itself, which is still inside the clip
    return std::clamp(r, 0.0f, period);
}

}  // namespace

const char* loopModeName(LoopMode mode) {
    switch (mode) {
        case LoopMode::Loop:
            return "loop";
        case LoopMode::Once:
            return "once";
        case LoopMode::PingPong:
            return "ping-pong";
    }
    return "?";
}

float transportFrameRate(const Scene& scene, int clip) {
    const Clip* c = clipAt(scene, clip);
    if (c && c->fps > 0.0f && std::isfinite(c->fps)) return c->fps;
    if (scene.animation.fps > 0.0f && std::isfinite(scene.animation.fps)) return scene.animation.fps;
    return 30.0f;
}

float transportDuration(const Scene& scene, int clip) {
    const Clip* c = clipAt(scene, clip);
    if (!c) return 0.0f;
    const float d = c->duration();
    return d > 0.0f && std::isfinite(d) ? d : 0.0f;
}

void selectClip(const Scene& scene, Transport& t, int clip) {
    t.clip = clipAt(scene, clip) ? clip : -1;
    t.time = t.speed < 0.0f ? transportDuration(scene, t.clip) : 0.0f;
    t.direction = 1;
    clearPlayRange(t);
}

void setPlayRange(const Scene& scene, Transport& t, float in, float out) {
    const float duration = transportDuration(scene, t.clip);
    if (!(duration > 0.0f) || std::isnan(in) || std::isnan(out)) return clearPlayRange(t);
    if (in > out) std::swap(in, out);
    t.range = true;
    t.rangeIn = std::clamp(in, 0.0f, duration);
    t.rangeOut = std::clamp(out, 0.0f, duration);
}

void clearPlayRange(Transport& t) {
    t.range = false;
    t.rangeIn = t.rangeOut = 0.0f;
}

void setRangePointAtTime(const Scene& scene, Transport& t, bool out) {
    const float duration = transportDuration(scene, t.clip);
    float lo = t.range ? t.rangeIn : 0.0f, hi = t.range ? t.rangeOut : duration;
    if (out) {
        hi = t.time;
        if (lo > hi) lo = 0.0f;
    } else {
        lo = t.time;
        if (hi < lo) hi = duration;
    }
    setPlayRange(scene, t, lo, hi);
}

void playBounds(const Scene& scene, const Transport& t, float& lo, float& hi) {
    const float duration = transportDuration(scene, t.clip);
    lo = 0.0f;
    hi = duration;
    if (t.range) {
        lo = std::clamp(t.rangeIn, 0.0f, duration);
        hi = std::clamp(t.rangeOut, lo, duration);
    }
}

void advanceTransport(const Scene& scene, Transport& t, float dt) {
    if (!t.playing) return;
    const float delta = dt * t.speed * static_cast<float>(t.direction < 0 ? -1 : 1);
    if (!std::isfinite(delta) || delta == 0.0f) return;

    // The blend clip follows the same clock but always loops in its own range.
    const float blendDuration = transportDuration(scene, t.blendClip);
    t.blendTime = blendDuration > 0.0f ? wrapTime(t.blendTime + delta, blendDuration) : 0.0f;

    float lo, hi;
    playBounds(scene, t, lo, hi);
    const float length = hi - lo;
    if (!(length > 0.0f)) {
        // Nothing to move through (rest pose, a single-instant clip or range): time stays at its
        // start, and Once has reached its end as soon as it moves.
        t.time = lo;
        if (t.loop == LoopMode::Once) t.playing = false;
        return;
    }
    // Times relative to the in point, so the clip's own range is the range [0, duration]. Back at
    // the in point, a sum is kept to the out point (lo + (hi - lo) may round above hi).
    const float time = std::clamp(t.time, lo, hi) - lo;
    switch (t.loop) {
        case LoopMode::Loop:
            t.time = std::min(lo + wrapTime(time + delta, length), hi);
            break;
        case LoopMode::Once: {
            const float next = time + delta;
            if (delta > 0.0f && next >= length) {
                t.time = hi;
                t.playing = false;
            } else if (delta < 0.0f && next <= 0.0f) {
                t.time = lo;
                t.playing = false;
            } else {
                t.time = std::min(lo + next, hi);
            }
            break;
        }
        case LoopMode::PingPong: {
            // Unfold the bounce into a cycle of 2 * length: phase p in [0, l] plays forwards
            // (time = p), p in [l, 2l] backwards (time = 2l - p). In phase, the clock moves by
            // dt * speed whatever the direction, so any dt is one fmod.
            const float period = 2.0f * length;
            const float phase = t.direction < 0 ? period - time : time;
            const float step = dt * t.speed;
            float p = wrapTime(phase + step, period);
            // On a turning point, take the half the clock moves into next.
            bool forwards;
            if (step > 0.0f) {
                if (p >= period) p = 0.0f;
                forwards = p < length;
            } else {
                if (p <= 0.0f) p = period;
                forwards = p <= length;
            }
            t.direction = forwards ? 1 : -1;
            t.time = std::clamp(lo + (forwards ? p : period - p), lo, hi);
            break;
        }
    }
}

void seekTransport(const Scene& scene, Transport& t, float seconds) {
    t.time = std::isnan(seconds) ? 0.0f : std::clamp(seconds, 0.0f, transportDuration(scene, t.clip));
}

void stepFrames(const Scene& scene, Transport& t, int frames) {
    t.playing = false;
    const float fps = transportFrameRate(scene, t.clip);
    const float frame = std::clamp(t.time, 0.0f, transportDuration(scene, t.clip)) * fps;
    // From between two grid lines, one step lands on the neighbouring line in that direction.
    double target;
    if (frames > 0) {
        target = std::floor(frame + kFrameEpsilon) + frames;
    } else if (frames < 0) {
        target = std::ceil(frame - kFrameEpsilon) + frames;
    } else {
        target = std::round(frame);
    }
    seekTransport(scene, t, static_cast<float>(target / fps));
}

std::vector<float> clipKeyTimes(const Scene& scene, int clip, int node) {
    std::vector<float> times;
    const Clip* c = clipAt(scene, clip);
    if (!c) return times;
    const float duration = transportDuration(scene, clip);
    for (const Track& track : c->tracks) {
        if (node >= 0 && track.node != node) continue;
        for (float key : track.times)
            if (std::isfinite(key)) times.push_back(std::clamp(key - c->start, 0.0f, duration));
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end(), [](float a, float b) { return b - a <= kKeyEpsilon; }),
                times.end());
    return times;
}

void stepKeys(const Scene& scene, Transport& t, int delta, int node) {
    t.playing = false;
    if (delta == 0) return;
    const std::vector<float> keys = clipKeyTimes(scene, t.clip, node);
    if (keys.empty()) return;
    const long n = static_cast<long>(keys.size());
    if (delta > 0) {
        // First key strictly after now; the current key itself (within the epsilon) is not "next".
        const long first = std::upper_bound(keys.begin(), keys.end(), t.time + kKeyEpsilon) - keys.begin();
        if (first == n) return;
        t.time = keys[std::min(first + delta - 1, n - 1)];
    } else {
        const long last = (std::lower_bound(keys.begin(), keys.end(), t.time - kKeyEpsilon) - keys.begin()) - 1;
        if (last < 0) return;
        t.time = keys[std::max(last + delta + 1, 0L)];
    }
}

void jumpToStart(const Scene& scene, Transport& t) {
    float lo, hi;
    playBounds(scene, t, lo, hi);
    t.time = lo;
}

void jumpToEnd(const Scene& scene, Transport& t) {
    float lo, hi;
    playBounds(scene, t, lo, hi);
    t.time = hi;
}

float transportFrame(const Scene& scene, const Transport& t) {
    return t.time * transportFrameRate(scene, t.clip);
}

int wholeFrame(float frame) {
    if (!std::isfinite(frame)) return 0;
    const float whole = std::round(frame);
    const float shown = std::abs(frame - whole) <= kFrameEpsilon ? whole : std::floor(frame);
    return static_cast<int>(std::clamp(shown, -2.0e9f, 2.0e9f));
}

void evaluateTransport(const Scene& scene, const Transport& t, Pose& pose, Pose& scratch) {
    const Clip* c = clipAt(scene, t.clip);
    evaluatePose(scene, c ? t.clip : -1, c ? c->start + t.time : 0.0f, pose);
    const Clip* blend = clipAt(scene, t.blendClip);
    if (!blend || !(t.blendWeight > 0.0f)) return;
    evaluatePose(scene, t.blendClip, blend->start + t.blendTime, scratch);
    blendPoses(scene, pose, scratch, t.blendWeight, pose);
}

}  // namespace esv
