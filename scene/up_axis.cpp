#include "scene/up_axis.h"

#include <cmath>
#include <cstring>

#include <glm/gtc/type_ptr.hpp>

namespace esv {
namespace {

void turnValues(Channel channel, uint32_t components, const glm::quat& q, std::vector<float>& values) {
    const glm::mat4 r = glm::mat4_cast(q);
    if (components == 0) return;
    for (size_t at = 0; at + components <= values.size(); at += components) {
        float* v = values.data() + at;
        if (channel == Channel::Translation && components == 3) {
            const glm::vec3 p = q * glm::vec3(v[0], v[1], v[2]);
            v[0] = p.x, v[1] = p.y, v[2] = p.z;
        } else if (channel == Channel::Rotation && components == 4) {
            const glm::quat p = q * glm::quat(v[3], v[0], v[1], v[2]);
            v[0] = p.x, v[1] = p.y, v[2] = p.z, v[3] = p.w;
        } else if (channel == Channel::Matrix && components == 16) {
            const glm::mat4 m = r * glm::make_mat4(v);
            std::memcpy(v, glm::value_ptr(m), 64);
        }
    }
}

}  // namespace

glm::quat zUpToYUpRotation() { return glm::angleAxis(glm::radians(-90.0f), glm::vec3(1, 0, 0)); }

bool turnSceneToYUp(Scene& scene) {
    if (scene.up != UpAxis::Z) return false;
    const glm::quat q = zUpToYUpRotation();
    const glm::mat4 r = glm::mat4_cast(q);
    const size_t count = scene.nodes.size();
    std::vector<uint8_t> root(count, 0), prepended(count, 0);
    for (size_t i = 0; i < count; ++i) {
        Node& n = scene.nodes[i];
        if (n.parent >= 0) continue;
        root[i] = 1;
        if (!n.elements.empty()) {
            TransformElement turn;
            turn.kind = ElementKind::RotateX;
            turn.value[0] = glm::radians(-90.0f);
            turn.name = "up axis";
            n.elements.insert(n.elements.begin(), turn);
            prepended[i] = 1;
        }
        if (n.local.useMatrix) {
            n.local.matrix = r * n.local.matrix;
        } else {
            n.local.translation = q * n.local.translation;
            n.local.rotation = q * n.local.rotation;
        }
    }
    for (Clip& clip : scene.animation.clips)
        for (Track& t : clip.tracks) {
            if (t.node < 0 || static_cast<size_t>(t.node) >= count || !root[t.node]) continue;
            if (t.channel == Channel::Element) {
                if (prepended[t.node]) ++t.element;
                continue;
            }
            // An element-built node's local transform is its elements' product: tracks of its other
            // channels do not exist (the loaders animate such nodes by Element tracks only).
            turnValues(t.channel, t.components, q, t.values);
            turnValues(t.channel, t.components, q, t.inValues);
            turnValues(t.channel, t.components, q, t.outValues);
        }
    scene.front = q * scene.front;
    scene.up = UpAxis::Y;
    return true;
}

}  // namespace esv
