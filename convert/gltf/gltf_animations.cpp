// Animations of the glTF writer (gltf_writer_internal.h): tracks glTF holds exactly as channels of
// their own, every other curve resampled.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "convert/gltf/gltf_curves.h"
#include "convert/gltf/gltf_writer_internal.h"

namespace esv::gltf {
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

void Writer::writeAnimations() {
    const size_t count = m_scene.nodes.size();
    Pose pose;
    for (size_t c = 0; c < m_scene.animation.clips.size(); ++c) {
        const Clip& clip = m_scene.animation.clips[c];
        const std::string where = "clip '" + clip.name + "'";
        std::vector<uint8_t> resampleTrs(count, 0), resampleWeights(count, 0);
        std::vector<const Track*> exact;
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
                        exact.push_back(&t);
                        ++perTarget[{t.node, int(t.channel)}];
                    } else {
                        resampleTrs[t.node] = 1;
                    }
                    break;
                case Channel::Matrix:
                case Channel::Element:
                    resampleTrs[t.node] = 1;
                    break;
                case Channel::MorphWeights:
                case Channel::MorphWeight: {
                    auto targets = m_meshTargets.find(m_meshHolder[t.node]);
                    if (targets == m_meshTargets.end() || targets->second == 0) break;
                    if (t.channel == Channel::MorphWeights &&
                        t.components == m_scene.meshes[node.object].morphTargets.size() &&
                        exactTrack(t, clip, true)) {
                        exact.push_back(&t);
                        ++perTarget[{t.node, int(t.channel)}];
                    } else {
                        resampleWeights[t.node] = 1;
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
                    resampleWeights[target.first] = 1;
                } else {
                    resampleTrs[target.first] = 1;
                }
            }

        Json channels = Json::array(), samplers = Json::array();
        for (const Track* t : exact) {
            const bool weights = t->channel == Channel::MorphWeights;
            if (weights ? resampleWeights[t->node] : resampleTrs[t->node]) continue;
            const char* path = weights                              ? "weights"
                               : t->channel == Channel::Translation ? "translation"
                               : t->channel == Channel::Rotation    ? "rotation"
                                                                    : "scale";
            const int target = weights ? m_meshHolder[t->node] : t->node;
            if (t->interpolation == Interpolation::Bezier) {
                std::vector<float> times, outputs;
                if (!gltf::bezierToCubicSpline(*t, clip.start, times, outputs)) continue;
                if (weights) outputs = weightKeys(*t, outputs, true);
                addChannel(channels, samplers, target, path, timesAccessor(times),
                           addAccessor(outputs, weights ? 1 : int(t->components), {}, false, 0),
                           "CUBICSPLINE");
                continue;
            }
            std::vector<float> times(t->times);
            for (float& time : times) time -= clip.start;
            std::vector<float> values(t->values.begin(),
                                      t->values.begin() + long(t->times.size() * t->components));
            if (t->channel == Channel::Rotation) continuousQuaternions(values);
            if (weights) values = weightKeys(*t, values, false);
            addChannel(channels, samplers, target, path, timesAccessor(times),
                       addAccessor(values, weights ? 1 : int(t->components), {}, false, 0),
                       t->interpolation == Interpolation::Step ? "STEP" : "LINEAR");
        }

        const bool anyResampled =
            std::find(resampleTrs.begin(), resampleTrs.end(), 1) != resampleTrs.end() ||
            std::find(resampleWeights.begin(), resampleWeights.end(), 1) != resampleWeights.end();
        if (anyResampled || !m_aimedCameras.empty()) {
            double fps = m_options.resampleFps > 0.0 ? m_options.resampleFps : 30.0;
            double duration = double(clip.end) - double(clip.start);
            if (!(duration > 0.0) || !std::isfinite(duration)) duration = 0.0;
            // A clip hours long would make samples without bound: the rate drops to fit.
            constexpr double kMaxSamples = 65536.0;
            if (duration * fps > kMaxSamples) {
                fps = kMaxSamples / duration;
                char rate[32];
                std::snprintf(rate, sizeof rate, "%g", fps);
                note(where + ": resampled at " + rate + " frames per second to stay within 65536 samples");
            }
            const size_t steps = size_t(std::ceil(duration * fps - 1e-4));
            std::vector<float> times;
            for (size_t k = 0; k <= steps; ++k) times.push_back(float(std::min(double(k) / fps, duration)));
            if (times.size() > 1 && times[times.size() - 1] <= times[times.size() - 2]) times.pop_back();
            std::vector<std::vector<float>> tr(count), rot(count), sc(count), w(count);
            std::vector<std::vector<float>> aimT(m_aimedCameras.size()), aimR(m_aimedCameras.size());
            for (float time : times) {
                evaluatePose(m_scene, int(c), clip.start + time, pose);
                // A camera aiming at a target turns as either moves: its child follows.
                for (size_t a = 0; a < m_aimedCameras.size(); ++a) {
                    const Trs aim =
                        decompose(helperTransform(m_scene, pose, size_t(m_aimedCameras[a].first)));
                    aimT[a].insert(aimT[a].end(), {aim.t.x, aim.t.y, aim.t.z});
                    aimR[a].insert(aimR[a].end(), {aim.r.x, aim.r.y, aim.r.z, aim.r.w});
                }
                for (size_t i = 0; i < count; ++i) {
                    if (resampleTrs[i]) {
                        const Trs trs = trsOf(pose.local[i]);
                        tr[i].insert(tr[i].end(), {trs.t.x, trs.t.y, trs.t.z});
                        rot[i].insert(rot[i].end(), {trs.r.x, trs.r.y, trs.r.z, trs.r.w});
                        sc[i].insert(sc[i].end(), {trs.s.x, trs.s.y, trs.s.z});
                    }
                    if (resampleWeights[i]) {
                        const std::vector<float> none;
                        const std::vector<float>& esv =
                            i < pose.morphWeights.size() ? pose.morphWeights[i] : none;
                        const std::vector<float> weights = gltfWeights(
                            m_scene.meshes[m_scene.nodes[i].object], esv.data(), esv.size(), false);
                        w[i].insert(w[i].end(), weights.begin(), weights.end());
                    }
                }
            }
            int input = -1;
            auto inputAccessor = [&] {
                if (input < 0) input = timesAccessor(times);
                return input;
            };
            for (size_t a = 0; a < m_aimedCameras.size(); ++a) {
                continuousQuaternions(aimR[a]);
                auto varies = [](const std::vector<float>& v, size_t n) {
                    for (size_t k = n; k < v.size(); ++k)
                        if (std::fabs(v[k] - v[k % n]) > 1e-4f * std::max(1.0f, std::fabs(v[k % n])))
                            return true;
                    return false;
                };
                if (!varies(aimT[a], 3) && !varies(aimR[a], 4)) continue;
                addChannel(channels, samplers, m_aimedCameras[a].second, "translation", inputAccessor(),
                           addAccessor(aimT[a], 3, {}, false, 0), "LINEAR");
                addChannel(channels, samplers, m_aimedCameras[a].second, "rotation", inputAccessor(),
                           addAccessor(aimR[a], 4, {}, false, 0), "LINEAR");
                note(where + ": camera '" + m_scene.nodes[m_aimedCameras[a].first].name +
                     "' turning towards its target resampled");
            }
            for (size_t i = 0; i < count; ++i) {
                if (resampleTrs[i]) {
                    continuousQuaternions(rot[i]);
                    addChannel(channels, samplers, int(i), "translation", inputAccessor(),
                               addAccessor(tr[i], 3, {}, false, 0), "LINEAR");
                    addChannel(channels, samplers, int(i), "rotation", inputAccessor(),
                               addAccessor(rot[i], 4, {}, false, 0), "LINEAR");
                    addChannel(channels, samplers, int(i), "scale", inputAccessor(),
                               addAccessor(sc[i], 3, {}, false, 0), "LINEAR");
                }
                if (resampleWeights[i])
                    addChannel(channels, samplers, m_meshHolder[i], "weights", inputAccessor(),
                               addAccessor(w[i], 1, {}, false, 0), "LINEAR");
            }
            if (anyResampled) {
                char rate[32];
                std::snprintf(rate, sizeof rate, "%g", fps);
                note(where + ": curves glTF cannot hold exactly resampled at " + rate + " frames per second");
            }
        }
        if (channels.empty()) {
            note(where + ": nothing glTF can animate: left out");
            continue;
        }
        m_animations.push_back({{"name", clip.name}, {"channels", channels}, {"samplers", samplers}});
    }
}

}  // namespace esv::gltf
