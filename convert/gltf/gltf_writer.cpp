#include "convert/gltf/gltf_writer.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>

#include "convert/gltf/gltf_writer_internal.h"

namespace esv {
namespace gltf {

Json Writer::build() {
    const size_t n = m_scene.nodes.size();
    evaluatePose(m_scene, -1, 0.0f, m_rest);
    m_meshHolder.resize(n);
    for (size_t i = 0; i < n; ++i) m_meshHolder[i] = int(i);
    for (size_t i = 0; i < n; ++i) {
        const Node& node = m_scene.nodes[i];
        if (node.kind != NodeKind::Mesh) continue;
        for (int32_t m : node.materials)
            if (m >= 0 && size_t(m) < m_scene.materials.size() && normalMapTexture(m_scene.materials[m]) >= 0)
                m_needsTangents.insert(node.object);
    }
    for (const Material& material : m_scene.materials) m_materials.push_back(materialJson(material));
    writeSkinsCamerasLights();
    writeNodes();
    if (m_scene.pof) writePofPoints(*m_scene.pof);
    writeAnimations();
    writeScenes();

    Json root;
    root["asset"] = {{"version", "2.0"}, {"generator", "esview convert"}};
    if (!m_extUsed.empty())
        root["extensionsUsed"] = Json(std::vector<std::string>(m_extUsed.begin(), m_extUsed.end()));
    if (!m_extRequired.empty())
        root["extensionsRequired"] =
            Json(std::vector<std::string>(m_extRequired.begin(), m_extRequired.end()));
    if (!m_lights.empty()) root["extensions"]["KHR_lights_punctual"]["lights"] = m_lights;
    root["scene"] = 0;
    root["scenes"] = m_scenes;
    auto put = [&](const char* name, const Json& array) {
        if (!array.empty()) root[name] = array;
    };
    put("nodes", m_nodes);
    put("meshes", m_meshes);
    put("materials", m_materials);
    put("textures", m_textures);
    put("images", m_images);
    put("samplers", m_samplers);
    put("skins", m_skins);
    put("cameras", m_cameras);
    put("animations", m_animations);
    put("accessors", m_accessors);
    put("bufferViews", m_views);
    if (!m_bin.empty()) {
        Json buffer = {{"byteLength", m_bin.size()}};
        if (!m_options.binary) buffer["uri"] = m_stem + ".bin";
        root["buffers"] = Json::array({buffer});
    }
    Json extras = {{"source_format", m_scene.format},
                   {"up_axis", m_scene.up == UpAxis::Z ? "Z" : "Y"},
                   {"meters_per_unit", m_scene.metersPerUnit},
                   {"ambient", vec3Json(m_scene.ambient)},
                   {"front", vec3Json(m_scene.front)}};
    root["extras"] = extras;
    m_report.nodes = m_nodes.size();
    m_report.meshes = m_meshes.size();
    m_report.materials = m_materials.size();
    m_report.images = m_images.size();
    m_report.animations = m_animations.size();
    m_report.scenes = m_scenes.size();
    return root;
}

void Writer::note(const std::string& text) {
    if (std::find(m_report.notes.begin(), m_report.notes.end(), text) == m_report.notes.end())
        m_report.notes.push_back(text);
}

}  // namespace gltf

namespace {

using gltf::align4;
using gltf::Json;
using gltf::Writer;
namespace fs = std::filesystem;

std::string safeStem(const std::string& stem) {
    std::string out;
    for (char c : stem)
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    return out.empty() ? "model" : out;
}

bool writeFile(const fs::path& path, const fs::path& named, const std::vector<uint8_t>& bytes,
               std::string& error) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (out) out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (out) out.close();
    if (!out) {
        error = "cannot write " + named.string() + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

void appendU32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

}  // namespace

bool writeGltf(const Scene& scene, const std::string& outputPath, const GltfWriteOptions& options,
               GltfWriteReport& report, std::string& error) {
    const fs::path output(outputPath);
    const std::string stem = safeStem(output.stem().string());
    Writer writer(scene, options, report, stem);
    Json root;
    try {
        root = writer.build();
    } catch (const std::exception& e) {
        error = std::string("cannot build the glTF document: ") + e.what();
        return false;
    }
    // Names come from the file as bytes: invalid UTF-8 is replaced (U+FFFD) rather than refused.
    std::string text = root.dump(options.binary ? -1 : 1, ' ', false, Json::error_handler_t::replace);
    std::vector<std::pair<fs::path, std::vector<uint8_t>>> files;
    if (options.binary) {
        while (text.size() % 4) text += ' ';
        std::vector<uint8_t>& bin = writer.bin();
        bin.resize(align4(bin.size()), 0);
        std::vector<uint8_t> glb;
        const size_t total = 12 + 8 + text.size() + (bin.empty() ? 0 : 8 + bin.size());
        if (total > 0xFFFFFFFFu) {
            error = "the model is larger than a .glb can hold (4 GiB)";
            return false;
        }
        appendU32(glb, 0x46546C67);  // "glTF"
        appendU32(glb, 2);
        appendU32(glb, uint32_t(total));
        appendU32(glb, uint32_t(text.size()));
        appendU32(glb, 0x4E4F534A);  // "JSON"
        glb.insert(glb.end(), text.begin(), text.end());
        if (!bin.empty()) {
            appendU32(glb, uint32_t(bin.size()));
            appendU32(glb, 0x004E4942);  // "BIN\0"
            glb.insert(glb.end(), bin.begin(), bin.end());
        }
        files.push_back({output, std::move(glb)});
    } else {
        text += '\n';
        files.push_back({output, std::vector<uint8_t>(text.begin(), text.end())});
        const fs::path dir = output.parent_path();
        if (!writer.bin().empty()) files.push_back({dir / (stem + ".bin"), std::move(writer.bin())});
        for (auto& [name, bytes] : writer.sideFiles()) files.push_back({dir / name, std::move(bytes)});
    }
    // Every file goes to a temporary name first, so a failure leaves nothing half written.
    std::vector<fs::path> written;
    for (const auto& [path, bytes] : files) {
        fs::path temp = path;
        temp += ".part";
        if (!writeFile(temp, path, bytes, error)) {
            std::error_code ec;
            for (const fs::path& p : written) fs::remove(p, ec);
            fs::remove(temp, ec);
            return false;
        }
        written.push_back(temp);
    }
    for (size_t i = 0; i < files.size(); ++i) {
        std::error_code ec;
        fs::rename(written[i], files[i].first, ec);
        if (ec) {
            error = "cannot write " + files[i].first.string() + ": " + ec.message();
            for (size_t j = i; j < written.size(); ++j) fs::remove(written[j], ec);
            return false;
        }
        report.files.push_back(files[i].first.string());
    }
    return true;
}

}  // namespace esv
