// glTF reader: animations, each one clip; STEP, LINEAR and CUBICSPLINE samplers (gltf_internal.h).
#include <algorithm>
#include <cmath>

#include "loaders/gltf/gltf_internal.h"

namespace esv::gltf {

// CUBICSPLINE holds per key an in-tangent a_k, a value v_k and an out-tangent b_k, tangents per
// second (glTF 2.0, appendix C). The same cubic as a Bezier segment has the control values
// v_k + b_k (t_k+1 - t_k) / 3 and v_k+1 - a_k+1 (t_k+1 - t_k) / 3; the ends' outer controls are
// the values themselves (no segment uses them).
void cubicSplineToBezier(const std::vector<float>& times, const std::vector<float>& outputs, uint32_t comps,
                         Track& track) {
    const size_t n = times.size();
    track.values.resize(n * comps);
    track.inValues.resize(n * comps);
    track.outValues.resize(n * comps);
    for (size_t k = 0; k < n; ++k)
        for (size_t c = 0; c < comps; ++c) {
            const float a = outputs[(k * 3 + 0) * comps + c];
            const float v = outputs[(k * 3 + 1) * comps + c];
            const float b = outputs[(k * 3 + 2) * comps + c];
            track.values[k * comps + c] = v;
            track.inValues[k * comps + c] = k > 0 ? v - a * (times[k] - times[k - 1]) / 3.0f : v;
            track.outValues[k * comps + c] = k + 1 < n ? v + b * (times[k + 1] - times[k]) / 3.0f : v;
        }
}

namespace {

struct ChannelRule {
    const char* path;
    Channel channel;
    uint32_t components;  // 0: the node's morph target count
};
const ChannelRule kRules[] = {{"translation", Channel::Translation, 3},
                              {"rotation", Channel::Rotation, 4},
                              {"scale", Channel::Scale, 3},
                              {"weights", Channel::MorphWeights, 0}};

}  // namespace

// One sampler's keys as a track for `node` (its channel and components set); false after a problem.
static bool readSampler(Reader& r, const Json& sampler, const std::string& where, Track& track) {
    int32_t input = -1, output = -1;
    if (!r.objectAt(sampler, where) || !r.getIndex(sampler, "input", where, "accessors", input, true) ||
        !r.getIndex(sampler, "output", where, "accessors", output, true))
        return false;
    const std::string interpolation =
        r.member(sampler, "interpolation") ? r.getString(sampler, "interpolation") : "LINEAR";
    const bool cubic = interpolation == "CUBICSPLINE";
    if (interpolation == "STEP")
        track.interpolation = Interpolation::Step;
    else if (interpolation == "LINEAR")
        track.interpolation = Interpolation::Linear;
    else if (cubic)
        track.interpolation = Interpolation::Bezier;
    else {
        r.fail(where + "/interpolation",
               "'" + interpolation.substr(0, 20) + "' is not STEP, LINEAR or CUBICSPLINE");
        return false;
    }
    const Accessor* in = r.accessor(input, where + "/input");
    const Accessor* out = r.accessor(output, where + "/output");
    if (!in || !out) return false;
    if (in->type != ComponentType::Float32 || in->components != 1) {
        r.fail(where + "/input", "accessor " + std::to_string(input) + " is not float SCALAR");
        return false;
    }
    if (in->count > kMaxKeys) {
        r.fail(where + "/input", std::to_string(in->count) + " keys exceed the reader's cap");
        return false;
    }
    const bool rotation = track.channel == Channel::Rotation;
    const uint32_t outComponents = track.channel == Channel::MorphWeights ? 1 : track.components;
    if (out->components != outComponents || out->typeName.compare(0, 3, "MAT") == 0 ||
        (out->type != ComponentType::Float32 &&
         !(out->normalized && (rotation || track.channel == Channel::MorphWeights)))) {
        r.fail(where + "/output", "accessor " + std::to_string(output) + " (" + componentTypeName(out->type) +
                                      " " + out->typeName + ") does not fit a " + channelName(track.channel) +
                                      " channel");
        return false;
    }
    const uint64_t expected = uint64_t(in->count) * (cubic ? 3 : 1) * track.components / outComponents;
    if (out->count != expected) {
        r.fail(where + "/output", std::to_string(out->count) + " elements for " + std::to_string(in->count) +
                                      " keys (" + std::to_string(expected) + " expected)");
        return false;
    }
    r.readFloats(*in, track.times);
    for (size_t k = 0; k < track.times.size(); ++k)
        if (!std::isfinite(track.times[k]) || (k > 0 && !(track.times[k] > track.times[k - 1]))) {
            r.fail(where + "/input", "time " + std::to_string(k) + " (" + std::to_string(track.times[k]) +
                                         ") does not follow the one before");
            return false;
        }
    std::vector<float> values;
    r.readFloats(*out, values);
    if (cubic)
        cubicSplineToBezier(track.times, values, track.components, track);
    else
        track.values = std::move(values);
    return true;
}

void Reader::readAnimation(size_t index, const Json& animation) {
    const std::string where = pointer("animations", index);
    Clip clip;
    clip.name = getString(animation, "name");
    if (clip.name.empty()) clip.name = "animation " + std::to_string(index);
    const Json* channels = member(animation, "channels");
    const Json* samplers = member(animation, "samplers");
    if (!channels || !channels->is_array() || !samplers || !samplers->is_array()) {
        fail(where, "needs channels and samplers arrays");
        return;
    }
    float end = 0.0f;
    for (size_t c = 0; c < channels->size() && !m_diag.stopped(); ++c) {
        const std::string cw = where + "/channels/" + std::to_string(c);
        const Json& ch = (*channels)[c];
        uint64_t sampler = 0;
        const Json* target = member(ch, "target");
        if (!objectAt(ch, cw) || !getUint(ch, "sampler", cw, sampler, true)) continue;
        if (sampler >= samplers->size()) {
            fail(cw + "/sampler", "sampler " + std::to_string(sampler) +
                                      " does not exist (the animation has " +
                                      std::to_string(samplers->size()) + ")");
            continue;
        }
        if (!target || !objectAt(*target, cw + "/target")) {
            if (!target) fail(cw, "has no target");
            continue;
        }
        int32_t node = -1;
        if (!member(*target, "node")) continue;  // no node: the channel animates nothing (or an extension)
        if (!getIndex(*target, "node", cw + "/target", "nodes", node, true)) continue;
        const std::string path = getString(*target, "path");
        const ChannelRule* rule = nullptr;
        for (const ChannelRule& r : kRules)
            if (path == r.path) rule = &r;
        if (!rule) {
            m_diag.info(cw + "/target/path: '" + path.substr(0, 40) + "' not animated");
            continue;
        }
        Track track;
        track.node = node;
        track.channel = rule->channel;
        track.components = rule->components;
        if (rule->channel == Channel::MorphWeights) {
            const Node& n = m_scene.nodes[size_t(node)];
            if (n.kind != NodeKind::Mesh || n.object < 0) {
                fail(cw + "/target", "weights of node " + std::to_string(node) + ", which has no mesh");
                continue;
            }
            track.components = uint32_t(m_scene.meshes[size_t(n.object)].morphTargets.size());
            if (track.components == 0) {
                fail(cw + "/target",
                     "weights of node " + std::to_string(node) + ", whose mesh has no morph targets");
                continue;
            }
        }
        if (!readSampler(*this, (*samplers)[sampler], where + "/samplers/" + std::to_string(sampler), track))
            continue;
        end = std::max(end, track.times.empty() ? 0.0f : track.times.back());
        clip.tracks.push_back(track);
        // A mesh split into parts: its further parts' nodes follow the same weights.
        if (rule->channel == Channel::MorphWeights)
            for (size_t extra = array("nodes").size(); extra < m_scene.nodes.size(); ++extra) {
                const Node& e = m_scene.nodes[extra];
                if (e.parent == node && e.viewerAdded && e.kind == NodeKind::Mesh) {
                    Track copy = track;
                    copy.node = int32_t(extra);
                    clip.tracks.push_back(std::move(copy));
                }
            }
    }
    clip.start = 0.0f;
    clip.end = end;
    m_scene.animation.clips.push_back(std::move(clip));
}

void Reader::readAnimations() {
    const Json& animations = array("animations");
    m_scene.animation.frames = 0;
    for (size_t i = 0; i < animations.size() && !m_diag.stopped(); ++i)
        if (objectAt(animations[i], pointer("animations", i))) readAnimation(i, animations[i]);
}

}  // namespace esv::gltf
