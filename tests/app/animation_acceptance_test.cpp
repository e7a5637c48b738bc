// Issue 36's animation stepping and blending, on the shared samples in the headless viewer, driven
// by scripts as a person's session would be: key stepping lands exactly on each key time of clips
// with uneven keys (the times read from the file's text, or from its tracks), a blend at weight 0 and
// 1 gives each clip alone bit for bit (pose, skin palettes, pixels), and a play range holds playing
// time inside it, wrapping at its out point.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/hosts/headless_host.h"
#include "app/viewer/transport.h"
#include "app/viewer/viewer_loop.h"
#include "app/viewer/viewer_state.h"
#include "common/image_compare.h"
#include "common/test_paths.h"
#include "common/viewer_session.h"
#include "loaders/load.h"
#include "scene/sampler.h"

namespace {

namespace fs = std::filesystem;

// The headless viewer on one sample, scripted (a fixed 1/30 s a frame), with scripts run to their end.
class Session {
public:
    Session(const fs::path& model, const std::string& name, int width = 640, int height = 480)
        : m_dir(esv::test::viewerWorkDir("animation_", name)) {
        const fs::path start = m_dir / "start.txt";
        std::ofstream(start) << "wait 1\n";
        esv::ViewerOptions options;
        options.file = model.string();
        options.script = start.string();
        options.width = width;
        options.height = height;
        m_ok = m_viewer.start(m_host, options) == esv::kExitOk && esv::test::frameUntilLoaded(m_viewer);
        // The start script's wait ends a frame or two after the load.
        for (int i = 0; i < 10 && m_ok && !m_viewer.state().scene; ++i) m_ok = m_viewer.frame();
        for (int i = 0; i < 10 && m_ok && !m_viewer.runScript("pause\n", m_error); ++i)
            m_ok = m_viewer.frame();
        m_ok = m_ok && m_viewer.frame();
    }
    ~Session() { m_viewer.finish(); }

    bool ok() const { return m_ok; }
    const fs::path& dir() const { return m_dir; }
    esv::ViewerState& state() { return m_viewer.state(); }

    // Runs `text` from the next frame to its end (a dump it ends with appears); false on a script
    // error or when it runs past `limit` frames.
    bool run(const std::string& text, int limit = 2000) {
        const fs::path done = m_dir / ("done" + std::to_string(m_runs++) + ".json");
        std::string error;
        if (!m_viewer.runScript(text + "dump " + done.string() + "\n", error)) {
            ADD_FAILURE() << error;
            return false;
        }
        for (int i = 0; i < limit && !fs::exists(done); ++i)
            if (!m_viewer.frame()) return false;
        return fs::exists(done);
    }

    nlohmann::json dump(const std::string& name) const {
        return nlohmann::json::parse(esv::test::readText(m_dir / name), nullptr, false);
    }

private:
    fs::path m_dir;
    esv::HeadlessHost m_host;
    esv::ViewerLoop m_viewer;
    bool m_ok = false;
    std::string m_error;
    int m_runs = 0;
};

// A float as a script argument that reads back as the same float.
std::string exact(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", double(value));
    return text;
}

// Every key time of the `Time { Key { float {...} } }` structures of an OpenGEX text, as floats
// (the precision the scene keeps), sorted and unique: read from the text here, not by the loader.
std::vector<float> ogexKeyTimes(const std::string& text) {
    std::set<float> times;
    for (size_t at = text.find("Time"); at != std::string::npos; at = text.find("Time", at + 4)) {
        const size_t open = text.find("float", at);
        const size_t first = text.find('{', open), last = text.find('}', first);
        if (open == std::string::npos || first == std::string::npos || last == std::string::npos) break;
        const std::string list = text.substr(first + 1, last - first - 1);
        const char* p = list.c_str();
        char* end = nullptr;
        for (float v = std::strtof(p, &end); end != p; v = std::strtof(p, &end)) {
            times.insert(v);
            p = end;
            while (*p == ',' || *p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') ++p;
        }
    }
    return {times.begin(), times.end()};
}

// From the first key, steps through the clip shown with `key 1` (then back with `key -1`), of every
// node or of `node`, a dump after each step, and expects the times in order, exactly; one step past
// either end stays on it.
void expectKeyStepsLandOn(Session& session, const std::vector<float>& keys, const std::string& node) {
    ASSERT_GE(keys.size(), 2u);
    const std::string suffix = node.empty() ? "" : " " + node;
    std::string script = "pause\ntime " + exact(keys.front()) + "\n";
    for (size_t i = 1; i <= keys.size(); ++i)
        script += "key 1" + suffix + "\ndump " +
                  (session.dir() / ("next" + std::to_string(i) + ".json")).string() + "\n";
    for (size_t i = keys.size() - 1; i-- > 0;)
        script += "key -1" + suffix + "\ndump " +
                  (session.dir() / ("back" + std::to_string(i) + ".json")).string() + "\n";
    script += "key -1" + suffix + "\ndump " + (session.dir() / "before.json").string() + "\n";
    ASSERT_TRUE(session.run(script));
    for (size_t i = 1; i < keys.size(); ++i) {
        const nlohmann::json j = session.dump("next" + std::to_string(i) + ".json");
        ASSERT_EQ(j["time"].get<float>(), keys[i]) << "key " << i << " forwards";
        EXPECT_FALSE(j["playing"].get<bool>());
    }
    EXPECT_EQ(session.dump("next" + std::to_string(keys.size()) + ".json")["time"].get<float>(), keys.back())
        << "past the last key: stays on it";
    for (size_t i = keys.size() - 1; i-- > 0;)
        ASSERT_EQ(session.dump("back" + std::to_string(i) + ".json")["time"].get<float>(), keys[i])
            << "key " << i << " back";
    EXPECT_EQ(session.dump("before.json")["time"].get<float>(), keys.front())
        << "before the first key: stays on it";
}

// The gaps between neighbouring keys that differ by more than a microsecond: more than one means uneven.
size_t distinctGaps(const std::vector<float>& keys) {
    std::set<long> gaps;
    for (size_t i = 1; i < keys.size(); ++i) gaps.insert(std::lround(double(keys[i] - keys[i - 1]) * 1e6));
    return gaps.size();
}

// assimp's OpenGEX animation example: 250 keys 1/24 s apart but for one gap of 2/24 s before the last.
TEST(AnimationAcceptance, KeyStepsLandOnEveryKeyOfAnOpenGexClip) {
    ESVIEW_REQUIRE_MODELS("ogex");
    const fs::path model = esv::test::modelsDir() / "ogex" / "assimp_animation_example.ogex";
    const std::vector<float> keys = ogexKeyTimes(esv::test::readText(model));
    ASSERT_EQ(keys.size(), 250u);
    ASSERT_EQ(keys.front(), 0.0f);
    ASSERT_GE(distinctGaps(keys), 2u) << "uneven keys";
    Session session(model, "ogex_keys");
    ASSERT_TRUE(session.ok());
    ASSERT_EQ(session.state().transport.clip, 0);
    expectKeyStepsLandOn(session, keys, "");
}

// PolarBear_Vertex_ABexport.awd's Run clip: 7 frames of 112 to 114 ms (AWD frames carry their own
// durations), the key times as the file's tracks hold them.
TEST(AnimationAcceptance, KeyStepsLandOnEveryKeyOfAnAwdClipWithUnevenFrames) {
    ESVIEW_REQUIRE_MODELS("awd");
    const fs::path model = esv::test::modelsDir() / "awd" / "PolarBear_Vertex_ABexport.awd";
    const esv::LoadResult loaded = esv::loadSceneFile(model.string());
    ASSERT_TRUE(loaded.scene);
    const auto& clips = loaded.scene->animation.clips;
    const auto run =
        std::find_if(clips.begin(), clips.end(), [](const esv::Clip& c) { return c.name == "Run"; });
    ASSERT_NE(run, clips.end());
    std::set<float> times;
    for (const esv::Track& track : run->tracks)
        for (float t : track.times) times.insert(t - run->start);
    const std::vector<float> keys(times.begin(), times.end());
    ASSERT_GE(keys.size(), 5u);
    ASSERT_GE(distinctGaps(keys), 2u) << "uneven keys";
    Session session(model, "awd_keys");
    ASSERT_TRUE(session.ok());
    ASSERT_TRUE(session.run("clip Run\n"));
    expectKeyStepsLandOn(session, keys, "");
}

// Skinned: PolarBear_Skeleton_ABexport.awd's joints each with their own tracks. Stepping through one
// joint's keys (`key N NODE`, `key N selected`) lands on each of them.
TEST(AnimationAcceptance, KeyStepsOfTheSelectedNode) {
    ESVIEW_REQUIRE_MODELS("awd");
    const fs::path model = esv::test::modelsDir() / "awd" / "PolarBear_Skeleton_ABexport.awd";
    Session session(model, "node_keys");
    ASSERT_TRUE(session.ok());
    ASSERT_TRUE(session.run("clip Walk\n"));
    const esv::Scene& scene = *session.state().scene;
    const int clip = session.state().transport.clip;
    const esv::Clip& walk = scene.animation.clips[size_t(clip)];
    // The animated node with the fewest keys, so that its keys are not every node's.
    int node = -1;
    std::vector<float> nodeKeys;
    for (const esv::Track& track : walk.tracks) {
        std::set<float> own;
        for (const esv::Track& other : walk.tracks)
            if (other.node == track.node)
                for (float t : other.times) own.insert(std::clamp(t - walk.start, 0.0f, walk.duration()));
        if (own.size() >= 2 && (node < 0 || own.size() < nodeKeys.size())) {
            node = track.node;
            nodeKeys.assign(own.begin(), own.end());
        }
    }
    ASSERT_GE(node, 0);
    const std::string name = scene.nodes[size_t(node)].name;
    expectKeyStepsLandOn(session, nodeKeys, "\"" + name + "\"");
    ASSERT_TRUE(session.run("select \"" + name + "\"\n"));
    expectKeyStepsLandOn(session, nodeKeys, "selected");
}

// gltfpack's copy of the Blender skinned tube (tests/gltf_writers/fixtures) keeps one key for a
// track that does not change: a joint with fewer keys than the clip. From the start, shift+] and
// `key 1 selected` go to that joint's next key (or stay, with none after), ] to the clip's next.
TEST(AnimationAcceptance, KeyStepsOfANodeWithFewerKeysThanTheClip) {
    const fs::path model =
        esv::test::sourceDir() / "tests" / "gltf_writers" / "fixtures" / "gltfpack" / "skinned_q.glb";
    Session session(model, "sparse_keys");
    ASSERT_TRUE(session.ok());
    const esv::Scene& scene = *session.state().scene;
    const int clip = session.state().transport.clip;
    ASSERT_GE(clip, 0);
    const esv::Clip& c = scene.animation.clips[size_t(clip)];
    std::map<int, std::set<float>> byNode;
    std::set<float> every;
    for (const esv::Track& track : c.tracks)
        for (float t : track.times) {
            byNode[track.node].insert(t - c.start);
            every.insert(t - c.start);
        }
    auto fewest = std::min_element(byNode.begin(), byNode.end(), [](const auto& a, const auto& b) {
        return a.second.size() < b.second.size();
    });
    ASSERT_NE(fewest, byNode.end());
    ASSERT_LT(fewest->second.size(), every.size()) << "a node keyed less often than the clip";
    auto nextAfter = [](const std::set<float>& keys, float time) {
        const auto it = keys.upper_bound(time + 1e-5f);
        return it == keys.end() ? time : *it;
    };
    const float start = *every.begin();
    const float nodeNext = nextAfter(fewest->second, start), clipNext = nextAfter(every, start);
    ASSERT_NE(nodeNext, clipNext);
    const std::string d = session.dir().string() + "/";
    ASSERT_TRUE(session.run("select " + std::to_string(fewest->first) + "\ntime " + exact(start) +
                            "\npress shift+]\ndump " + d + "shift.json\ntime " + exact(start) +
                            "\nkey 1 selected\ndump " + d + "selected.json\ntime " + exact(start) +
                            "\npress ]\ndump " + d + "plain.json\n"));
    EXPECT_EQ(session.dump("shift.json")["time"].get<float>(), nodeNext);
    EXPECT_EQ(session.dump("selected.json")["time"].get<float>(), nodeNext);
    EXPECT_EQ(session.dump("plain.json")["time"].get<float>(), clipNext);
}

// The skin palettes of every skinned node of a pose.
std::vector<std::vector<glm::mat4>> palettes(const esv::Scene& scene, const esv::Pose& pose) {
    std::vector<std::vector<glm::mat4>> out;
    for (size_t n = 0; n < scene.nodes.size(); ++n)
        if (scene.nodes[n].skin >= 0) {
            out.emplace_back();
            esv::skinPalette(scene, pose, int(n), out.back());
        }
    return out;
}

// What a blend is compared by: world matrices, object matrices, morph weights and skin palettes.
struct PoseFacts {
    std::vector<glm::mat4> world, objectWorld;
    std::vector<std::vector<float>> morphs;
    std::vector<std::vector<glm::mat4>> palettes;
    bool operator==(const PoseFacts& o) const {
        return world == o.world && objectWorld == o.objectWorld && morphs == o.morphs &&
               palettes == o.palettes;
    }
};

PoseFacts facts(const esv::Scene& scene, const esv::Pose& pose) {
    return {pose.world, pose.objectWorld, pose.morphWeights, palettes(scene, pose)};
}

// PolarBear_Skeleton_ABexport.awd (skinned, three clips): Walk blended with Run at weight 0 is Walk
// alone, at weight 1 Run alone at the blend clip's time, bit for bit, at several times; and the
// pictures are the same pixels.
TEST(AnimationAcceptance, BlendAtZeroAndOneIsEachClipBitForBit) {
    ESVIEW_REQUIRE_MODELS("awd");
    const fs::path model = esv::test::modelsDir() / "awd" / "PolarBear_Skeleton_ABexport.awd";
    Session session(model, "blend");
    ASSERT_TRUE(session.ok());
    esv::ViewerState& s = session.state();
    const esv::Scene& scene = *s.scene;
    ASSERT_GE(scene.animation.clips.size(), 3u);
    ASSERT_FALSE(palettes(scene, s.pose).empty()) << "a skinned sample";
    // A camera of our own, so that another clip is not framed again.
    ASSERT_TRUE(session.run("pause\norbit 33 11\n"));
    const std::string shot = (session.dir() / "shot.png").string() + " 320x240";
    auto picture = [&](const std::string& name) {
        esv::test::Image image;
        EXPECT_TRUE(esv::test::loadPng((session.dir() / name).string(), image)) << name;
        return image;
    };
    int distinct = 0;
    std::vector<PoseFacts> walkPoses;
    std::vector<esv::test::Image> walkImages;
    for (float time : {0.0f, 0.3f, 0.5125f, 1.0f}) {
        SCOPED_TRACE("time " + exact(time));
        const std::string t = exact(time);
        ASSERT_TRUE(session.run("clip Walk\nblend off\ntime " + t + "\nscreenshot " + shot + "\n"));
        const PoseFacts alone = facts(scene, s.pose);
        const esv::test::Image aloneImage = picture("shot.png");
        esv::Pose reference;
        esv::evaluatePose(scene, s.transport.clip,
                          scene.animation.clips[size_t(s.transport.clip)].start + time, reference);
        EXPECT_TRUE(alone == facts(scene, reference)) << "the viewer's pose is the sampler's";
        ASSERT_TRUE(session.run("blend Run 0\ntime " + t + "\nscreenshot " + shot + "\n"));
        EXPECT_TRUE(facts(scene, s.pose) == alone) << "weight 0 is Walk alone";
        const esv::test::Image blendImage = picture("shot.png");
        EXPECT_TRUE(blendImage.rgba == aloneImage.rgba) << "weight 0: Walk's pixels";
        if (std::find(walkPoses.begin(), walkPoses.end(), alone) == walkPoses.end()) ++distinct;
        walkPoses.push_back(alone);
        walkImages.push_back(aloneImage);
    }
    EXPECT_GE(distinct, 3) << "the times show different poses";

    // Weight 1: Run at the blend clip's own time (it follows the clock from 0 when set, looping in Run).
    const std::string state = (session.dir() / "state.json").string();
    for (int frames : {1, 7, 26}) {
        SCOPED_TRACE(std::to_string(frames) + " frames");
        ASSERT_TRUE(session.run("clip Walk\nblend Run 1\nplay\nwait " + std::to_string(frames) +
                                "\npause\nscreenshot " + shot + "\ndump " + state + "\n"));
        const nlohmann::json j = session.dump("state.json");
        ASSERT_TRUE(j["blend"].is_object());
        EXPECT_EQ(j["blend"]["clip"], "Run");
        EXPECT_EQ(j["blend"]["weight"].get<float>(), 1.0f);
        const float runTime = j["blend"]["time"].get<float>();
        EXPECT_GT(runTime, 0.0f);
        const PoseFacts blended = facts(scene, s.pose);
        const esv::test::Image blendImage = picture("shot.png");
        ASSERT_TRUE(
            session.run("blend off\nclip Run\ntime " + exact(runTime) + "\nscreenshot " + shot + "\n"));
        EXPECT_EQ(s.transport.time, runTime);
        EXPECT_TRUE(facts(scene, s.pose) == blended) << "weight 1 is Run alone";
        EXPECT_TRUE(picture("shot.png").rgba == blendImage.rgba) << "weight 1: Run's pixels";
        EXPECT_TRUE(std::find(walkPoses.begin(), walkPoses.end(), blended) == walkPoses.end())
            << "not a Walk pose";
        for (const esv::test::Image& walkImage : walkImages)
            EXPECT_FALSE(walkImage.rgba == blendImage.rgba) << "the pictures show the pose";
    }
}

// A play range on PolarBear.awd's Walk (30 fps): frames 6 to 15, looping; dumps every frame stay in
// it and wrap at the out point to the in point plus what went past; Once stops at the out point; a
// new clip clears it; I and O set it at the playhead, shift+I clears it.
TEST(AnimationAcceptance, PlayRangeLoopsAPartOfTheClip) {
    ESVIEW_REQUIRE_MODELS("awd");
    const fs::path model = esv::test::modelsDir() / "awd" / "PolarBear.awd";
    Session session(model, "range");
    ASSERT_TRUE(session.ok());
    ASSERT_TRUE(session.run("clip Walk\npause\nrange 6 15 frames\nloop loop\nframe 6\nplay\n"));
    const esv::Transport& t = session.state().transport;
    const float fps = esv::transportFrameRate(*session.state().scene, t.clip);
    ASSERT_EQ(fps, 30.0f);
    ASSERT_TRUE(t.range);
    const float in = 6.0f / fps, out = 15.0f / fps;
    EXPECT_FLOAT_EQ(t.rangeIn, in);
    EXPECT_FLOAT_EQ(t.rangeOut, out);
    std::string script;
    constexpr int kFrames = 24;
    for (int i = 0; i < kFrames; ++i)
        script += "wait 1\ndump " + (session.dir() / ("play" + std::to_string(i) + ".json")).string() + "\n";
    ASSERT_TRUE(session.run(script));
    int wraps = 0;
    float before = -1.0f;
    for (int i = 0; i < kFrames; ++i) {
        const nlohmann::json j = session.dump("play" + std::to_string(i) + ".json");
        ASSERT_TRUE(j["range"].is_object());
        const float time = j["time"].get<float>();
        EXPECT_GE(time, j["range"]["in"].get<float>()) << i;
        EXPECT_LE(time, j["range"]["out"].get<float>()) << i;
        EXPECT_TRUE(j["playing"].get<bool>());
        EXPECT_GE(j["frame_index"].get<int>(), 6);
        EXPECT_LE(j["frame_index"].get<int>(), 15);
        if (before >= 0.0f && time < before) {
            ++wraps;
            EXPECT_NEAR(time, in + (before + 1.0f / 30.0f - out), 1e-5f)
                << "wraps to the in point plus the rest";
        }
        before = time;
    }
    EXPECT_EQ(wraps, 2) << "24 frames through a range of 9 frames";

    // Once: stops at the out point.
    ASSERT_TRUE(session.run("loop once\nframe 12\nplay\nwait 10\n"));
    EXPECT_FALSE(t.playing);
    EXPECT_FLOAT_EQ(t.time, out);
    // Keys: I and O at the playhead, shift+I clears; another clip clears too.
    ASSERT_TRUE(session.run("pause\nrange off\nframe 3\npress i\nframe 9\npress o\n"));
    EXPECT_TRUE(t.range);
    EXPECT_FLOAT_EQ(t.rangeIn, 3.0f / fps);
    EXPECT_FLOAT_EQ(t.rangeOut, 9.0f / fps);
    ASSERT_TRUE(session.run("press shift+i\n"));
    EXPECT_FALSE(t.range);
    ASSERT_TRUE(session.run("range 0.1 0.2\nclip Run\n"));
    EXPECT_FALSE(t.range);
    // A reload keeps the range and the blend; another file has neither.
    ASSERT_TRUE(session.run("range 0.2 0.6\nblend Walk 0.5\nreload\n"));
    EXPECT_EQ(session.state().loadsCompleted, 2);
    EXPECT_TRUE(t.range);
    EXPECT_EQ(t.rangeIn, 0.2f);
    EXPECT_EQ(t.rangeOut, 0.6f);
    EXPECT_EQ(session.state().scene->animation.clips[size_t(t.clip)].name, "Run");
    EXPECT_EQ(t.blendWeight, 0.5f);
    const fs::path other = esv::test::modelsDir() / "awd" / "PolarBear_Skeleton_ABexport.awd";
    ASSERT_TRUE(session.run("open \"" + other.string() + "\"\n"));
    EXPECT_EQ(session.state().loadsCompleted, 3);
    EXPECT_FALSE(t.range);
    EXPECT_EQ(t.blendClip, -1);
    EXPECT_EQ(t.blendWeight, 0.0f);
}

// The timeline in the settings panel, dragged as a person does (1280x720): a press on an end of the
// play range moves that end and leaves the time; a press elsewhere seeks.
TEST(AnimationAcceptance, DraggingTheEndsOfThePlayRangeOnTheTimeline) {
    ESVIEW_REQUIRE_MODELS("awd");
    Session session(esv::test::modelsDir() / "awd" / "PolarBear.awd", "range_drag", 1280, 720);
    ASSERT_TRUE(session.ok());
    ASSERT_TRUE(session.run("clip Walk\npause\ntime 0.6\nrange 0.4 0.8\nwait 1\n"));
    const esv::Transport& t = session.state().transport;
    const float duration = esv::transportDuration(*session.state().scene, t.clip);
    const nlohmann::json rect = session.dump("done0.json")["timeline_rect"];
    ASSERT_EQ(rect.size(), 4u);
    const float x = rect[0].get<float>(), y = rect[1].get<float>() + 0.5f * rect[3].get<float>();
    const float w = rect[2].get<float>();
    ASSERT_GT(w, 100.0f) << "the timeline is drawn";
    auto xOf = [&](float time) {
        return std::to_string(std::lround(x + 4.0f + (w - 8.0f) * time / duration));
    };
    const std::string yText = std::to_string(std::lround(y));
    const float pixel = duration / (w - 8.0f);
    auto drag = [&](float from, float to) {
        return "drag " + xOf(from) + " " + yText + " " + xOf(to) + " " + yText + " left 4\nwait 1\n";
    };

    ASSERT_TRUE(session.run(drag(0.4f, 0.2f)));
    EXPECT_TRUE(t.range);
    EXPECT_NEAR(t.rangeIn, 0.2f, 1.5f * pixel) << "the in point moved";
    EXPECT_EQ(t.rangeOut, 0.8f);
    EXPECT_EQ(t.time, 0.6f) << "moving an end does not seek";
    ASSERT_TRUE(session.run(drag(0.8f, 1.0f)));
    EXPECT_NEAR(t.rangeOut, 1.0f, 1.5f * pixel) << "the out point moved";
    EXPECT_NEAR(t.rangeIn, 0.2f, 1.5f * pixel);
    EXPECT_EQ(t.time, 0.6f);
    const float in = t.rangeIn;
    ASSERT_TRUE(session.run(drag(0.6f, 0.5f)));
    EXPECT_NEAR(t.time, 0.5f, 1.5f * pixel) << "between the ends: a seek";
    EXPECT_EQ(t.rangeIn, in);
    ASSERT_TRUE(session.run(drag(0.2f, 0.95f)));
    EXPECT_LE(t.rangeIn, t.rangeOut) << "the in point stops at the out point";
    EXPECT_NEAR(t.rangeIn, 0.95f, 1.5f * pixel);
}

}  // namespace
