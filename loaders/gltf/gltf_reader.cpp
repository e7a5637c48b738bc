// glTF 2.0 reader: the container (.glb chunks or .gltf text), the JSON, buffers and URIs, nodes,
// scenes, cameras and lights (gltf_internal.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "loaders/byte_reader.h"
#include "loaders/formats.h"
#include "loaders/gltf/gltf_internal.h"

namespace esv {
namespace gltf {

std::string pointer(const char* array, size_t index) {
    return std::string("/") + array + "/" + std::to_string(index);
}

namespace {

constexpr uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;   // "BIN\0"

// Thrown by the parse callback when objects nest deeper than kMaxJsonDepth.
struct TooDeep {
    size_t position;
};

// Extensions whose meaning this reader knows (anything else required refuses the file).
const char* const kKnownExtensions[] = {
    "KHR_mesh_quantization", "KHR_lights_punctual",
    "KHR_materials_unlit",   "KHR_materials_emissive_strength",
    "KHR_texture_transform", "KHR_materials_specular",
    "KHR_materials_ior",     "KHR_texture_basisu",
};

int base64Value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

// Decodes base64 `text` into `out`; false with the offending character's index in `bad`.
bool decodeBase64(const std::string& text, size_t start, std::vector<uint8_t>& out, size_t& bad) {
    size_t end = text.size();
    while (end > start && text[end - 1] == '=') --end;
    if (text.size() - end > 2) {
        bad = end;
        return false;
    }
    out.reserve((end - start) / 4 * 3 + 3);
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = start; i < end; ++i) {
        const int v = base64Value(static_cast<unsigned char>(text[i]));
        if (v < 0) {
            bad = i;
            return false;
        }
        acc = (acc << 6) | uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(uint8_t(acc >> bits));
        }
    }
    return true;
}

// "meshes" -> "mesh", "accessors" -> "accessor": how a message names one entry of an array.
std::string singular(const char* array) {
    std::string name = array;
    if (name == "meshes") return "mesh";
    if (!name.empty() && name.back() == 's') name.pop_back();
    return name;
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

Reader::Reader(const std::string& path, const LoadOptions& options, Scene& scene,
               std::vector<Problem>& problems)
    : m_path(path), m_options(options), m_scene(scene), m_diag(path, options, scene, problems) {}

void Reader::fail(const std::string& where, const std::string& message) {
    m_diag.fatal(FilePlace{}, where, message);
}

void Reader::failAt(uint64_t offset, const std::string& where, const std::string& message) {
    m_diag.fatal(offset, where, message);
}

const Json* Reader::member(const Json& object, const char* key) const {
    if (!object.is_object()) return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

const Json& Reader::array(const char* name) const {
    static const Json kEmpty = Json::array();
    const Json* a = member(m_doc, name);
    return a && a->is_array() ? *a : kEmpty;
}

bool Reader::objectAt(const Json& value, const std::string& where) {
    if (value.is_object()) return true;
    fail(where, "expected an object");
    return false;
}

bool Reader::getUint(const Json& object, const char* key, const std::string& where, uint64_t& out,
                     bool required) {
    const Json* v = member(object, key);
    if (!v) {
        if (required) fail(where, std::string("has no ") + key);
        return false;
    }
    if (v->is_number_unsigned()) {
        out = v->get<uint64_t>();
        return true;
    }
    if (v->is_number_float()) {
        const double d = v->get<double>();
        if (d >= 0 && d <= 9007199254740992.0 && d == std::floor(d)) {
            out = uint64_t(d);
            return true;
        }
    }
    fail(where + "/" + key, "expected a non-negative integer, not " + v->dump().substr(0, 40));
    return false;
}

bool Reader::getIndex(const Json& object, const char* key, const std::string& where, const char* target,
                      int32_t& out, bool required) {
    uint64_t v = 0;
    if (!getUint(object, key, where, v, required)) return false;
    const size_t count = array(target).size();
    if (v >= count) {
        fail(where + "/" + key, singular(target) + " " + std::to_string(v) +
                                    " does not exist (the file has " + std::to_string(count) + ")");
        return false;
    }
    out = int32_t(v);
    return true;
}

bool Reader::getFloat(const Json& object, const char* key, const std::string& where, float& out) {
    const Json* v = member(object, key);
    if (!v) return false;
    if (!v->is_number() || !std::isfinite(v->get<double>())) {
        fail(where + "/" + key, "expected a number");
        return false;
    }
    out = float(v->get<double>());
    return true;
}

bool Reader::getFloats(const Json& object, const char* key, const std::string& where, float* out, size_t n) {
    const Json* v = member(object, key);
    if (!v) return false;
    if (!v->is_array() || v->size() != n) {
        fail(where + "/" + key, "expected " + std::to_string(n) + " numbers");
        return false;
    }
    for (size_t i = 0; i < n; ++i) {
        if (!(*v)[i].is_number()) {
            fail(where + "/" + key + "/" + std::to_string(i), "expected a number");
            return false;
        }
        out[i] = float((*v)[i].get<double>());
    }
    return true;
}

std::string Reader::getString(const Json& object, const char* key) const {
    const Json* v = member(object, key);
    return v && v->is_string() ? v->get<std::string>() : std::string();
}

// .glb (12-byte header, a JSON chunk, an optional BIN chunk; glTF 2.0 section 4.4) or .gltf text.
bool Reader::parseContainer(const ByteView& file) {
    const uint8_t* data = file.data;
    const size_t size = file.size;
    m_glb = size >= 4 && std::memcmp(data, "glTF", 4) == 0;
    if (!m_glb) return parseJson(data, size, 0);
    ByteReader r(data, size);
    r.skip(4);
    const uint32_t version = r.u32();
    const uint32_t length = r.u32();
    if (!r.ok()) {
        failAt(0, "header",
               "the file ends inside the 12-byte GLB header (" + std::to_string(size) + " bytes)");
        return false;
    }
    if (version != 2) {
        failAt(4, "header", "GLB version " + std::to_string(version) + " (only 2 is read)");
        return false;
    }
    if (length > size) {
        failAt(8, "header",
               "length " + std::to_string(length) + " exceeds the file's " + std::to_string(size) + " bytes");
        return false;
    }
    if (length < size)
        m_diag.warn(length, "header",
                    std::to_string(size - length) + " bytes after the GLB's length are ignored");
    r = ByteReader(data, length);
    r.skip(12);
    bool haveJson = false;
    for (int chunk = 0; !r.atEnd(); ++chunk) {
        const uint64_t at = r.offset();
        const uint32_t chunkLength = r.u32();
        const uint32_t type = r.u32();
        const std::string where = "chunk " + std::to_string(chunk);
        if (!r.ok()) {
            failAt(at, where, "the file ends inside the chunk header");
            return false;
        }
        if (!r.canRead(chunkLength)) {
            failAt(at, where,
                   "length " + std::to_string(chunkLength) + " exceeds the " + std::to_string(r.remaining()) +
                       " bytes left");
            return false;
        }
        if (chunkLength % 4 != 0)
            m_diag.violation(at, where, "length " + std::to_string(chunkLength) + " is not a multiple of 4");
        const uint64_t start = r.offset();
        if (chunk == 0) {
            if (type != kChunkJson) {
                failAt(at + 4, where, "the first chunk is not JSON (type " + hexNumber(type) + ")");
                return false;
            }
            if (!parseJson(r.current(), chunkLength, start)) return false;
            haveJson = true;
        } else if (type == kChunkBin && chunk == 1) {
            m_binChunk = ByteView{file.owner, r.current(), chunkLength};
            m_binOffset = start;
        } else if (type == kChunkBin) {
            m_diag.violation(at, where, "a second BIN chunk is ignored");
        }
        r.skip(chunkLength);
    }
    if (!haveJson) failAt(12, "header", "the GLB holds no JSON chunk");
    return haveJson;
}

// Parses the JSON (the whole .gltf, or a .glb's JSON chunk at `fileOffset`), nesting capped.
bool Reader::parseJson(const uint8_t* data, size_t size, uint64_t fileOffset) {
    auto place = [&](size_t position) {
        if (m_glb) return FilePlace::atOffset(fileOffset + position);
        int line = 1, column = 1;
        for (size_t i = 0; i < position && i < size; ++i) {
            if (data[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        return FilePlace::atLine(line, column);
    };
    try {
        Json::parser_callback_t cb = [](int depth, Json::parse_event_t, Json&) {
            if (size_t(depth) > kMaxJsonDepth) throw TooDeep{0};
            return true;
        };
        m_doc = Json::parse(data, data + size, cb);
    } catch (const Json::parse_error& e) {
        const size_t at = e.byte > 0 ? e.byte - 1 : 0;
        std::string what = e.what();
        const size_t colon = what.rfind(": ");
        m_diag.fatal(place(at), "JSON", colon != std::string::npos ? what.substr(colon + 2) : what);
        return false;
    } catch (const TooDeep&) {
        m_diag.fatal(FilePlace{}, "JSON",
                     "objects nest deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        return false;
    } catch (const Json::exception& e) {
        m_diag.fatal(place(0), "JSON", e.what());
        return false;
    }
    if (!m_doc.is_object()) {
        m_diag.fatal(place(0), "JSON", "the document is not an object");
        return false;
    }
    return true;
}

std::string Reader::resolveRelative(const std::string& uri) const {
    const std::string decoded = uriPath(uri);
    const size_t slash = m_path.find_last_of('/');
    return slash == std::string::npos ? decoded : m_path.substr(0, slash + 1) + decoded;
}

std::string Reader::uriPath(const std::string& uri) {
    std::string decoded;
    for (size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && hexValue(uri[i + 1]) >= 0 && hexValue(uri[i + 2]) >= 0) {
            decoded += char(hexValue(uri[i + 1]) * 16 + hexValue(uri[i + 2]));
            i += 2;
        } else {
            decoded += uri[i];
        }
    }
    return decoded;
}

// A `data:` URI decoded into `out` (isData set), or a relative file read into `out`.
bool Reader::decodeUri(const std::string& uri, const std::string& where, std::vector<uint8_t>& out,
                       std::string* mime, bool* isData) {
    *isData = uri.compare(0, 5, "data:") == 0;
    if (*isData) {
        const size_t comma = uri.find(',');
        if (comma == std::string::npos) {
            fail(where, "data URI without a comma");
            return false;
        }
        const std::string header = uri.substr(5, comma - 5);
        const size_t semi = header.find(';');
        if (mime) *mime = header.substr(0, semi);
        if (header.size() < 7 || header.compare(header.size() - 7, 7, ";base64") != 0) {
            fail(where, "data URI is not base64 (" + header.substr(0, 60) + ")");
            return false;
        }
        size_t bad = 0;
        if (!decodeBase64(uri, comma + 1, out, bad)) {
            fail(where, "data URI: character " + std::to_string(bad) + " is not base64");
            return false;
        }
        return true;
    }
    if (uri.find("://") != std::string::npos) {
        fail(where,
             "URI '" + uri.substr(0, 80) + "' is not a relative path (only files beside the model are read)");
        return false;
    }
    const std::string file = resolveRelative(uri);
    std::string error;
    auto bytes = readWholeFile(file, error);
    if (!bytes) {
        fail(where, "cannot read '" + file + "': " + error);
        return false;
    }
    out = *bytes;
    return true;
}

void Reader::readBuffers() {
    const Json& buffers = array("buffers");
    m_buffers.assign(buffers.size(), ByteView{});
    m_bufferOk.assign(buffers.size(), false);
    m_bufferFallback.assign(buffers.size(), false);
    for (size_t i = 0; i < buffers.size() && !m_diag.stopped(); ++i) {
        const std::string where = pointer("buffers", i);
        const Json& b = buffers[i];
        if (!objectAt(b, where)) continue;
        uint64_t length = 0;
        if (!getUint(b, "byteLength", where, length, true)) continue;
        const Json* uri = member(b, "uri");
        const Json* ext = member(b, "extensions");
        if (!uri && ext && member(*ext, "EXT_meshopt_compression")) {
            m_bufferFallback[i] = true;  // only views decoded from another buffer may use it
            continue;
        }
        if (!uri) {
            if (!m_glb || i != 0) {
                fail(where,
                     "has no uri" + std::string(m_glb ? " (only buffer 0 is the GLB's BIN chunk)" : ""));
                continue;
            }
            if (m_binChunk.data == nullptr) {
                fail(where, "refers to the GLB's BIN chunk, which the file lacks");
                continue;
            }
            if (length > m_binChunk.size) {
                failAt(m_binOffset, where,
                       "byteLength " + std::to_string(length) + " exceeds the BIN chunk's " +
                           std::to_string(m_binChunk.size) + " bytes");
                continue;
            }
            if (m_binChunk.size - length > 3)
                m_diag.violation(m_binOffset, where,
                                 "the BIN chunk holds " + std::to_string(m_binChunk.size - length) +
                                     " bytes more than byteLength " + std::to_string(length));
            m_buffers[i] = m_binChunk.sub(0, size_t(length));
            m_bufferOk[i] = true;
            continue;
        }
        if (!uri->is_string()) {
            fail(where + "/uri", "expected a string");
            continue;
        }
        std::vector<uint8_t> data;
        bool isData = false;
        if (!decodeUri(uri->get<std::string>(), where + "/uri", data, nullptr, &isData)) continue;
        if (data.size() < length) {
            fail(where, "byteLength " + std::to_string(length) + " but the " +
                            (isData ? "data URI" : "file") + " holds " + std::to_string(data.size()) +
                            " bytes");
            continue;
        }
        data.resize(size_t(length));
        m_buffers[i] = makeOwnedBytes(std::move(data));
        m_bufferOk[i] = true;
    }
}

void Reader::checkExtensions() {
    auto known = [](const std::string& name) {
        if (name == "EXT_meshopt_compression") return meshoptSupported();
        if (name == "KHR_draco_mesh_compression") return dracoSupported();
        for (const char* k : kKnownExtensions)
            if (name == k) return true;
        return false;
    };
    if (const Json* required = member(m_doc, "extensionsRequired"); required && required->is_array()) {
        for (size_t i = 0; i < required->size(); ++i) {
            const Json& e = (*required)[i];
            if (!e.is_string()) continue;
            const std::string name = e.get<std::string>();
            if (name == "KHR_mesh_quantization") m_quantization = true;
            if (!known(name))
                fail("/extensionsRequired/" + std::to_string(i),
                     "extension " + name + " is required and not supported");
        }
    }
    if (const Json* used = member(m_doc, "extensionsUsed"); used && used->is_array()) {
        for (const Json& e : *used) {
            if (!e.is_string()) continue;
            const std::string name = e.get<std::string>();
            if (name == "KHR_mesh_quantization") m_quantization = true;
            if (!known(name)) m_diag.info("extension " + name + " is used and not supported: ignored");
        }
    }
    const Json* asset = member(m_doc, "asset");
    const std::string version = asset ? getString(*asset, "version") : std::string();
    if (!asset) {
        m_diag.violation(FilePlace{}, "/asset", "missing");
    } else if (version.compare(0, 2, "2.") != 0) {
        fail("/asset/version", "glTF version '" + version.substr(0, 20) + "' (only 2.x is read)");
    }
    if (asset) {
        const std::string generator = getString(*asset, "generator");
        if (!generator.empty()) m_diag.info("generator: " + generator.substr(0, 200));
    }
}

void Reader::readCameras() {
    const Json& cameras = array("cameras");
    for (size_t i = 0; i < cameras.size(); ++i) {
        const std::string where = pointer("cameras", i);
        const Json& c = cameras[i];
        Camera cam;
        cam.name = getString(c, "name");
        const std::string type = getString(c, "type");
        const Json* p = member(c, type == "orthographic" ? "orthographic" : "perspective");
        if ((type != "perspective" && type != "orthographic") || !p || !p->is_object()) {
            fail(where, "type '" + type.substr(0, 40) + "' without its object (perspective or orthographic)");
            m_scene.cameras.push_back(cam);
            continue;
        }
        const std::string w = where + "/" + type;
        getFloat(*p, "znear", w, cam.nearZ);
        if (!getFloat(*p, "zfar", w, cam.farZ)) cam.farZ = std::max(cam.nearZ, 1e-3f) * 1e6f;
        if (type == "perspective") {
            getFloat(*p, "yfov", w, cam.yfov);
            getFloat(*p, "aspectRatio", w, cam.aspect);
            if (!(cam.yfov > 0.0f && cam.yfov < 3.14159265f)) fail(w + "/yfov", "must lie in (0, pi)");
        } else {
            float xmag = 1.0f, ymag = 1.0f;
            getFloat(*p, "xmag", w, xmag);
            getFloat(*p, "ymag", w, ymag);
            cam.orthographic = true;
            cam.orthoHeight = 2.0f * std::fabs(ymag);
            if (ymag != 0.0f && xmag != 0.0f) cam.aspect = std::fabs(xmag / ymag);
        }
        m_scene.cameras.push_back(cam);
    }
}

void Reader::readLights() {
    const Json* ext = member(m_doc, "extensions");
    const Json* punctual = ext ? member(*ext, "KHR_lights_punctual") : nullptr;
    const Json* lights = punctual ? member(*punctual, "lights") : nullptr;
    if (!lights || !lights->is_array()) return;
    for (size_t i = 0; i < lights->size(); ++i) {
        const std::string where = "/extensions/KHR_lights_punctual/lights/" + std::to_string(i);
        const Json& l = (*lights)[i];
        Light light;
        light.name = getString(l, "name");
        const std::string type = getString(l, "type");
        float color[3] = {1, 1, 1};
        getFloats(l, "color", where, color, 3);
        light.color = glm::vec3(color[0], color[1], color[2]);
        getFloat(l, "intensity", where, light.intensity);
        // glTF lights fall off with the inverse square of the distance, ending at `range`.
        light.constantAttenuation = 0.0f;
        light.quadraticAttenuation = 1.0f;
        getFloat(l, "range", where, light.range);
        if (type == "directional") {
            light.type = LightType::Directional;
            light.quadraticAttenuation = 0.0f;
            light.constantAttenuation = 1.0f;
        } else if (type == "spot") {
            light.type = LightType::Spot;
            light.innerCone = 0.0f;
            light.outerCone = 3.14159265f / 4.0f;
            if (const Json* spot = member(l, "spot")) {
                getFloat(*spot, "innerConeAngle", where + "/spot", light.innerCone);
                getFloat(*spot, "outerConeAngle", where + "/spot", light.outerCone);
            }
            if (!(light.innerCone >= 0.0f && light.innerCone < light.outerCone && light.outerCone <= 1.5708f))
                m_diag.violation(FilePlace{}, where + "/spot",
                                 "cones must satisfy 0 <= inner < outer <= pi/2");
        } else if (type == "point") {
            light.type = LightType::Point;
        } else {
            fail(where + "/type", "'" + type.substr(0, 40) + "' is not point, spot or directional");
        }
        m_lightMap.push_back(int32_t(m_scene.lights.size()));
        m_scene.lights.push_back(light);
    }
}

}  // namespace gltf

LoadResult loadGltfRead(std::shared_ptr<const void> owner, const uint8_t* data, size_t size, const std::string& path,
                        const LoadOptions& options, std::shared_ptr<void>*) {
    LoadResult result;
    auto scene = std::make_unique<Scene>();
    try {
        gltf::Reader reader(path, options, *scene, result.problems);
        reader.run(ByteView{std::move(owner), data, size});
    } catch (const std::bad_alloc&) {
        result.problems.push_back({path, -1, 0, 0, "", "out of memory while reading the file"});
    } catch (const nlohmann::json::exception& e) {
        // A JSON value of an unexpected type that a check missed: the file is bad, not the reader.
        result.problems.push_back({path, -1, 0, 0, "JSON", e.what()});
    }
    if (result.problems.empty()) result.scene = std::move(scene);
    return result;
}

LoadResult loadGltf(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                    const LoadOptions& options) {
    const uint8_t* data = bytes->data();
    const size_t size = bytes->size();
    return loadGltfRead(std::move(bytes), data, size, path, options, nullptr);
}

std::vector<std::string> gltfReferencedFiles(const uint8_t* data, size_t size) {
    std::vector<std::string> files;
    const uint8_t* json = data;
    size_t jsonSize = size;
    if (size >= 4 && std::memcmp(data, "glTF", 4) == 0) {
        if (size < 20) return files;
        uint32_t length = 0;
        std::memcpy(&length, data + 12, 4);
        if (length > size - 20) return files;
        json = data + 20;
        jsonSize = length;
    }
    const nlohmann::json doc = nlohmann::json::parse(json, json + jsonSize, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return files;
    for (const char* kind : {"buffers", "images"}) {
        const auto list = doc.find(kind);
        if (list == doc.end() || !list->is_array()) continue;
        for (const nlohmann::json& item : *list) {
            if (!item.is_object()) continue;
            const auto uri = item.find("uri");
            if (uri == item.end() || !uri->is_string()) continue;
            const std::string text = uri->get<std::string>();
            if (text.compare(0, 5, "data:") == 0 || text.find("://") != std::string::npos) continue;
            const std::string file = gltf::Reader::uriPath(text);
            if (!file.empty() && std::find(files.begin(), files.end(), file) == files.end()) files.push_back(file);
        }
    }
    return files;
}

}  // namespace esv
