#include "app/viewer/compare_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/viewer/scene_loader.h"
#include "app/viewer/viewer_actions.h"
#include "app/viewer/viewer_state.h"

namespace esv {

const char* compareModeName(CompareMode mode) {
    static const char* const kNames[] = {"split", "side", "diff"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == size_t(CompareMode::Count));
    return mode < CompareMode::Count ? kNames[size_t(mode)] : "?";
}

bool parseCompareMode(const std::string& name, CompareMode& mode) {
    for (size_t m = 0; m < size_t(CompareMode::Count); ++m)
        if (name == compareModeName(CompareMode(m))) {
            mode = CompareMode(m);
            return true;
        }
    return false;
}

glm::vec3 intoAxesOf(const Scene& to, const Scene& from, const glm::vec3& p) {
    const glm::vec3 display = from.up == UpAxis::Z ? glm::vec3(p.x, p.z, -p.y) : p;
    return to.up == UpAxis::Z ? glm::vec3(display.x, -display.z, display.y) : display;
}

Bounds boundsIntoAxesOf(const Scene& to, const Scene& from, const Bounds& b) {
    if (!b.valid()) return b;
    Bounds out;
    for (int corner = 0; corner < 8; ++corner)
        out.add(intoAxesOf(to, from,
                           glm::vec3(corner & 1 ? b.max.x : b.min.x, corner & 2 ? b.max.y : b.min.y,
                                     corner & 4 ? b.max.z : b.min.z)));
    return out;
}

OrbitCamera orbitIntoAxesOf(const OrbitCamera& ofA, const Scene& a, const Scene& b) {
    OrbitCamera orbit = ofA;
    orbit.zUp = b.up == UpAxis::Z;
    orbit.target = intoAxesOf(b, a, ofA.target);
    orbit.sceneCenter = intoAxesOf(b, a, ofA.sceneCenter);
    return orbit;
}

int matchingClip(const Scene& a, int clipA, const Scene& b) {
    const auto &clipsA = a.animation.clips, &clipsB = b.animation.clips;
    if (clipA < 0 || size_t(clipA) >= clipsA.size()) return -1;
    for (size_t i = 0; i < clipsB.size(); ++i)
        if (clipsB[i].name == clipsA[size_t(clipA)].name) return int(i);
    return size_t(clipA) < clipsB.size() ? clipA : -1;
}

ViewSettings compareViewSettings(const ViewerState& s) {
    const Scene &a = *s.scene, &b = *s.compare.scene;
    ViewSettings view = s.view;
    view.orbit = orbitIntoAxesOf(s.view.orbit, a, b);
    if (view.camera >= 0 && size_t(view.camera) >= b.cameras.size()) view.camera = -1;
    view.highlightNode = s.compare.selected;
    const bool joint = s.compare.selected >= 0 && isJoint(b, s.compare.selected);
    view.influenceJoint = joint ? s.compare.selected : -1;
    // The Weights view's joint, by name like the selection.
    view.weightBone = -1;
    if (s.view.weightBone >= 0 && size_t(s.view.weightBone) < a.nodes.size()) {
        const int bone = findNode(b, a.nodes[size_t(s.view.weightBone)].name);
        view.weightBone = bone >= 0 && isJoint(b, bone) ? bone : -1;
    }
    view.annotations = nullptr;
    return view;
}

void updateCompare(ViewerState& s) {
    CompareView& c = s.compare;
    if (!c.scene || !s.scene) return;
    const Scene &a = *s.scene, &b = *c.scene;
    const Transport& t = s.transport;
    const int clip = matchingClip(a, t.clip, b);
    if (c.transport.clip != clip) selectClip(b, c.transport, clip);
    c.transport.playing = false;  // it follows A's time, never its own clock
    seekTransport(b, c.transport, t.time);
    c.transport.blendClip = t.blendWeight > 0.0f ? matchingClip(a, t.blendClip, b) : -1;
    c.transport.blendWeight = c.transport.blendClip >= 0 ? t.blendWeight : 0.0f;
    c.transport.blendTime = t.blendTime;
    evaluateTransport(b, c.transport, c.pose, c.scratchPose);
    if (b.pof) applyPofView(b, c.pof, c.pose);
    const int selected = s.selection.node;
    c.selected = selected >= 0 && size_t(selected) < a.nodes.size() && !a.nodes[size_t(selected)].name.empty()
                     ? findNode(b, a.nodes[size_t(selected)].name)
                     : -1;
    c.view = compareViewSettings(s);
}

void compareRects(CompareMode mode, const ViewportRect& view, ViewportRect& a, ViewportRect& b) {
    a = b = view;
    if (mode != CompareMode::Side) return;
    // Both halves one size, so that one camera draws the same picture in each (an odd view's last
    // column stays clear).
    a.width = b.width = view.width / 2;
    b.x = view.x + a.width;
}

int splitColumn(const ViewportRect& view, float divider) {
    return view.x + int(std::lround(std::clamp(divider, 0.0f, 1.0f) * float(view.width)));
}

CompareFigures judgePictures(const golden::Image& a, const golden::Image& b, golden::Image& diff) {
    const golden::GoldenRule rule;
    const golden::CompareResult r = golden::compareImages(b, a, rule.tolerance);
    CompareFigures f;
    f.valid = r.sameSize;
    f.width = a.width;
    f.height = a.height;
    f.modelPixels = r.modelPixels;
    f.pixelsOff = r.modelDiffering;
    f.shareOff = r.modelFraction;
    f.meanDifference = r.meanDifference;
    f.maxDifference = r.maxDifference;
    f.alike = r.sameSize && golden::brokenRules(r, rule).empty();
    diff = r.sameSize ? golden::differenceImage(a, b, rule.tolerance) : golden::Image{};
    return f;
}

std::string compareFiguresText(const CompareFigures& f) {
    if (!f.valid) return "";
    char text[160];
    std::snprintf(text, sizeof(text), "B: %.2f%% of %zu model pixels off, mean difference %.2f levels: %s",
                  100.0 * f.shareOff, f.modelPixels, f.meanDifference, f.alike ? "alike" : "different");
    return text;
}

bool installCompare(ViewerState& s, std::shared_ptr<const Scene> loaded, std::unique_ptr<Scene> prepared,
                    const std::string& path, const RendererOptions& options, std::string& error) {
    CompareView& c = s.compare;
    if (!c.renderer) {
        c.renderer = Renderer::create(options, error);
        if (!c.renderer) return false;
    }
    if (!c.renderer->setScene(*prepared, prepared->report, error)) {
        if (c.scene) {
            std::vector<ReportLine> again;  // the old B's report already has these lines
            std::string ignored;
            c.renderer->setScene(*c.scene, again, ignored);
        }
        return false;
    }
    c.loaded = std::move(loaded);
    c.scene = std::move(prepared);
    c.path = path;
    c.fileStamp = fileStamp(path);
    ++c.loads;
    c.transport = Transport{};
    c.transport.clip = -2;  // updateCompare selects the matching clip
    c.pof = PofViewState{};
    c.pof.spinDegrees.assign(c.scene->nodes.size(), 0.0f);
    c.figures = CompareFigures{};
    c.error.clear();
    updateCompare(s);
    c.framingPoints.clear();
    c.bounds = Bounds{};
    Bounds bounds;
    std::vector<glm::vec3> points;
    sceneFraming(*c.scene, c.transport.clip, c.pof, bounds, points);
    if (s.scene && bounds.valid()) {
        for (const glm::vec3& p : points) c.framingPoints.push_back(intoAxesOf(*s.scene, *c.scene, p));
        c.bounds = boundsIntoAxesOf(*s.scene, *c.scene, bounds);
    }
    return true;
}

void closeCompare(ViewerState& s) {
    CompareView& c = s.compare;
    c.scene.reset();
    c.loaded.reset();
    c.renderer.reset();
    c.path.clear();
    c.selected = -1;
    c.bounds = Bounds{};
    c.framingPoints.clear();
    c.draggingDivider = false;
    c.figures = CompareFigures{};
}

}  // namespace esv
