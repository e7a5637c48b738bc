// Animations of the glTF writer (gltf_writer_internal.h): tracks glTF holds exactly as channels of
// their own, every other curve resampled.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "convert/gltf/gltf_curves.h"
#include "convert/gltf/gltf_writer_internal.h"

namespace esv::gltf {

// A clip's tracks sorted: those glTF holds exactly as channels of their own, and per node whether
// its translation, rotation and scale, or its morph weights, are resampled instead.
struct ClipTracks {
    std::vector<uint8_t> resampleTrs, resampleWeights;
    std::vector<const Track*> exact;
};

// A clip's resampled curves at the sample times: per node translation, rotation, scale and weights
// (those resampled), and per aimed camera its child's translation and rotation.
struct ClipSamples {
    std::vector<std::vector<float>> tr, rot, sc, w;
    std::vector<std::vector<float>> aimT, aimR;
};

namespace {

void continuousQuaternions(std::vector<float>& q) {
    for (size_t k = 0; k + 4 <= q.size(); k += 4) {
        glm::quat r(q[k + 3], q[k], q[k + 1], q[k + 2]);
        const float len = glm::length(r);
        r = len > 0.0f && std::isfinite(len) ? r / len : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
        if (k >= 4) {
            const glm::quat prev(q[k - 1], q[k - 4], q[k - 3], q[k - 2]);
            if (glm::dot(prev, r) < 0.0f) r = -r;
        }
        q[k] = r.x;
        q[k + 1] = r.y;
        q[k + 2] = r.z;
        q[k + 3] = r.w;
    }
}

// Sample times from 0 to the clip's duration at `fps`, the last one the end itself.
std::vector<float> sampleTimes(double duration, double fps) {
    const size_t steps = size_t(std::ceil(duration * fps - 1e-4));
    std::vector<float> times;
    for (size_t k = 0; k <= steps; ++k) times.push_back(float(std::min(double(k) / fps, duration)));
    if (times.size() > 1 && times[times.size() - 1] <= times[times.size() - 2]) times.pop_back();
    return times;
}

// The clip's length in seconds (0 when not a positive finite number).
double clipDuration(const Clip& clip) {
    double duration = double(clip.end) - double(clip.start);
    if (!(duration > 0.0) || !std::isfinite(duration)) duration = 0.0;
    return duration;
}

// True when the values (`n` per sample) differ from the first sample's anywhere.
bool varies(const std::vector<float>& v, size_t n) {
    for (size_t k = n; k < v.size(); ++k)
        if (std::fabs(v[k] - v[k % n]) > 1e-4f * std::max(1.0f, std::fabs(v[k % n]))) return true;
    return false;
}

}  // namespace

bool Writer::exactTrack(const Track& t, const Clip& clip, bool allowBezier) const {
    const size_t n = t.times.size();
    if (n == 0 || t.components == 0 || t.values.size() < n * t.components) return false;
    for (size_t k = 0; k + 1 < n; ++k)
        if (!(t.times[k + 1] > t.times[k])) return false;
    if (t.times.front() < clip.start - 1e-5f || t.times.back() > clip.end + 1e-4f) return false;
    if (!gltf::timeCurveIsLinear(t)) return false;
    if (t.interpolation == Interpolation::Step || t.interpolation == Interpolation::Linear) return true;
    return allowBezier && t.interpolation == Interpolation::Bezier && t.inValues.size() >= n * t.components &&
           t.outValues.size() >= n * t.components;
}

int Writer::timesAccessor(std::vector<float> times) {
    for (float& t : times) t = std::max(t, 0.0f);
    return addAccessor(times, 1, {}, true, 0);
}

void Writer::addChannel(Json& channels, Json& samplers, int node, const char* path, int input, int output,
                        const char* interpolation) {
    samplers.push_back({{"input", input}, {"output", output}, {"interpolation", interpolation}});
    channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", node}, {"path", path}}}});
}

// Weight keys of a MorphWeights track (`cubic`: in-tangent, value, out-tangent per key) as glTF
// weights of the track's mesh.
std::vector<float> Writer::weightKeys(const Track& track, const std::vector<float>& keys, bool cubic) const {
    const Mesh& mesh = m_scene.meshes[m_scene.nodes[track.node].object];
    const size_t n = track.components;
    std::vector<float> out;
    for (size_t k = 0; k + n <= keys.size(); k += n) {
        const bool tangent = cubic && (k / n) % 3 != 1;
        const std::vector<float> w = gltfWeights(mesh, &keys[k], n, tangent);
        out.insert(out.end(), w.begin(), w.end());
    }
    return out;
}

// One glTF animation per clip: exact channels first, then the resampled ones.
void Writer::writeAnimations() {
    Pose pose;
    for (size_t c = 0; c < m_scene.animation.clips.size(); ++c) {
        const Clip& clip = m_scene.animation.clips[c];
        const std::string where = "clip '" + clip.name + "'";
        ClipTracks tracks;
        sortTracks(clip, where, tracks);
        Json channels = Json::array(), samplers = Json::array();
        writeExactChannels(clip, tracks, channels, samplers);
        writeResampledChannels(c, tracks, where, pose, channels, samplers);
        if (channels.empty()) {
            note(where + ": nothing glTF can animate: left out");
            continue;
        }
        m_animations.push_back({{"name", clip.name}, {"channels", channels}, {"samplers", samplers}});
    }
}

// Sorts the clip's tracks into exact ones and nodes to resample; notes the tracks glTF cannot hold.
void Writer::sortTracks(const Clip& clip, const std::string& where, ClipTracks& tracks) {
    const size_t count = m_scene.nodes.size();
    tracks.resampleTrs.assign(count, 0);
    tracks.resampleWeights.assign(count, 0);
    std::map<std::pair<int, int>, int> perTarget;
    for (const Track& t : clip.tracks) {
        if (t.node < 0 || size_t(t.node) >= count) {
            note(where + ": texture coordinate animation left out (glTF core has none)");
            continue;
        }
        const Node& node = m_scene.nodes[t.node];
        switch (t.channel) {
            case Channel::Translation:
            case Channel::Scale:
            case Channel::Rotation:
                if (node.elements.empty() && t.components == (t.channel == Channel::Rotation ? 4u : 3u) &&
                    exactTrack(t, clip, t.channel != Channel::Rotation)) {
                    tracks.exact.push_back(&t);
                    ++perTarget[{t.node, int(t.channel)}];
                } else {
                    tracks.resampleTrs[t.node] = 1;
                }
                break;
            case Channel::Matrix:
            case Channel::Element:
                tracks.resampleTrs[t.node] = 1;
                break;
            case Channel::MorphWeights:
            case Channel::MorphWeight: {
                auto targets = m_meshTargets.find(m_meshHolder[t.node]);
                if (targets == m_meshTargets.end() || targets->second == 0) break;
                if (t.channel == Channel::MorphWeights &&
                    t.components == m_scene.meshes[node.object].morphTargets.size() &&
                    exactTrack(t, clip, true)) {
                    tracks.exact.push_back(&t);
                    ++perTarget[{t.node, int(t.channel)}];
                } else {
                    tracks.resampleWeights[t.node] = 1;
                }
                break;
            }
            case Channel::CameraFov:
                note(where + ": camera field of view animation left out (glTF core has none)");
                break;
            case Channel::Visibility:
                note(where + ": visibility animation left out (glTF core has none)");
                break;
            default:
                note(where + ": texture coordinate animation left out (glTF core has none)");
                break;
        }
    }
    // Two tracks on one target cannot both be glTF channels: that node is resampled.
    for (const auto& [target, n] : perTarget)
        if (n > 1) {
            if (target.second == int(Channel::MorphWeights)) {
                tracks.resampleWeights[target.first] = 1;
            } else {
                tracks.resampleTrs[target.first] = 1;
            }
        }
}

// The exact tracks of nodes not resampled: STEP, LINEAR, or Bezier as CUBICSPLINE (gltf_curves.h).
void Writer::writeExactChannels(const Clip& clip, const ClipTracks& tracks, Json& channels, Json& samplers) {
    for (const Track* t : tracks.exact) {
        const bool weights = t->channel == Channel::MorphWeights;
        if (weights ? tracks.resampleWeights[t->node] : tracks.resampleTrs[t->node]) continue;
        const char* path = weights                              ? "weights"
                           : t->channel == Channel::Translation ? "translation"
                           : t->channel == Channel::Rotation    ? "rotation"
                                                                : "scale";
        const int target = weights ? m_meshHolder[t->node] : t->node;
        if (t->interpolation == Interpolation::Bezier) {
            std::vector<float> times, outputs;
            if (!gltf::bezierToCubicSpline(*t, clip.start, times, outputs)) continue;
            if (weights) outputs = weightKeys(*t, outputs, true);
            const int output = addAccessor(outputs, weights ? 1 : int(t->components), {}, false, 0);
            addChannel(channels, samplers, target, path, timesAccessor(times), output, "CUBICSPLINE");
            continue;
        }
        std::vector<float> times(t->times);
        for (float& time : times) time -= clip.start;
        std::vector<float> values(t->values.begin(),
                                  t->values.begin() + long(t->times.size() * t->components));
        if (t->channel == Channel::Rotation) continuousQuaternions(values);
        if (weights) values = weightKeys(*t, values, false);
        const int output = addAccessor(values, weights ? 1 : int(t->components), {}, false, 0);
        addChannel(channels, samplers, target, path, timesAccessor(times), output,
                   t->interpolation == Interpolation::Step ? "STEP" : "LINEAR");
    }
}

// The resampled nodes and the aimed cameras as LINEAR channels sharing one time accessor.
void Writer::writeResampledChannels(size_t clipIndex, const ClipTracks& tracks, const std::string& where,
                                    Pose& pose, Json& channels, Json& samplers) {
    const bool anyResampled =
        std::find(tracks.resampleTrs.begin(), tracks.resampleTrs.end(), 1) != tracks.resampleTrs.end() ||
        std::find(tracks.resampleWeights.begin(), tracks.resampleWeights.end(), 1) !=
            tracks.resampleWeights.end();
    if (!anyResampled && m_aimedCameras.empty()) return;
    const Clip& clip = m_scene.animation.clips[clipIndex];
    const double fps = resampleRate(clip, where);
    const std::vector<float> times = sampleTimes(clipDuration(clip), fps);
    ClipSamples samples;
    sampleClip(clipIndex, times, tracks, pose, samples);
    int input = -1;
    writeAimChannels(samples, times, input, where, channels, samplers);
    writeNodeChannels(samples, tracks, times, input, channels, samplers);
    if (anyResampled) {
        char rate[32];
        std::snprintf(rate, sizeof rate, "%g", fps);
        note(where + ": curves glTF cannot hold exactly resampled at " + rate + " frames per second");
    }
}

// The option's rate, lowered (with a note) where a clip hours long would make samples without bound.
double Writer::resampleRate(const Clip& clip, const std::string& where) {
    double fps = m_options.resampleFps > 0.0 ? m_options.resampleFps : 30.0;
    const double duration = clipDuration(clip);
    constexpr double kMaxSamples = 65536.0;
    if (duration * fps > kMaxSamples) {
        fps = kMaxSamples / duration;
        char rate[32];
        std::snprintf(rate, sizeof rate, "%g", fps);
        note(where + ": resampled at " + rate + " frames per second to stay within 65536 samples");
    }
    return fps;
}

// Evaluates the clip at each sample time into `samples`.
void Writer::sampleClip(size_t clipIndex, const std::vector<float>& times, const ClipTracks& tracks,
                        Pose& pose, ClipSamples& samples) {
    const size_t count = m_scene.nodes.size();
    const Clip& clip = m_scene.animation.clips[clipIndex];
    for (auto* curves : {&samples.tr, &samples.rot, &samples.sc, &samples.w}) curves->resize(count);
    samples.aimT.resize(m_aimedCameras.size());
    samples.aimR.resize(m_aimedCameras.size());
    for (float time : times) {
        evaluatePose(m_scene, int(clipIndex), clip.start + time, pose);
        // A camera aiming at a target turns as either moves: its child follows.
        for (size_t a = 0; a < m_aimedCameras.size(); ++a) {
            const Trs aim = decompose(helperTransform(m_scene, pose, size_t(m_aimedCameras[a].first)));
            samples.aimT[a].insert(samples.aimT[a].end(), {aim.t.x, aim.t.y, aim.t.z});
            samples.aimR[a].insert(samples.aimR[a].end(), {aim.r.x, aim.r.y, aim.r.z, aim.r.w});
        }
        for (size_t i = 0; i < count; ++i) {
            if (tracks.resampleTrs[i]) {
                const Trs trs = trsOf(pose.local[i]);
                samples.tr[i].insert(samples.tr[i].end(), {trs.t.x, trs.t.y, trs.t.z});
                samples.rot[i].insert(samples.rot[i].end(), {trs.r.x, trs.r.y, trs.r.z, trs.r.w});
                samples.sc[i].insert(samples.sc[i].end(), {trs.s.x, trs.s.y, trs.s.z});
            }
            if (tracks.resampleWeights[i]) {
                const std::vector<float> none;
                const std::vector<float>& esv = i < pose.morphWeights.size() ? pose.morphWeights[i] : none;
                const std::vector<float> weights =
                    gltfWeights(m_scene.meshes[m_scene.nodes[i].object], esv.data(), esv.size(), false);
                samples.w[i].insert(samples.w[i].end(), weights.begin(), weights.end());
            }
        }
    }
}

// The time accessor of the resampled channels, added at its first use (`input` -1 until then).
int Writer::sampleTimesAccessor(const std::vector<float>& times, int& input) {
    if (input < 0) input = timesAccessor(times);
    return input;
}

// Aimed cameras whose child moves or turns during the clip: its translation and rotation.
void Writer::writeAimChannels(ClipSamples& samples, const std::vector<float>& times, int& input,
                              const std::string& where, Json& channels, Json& samplers) {
    for (size_t a = 0; a < m_aimedCameras.size(); ++a) {
        continuousQuaternions(samples.aimR[a]);
        if (!varies(samples.aimT[a], 3) && !varies(samples.aimR[a], 4)) continue;
        const int translation = addAccessor(samples.aimT[a], 3, {}, false, 0);
        addChannel(channels, samplers, m_aimedCameras[a].second, "translation", sampleTimesAccessor(times, input),
                   translation, "LINEAR");
        const int rotation = addAccessor(samples.aimR[a], 4, {}, false, 0);
        addChannel(channels, samplers, m_aimedCameras[a].second, "rotation", sampleTimesAccessor(times, input),
                   rotation, "LINEAR");
        note(where + ": camera '" + m_scene.nodes[m_aimedCameras[a].first].name +
             "' turning towards its target resampled");
    }
}

// Per resampled node: translation, rotation and scale, and the weights of the node holding its mesh.
void Writer::writeNodeChannels(ClipSamples& samples, const ClipTracks& tracks,
                               const std::vector<float>& times, int& input, Json& channels, Json& samplers) {
    for (size_t i = 0; i < m_scene.nodes.size(); ++i) {
        if (tracks.resampleTrs[i]) {
            continuousQuaternions(samples.rot[i]);
            const int translation = addAccessor(samples.tr[i], 3, {}, false, 0);
            addChannel(channels, samplers, int(i), "translation", sampleTimesAccessor(times, input), translation,
                       "LINEAR");
            const int rotation = addAccessor(samples.rot[i], 4, {}, false, 0);
            addChannel(channels, samplers, int(i), "rotation", sampleTimesAccessor(times, input), rotation, "LINEAR");
            const int scale = addAccessor(samples.sc[i], 3, {}, false, 0);
            addChannel(channels, samplers, int(i), "scale", sampleTimesAccessor(times, input), scale, "LINEAR");
        }
        if (tracks.resampleWeights[i]) {
            const int weights = addAccessor(samples.w[i], 1, {}, false, 0);
            addChannel(channels, samplers, m_meshHolder[i], "weights", sampleTimesAccessor(times, input), weights,
                       "LINEAR");
        }
    }
}

}  // namespace esv::gltf
