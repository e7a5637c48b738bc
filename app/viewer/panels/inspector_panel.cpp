// The inspector: everything about the selected node (transforms as stored, animated and in world
// space, the current clip's channels on it, its mesh as uploaded, materials, textures, light and
// camera), and lists of the scene's materials, textures and lights to inspect without a node.
// Material colours and light parameters are edited in place: the renderer reads them every frame.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/viewer/panels.h"
#include "app/viewer/panels/fitted_text.h"
#include "app/viewer/panels/panel_window.h"
#include "app/viewer/ui_text.h"
#include "app/viewer/viewer_actions.h"

namespace esv {
namespace {

const ImVec4 kWarningColor(1.0f, 0.72f, 0.3f, 1.0f);
const ImVec4 kOverColor(1.0f, 0.35f, 0.3f, 1.0f);
const ImVec4 kLabelColor(0.65f, 0.65f, 0.65f, 1.0f);
constexpr ImGuiTableFlags kTableFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                        ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
constexpr size_t kTableMaxRows = 12;  // taller tables scroll
constexpr float kThumbnail = 64.0f, kPreview = 256.0f, kListThumbnail = 20.0f;
constexpr int kListHeightRows = 10;

const char* const kInterpolationNames[] = {"step", "linear", "bezier", "tcb"};
static_assert(sizeof(kInterpolationNames) / sizeof(kInterpolationNames[0]) ==
              static_cast<size_t>(Interpolation::Count));
const char* const kShadingModelNames[] = {"classic (Blinn-Phong)", "metal/rough", "unlit"};
static_assert(sizeof(kShadingModelNames) / sizeof(kShadingModelNames[0]) ==
              static_cast<size_t>(ShadingModel::Count));
const char* const kBlendFactorNames[] = {"zero",
                                         "one",
                                         "src_color",
                                         "one_minus_src_color",
                                         "src_alpha",
                                         "one_minus_src_alpha",
                                         "dst_alpha",
                                         "one_minus_dst_alpha",
                                         "dst_color",
                                         "one_minus_dst_color",
                                         "src_alpha_saturate",
                                         "constant_color",
                                         "one_minus_constant_color",
                                         "constant_alpha",
                                         "one_minus_constant_alpha"};
static_assert(sizeof(kBlendFactorNames) / sizeof(kBlendFactorNames[0]) ==
              static_cast<size_t>(BlendFactor::Count));
const char* const kBlendOpNames[] = {"add", "subtract", "reverse_subtract", "min", "max"};
static_assert(sizeof(kBlendOpNames) / sizeof(kBlendOpNames[0]) == static_cast<size_t>(BlendOp::Count));

// Enum names from the tables above, "?" for values a bad file could still hold.
template <class E, size_t N>
const char* enumName(const char* const (&names)[N], E value) {
    const size_t i = static_cast<size_t>(value);
    return i < N ? names[i] : "?";
}

// Begins a table of `rows` one-line rows (plus a header row when `header`) that scrolls sideways,
// as the inspector is narrow, and also vertically beyond kTableMaxRows rows. Pair with EndTable
// when it returns true.
bool beginTable(const char* id, int columns, size_t rows, bool header) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float rowHeight = ImGui::GetTextLineHeight() + style.CellPadding.y * 2.0f;
    const size_t total = rows + (header ? 1 : 0);
    ImGuiTableFlags flags = kTableFlags;
    if (total > kTableMaxRows) flags |= ImGuiTableFlags_ScrollY;
    const float height =
        rowHeight * static_cast<float>(std::min(total, kTableMaxRows)) + style.ScrollbarSize + 4.0f;
    if (!ImGui::BeginTable(id, columns, flags, ImVec2(0.0f, height))) return false;
    if (header) ImGui::TableSetupScrollFreeze(0, 1);
    return true;
}

template <class T>
bool inRange(const std::vector<T>& v, int i) {
    return i >= 0 && static_cast<size_t>(i) < v.size();
}

std::string nodeLabel(const Scene& scene, int n) {
    if (!inRange(scene.nodes, n))
        return n < 0 ? std::string("none") : "node " + std::to_string(n) + " (invalid)";
    const std::string& name = scene.nodes[static_cast<size_t>(n)].name;
    return name.empty() ? "node " + std::to_string(n) : name + " (" + std::to_string(n) + ")";
}

void label(const char* text) {
    ImGui::TextColored(kLabelColor, "%s", text);
    ImGui::SameLine();
}

// A clickable node name that selects the node.
void nodeLink(ViewerState& s, int n) {
    if (!inRange(s.scene->nodes, n)) {
        ImGui::TextDisabled("%s", nodeLabel(*s.scene, n).c_str());
        return;
    }
    ImGui::PushID(n);
    if (fittedSmallButton("node", nodeLabel(*s.scene, n))) selectNode(s, n);
    ImGui::PopID();
}

std::string bytesText(double bytes) {
    char buffer[64];
    if (bytes >= 1024.0 * 1024.0)
        std::snprintf(buffer, sizeof buffer, "%.2f MiB", bytes / (1024.0 * 1024.0));
    else if (bytes >= 1024.0)
        std::snprintf(buffer, sizeof buffer, "%.1f KiB", bytes / 1024.0);
    else
        std::snprintf(buffer, sizeof buffer, "%.0f B", bytes);
    return buffer;
}

// ---------------------------------------------------------------------------------------------
// Transforms

// Values that print as zero print without a sign ("-0.00" reads as a problem that is not there).
float shown(float v, float epsilon) {
    return std::abs(v) < epsilon ? 0.0f : v;
}

// A matrix as four rows (the matrix is column-major: m[column][row]), three decimals (four
// significant digits past 1e6), right-aligned in columns as wide as their longest number.
void matrixTable(const char* id, const glm::mat4& m) {
    if (!ImGui::BeginTable(id, 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit |
                                      ImGuiTableFlags_NoHostExtendX))
        return;
    for (int row = 0; row < 4; ++row) {
        ImGui::TableNextRow();
        for (int column = 0; column < 4; ++column) {
            ImGui::TableNextColumn();
            const float v = shown(m[column][row], 5e-4f);
            char text[32];
            std::snprintf(text, sizeof text, std::abs(v) < 1e6f ? "%.3f" : "%.4g", double(v));
            const float width = ImGui::CalcTextSize(text).x;
            ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, ImGui::GetContentRegionAvail().x - width));
            ImGui::TextUnformatted(text);
        }
    }
    ImGui::EndTable();
}

// A file name or URL as its base name, the whole text in a tooltip when that is longer.
void pathText(const std::string& path) {
    if (path.empty()) {
        ImGui::TextUnformatted("-");
        return;
    }
    const std::string name = fitToWidth(textureDisplayName(path), ImGui::GetContentRegionAvail().x);
    ImGui::TextUnformatted(name.c_str());
    if (name != path && ImGui::IsItemHovered()) fullTextTooltip(path);
}

// A colour as a swatch with values 0..1; one brighter than 1 (a colour times an intensity, as some
// exporters write) as plain numbers beside a swatch of its hue.
void colorEdit(const char* name, glm::vec3& color) {
    const float peak = std::max(color.r, std::max(color.g, color.b));
    if (peak <= 1.0f) {
        ImGui::ColorEdit3(name, &color.x, ImGuiColorEditFlags_Float);
        return;
    }
    const glm::vec3 hue = color / peak;
    ImGui::PushID(name);
    ImGui::ColorButton("##hue", ImVec4(hue.r, hue.g, hue.b, 1.0f), ImGuiColorEditFlags_NoTooltip);
    ImGui::PopID();
    ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::DragFloat3(name, &color.x, 0.01f, 0.0f, 0.0f, "%.3g");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("brighter than 1: %.3g x the swatch's colour", peak);
}

// The user attributes the file attaches to an object (name, type, value), under a tree node.
void attributeTable(const std::vector<UserAttribute>& attributes) {
    if (attributes.empty()) return;
    if (!ImGui::TreeNode("user attributes", "user attributes (%zu)", attributes.size())) return;
    if (beginTable("attributes", 3, attributes.size(), true)) {
        ImGui::TableSetupColumn("name");
        ImGui::TableSetupColumn("type");
        ImGui::TableSetupColumn("value");
        ImGui::TableHeadersRow();
        for (const UserAttribute& a : attributes) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(a.name.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(a.type.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(a.value.c_str());
        }
        ImGui::EndTable();
    }
    ImGui::TreePop();
}

// Translation, rotation (XYZ Euler degrees) and scale of an affine matrix; shear is ignored and a
// negative determinant is put on the x scale.
void decompose(const glm::mat4& m, glm::vec3& translation, glm::vec3& eulerDegrees, glm::vec3& scale) {
    translation = glm::vec3(m[3]);
    glm::vec3 axes[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
    for (int i = 0; i < 3; ++i) scale[i] = glm::length(axes[i]);
    if (glm::determinant(glm::mat3(m)) < 0.0f) scale.x = -scale.x;
    const glm::vec3 unit[3] = {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)};
    glm::mat3 rotation;
    for (int i = 0; i < 3; ++i) rotation[i] = std::abs(scale[i]) > 1e-12f ? axes[i] / scale[i] : unit[i];
    eulerDegrees = glm::degrees(glm::eulerAngles(glm::normalize(glm::quat_cast(rotation))));
}

void trsText(const glm::vec3& t, const glm::vec3& eulerDegrees, const glm::vec3& scale) {
    label("T  ");
    ImGui::Text("%.4f  %.4f  %.4f", shown(t.x, 5e-5f), shown(t.y, 5e-5f), shown(t.z, 5e-5f));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("translation");
    label("R  ");
    ImGui::Text("%.2f  %.2f  %.2f", shown(eulerDegrees.x, 5e-3f), shown(eulerDegrees.y, 5e-3f),
                shown(eulerDegrees.z, 5e-3f));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("rotation: Euler angles about X, Y, Z in degrees");
    label("S  ");
    ImGui::Text("%.4f  %.4f  %.4f", scale.x, scale.y, scale.z);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("scale");
}

void transformText(const char* id, const Transform& transform) {
    if (transform.useMatrix) {
        ImGui::TextUnformatted("matrix");
        matrixTable(id, transform.matrix);
        return;
    }
    const glm::quat& q = transform.rotation;
    trsText(transform.translation, glm::degrees(glm::eulerAngles(q)), transform.scale);
    label("Q  ");
    ImGui::Text("%.4f  %.4f  %.4f  %.4f", q.x, q.y, q.z, q.w);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("rotation quaternion x, y, z, w");
}

void drawTransforms(const ViewerState& s, int n) {
    const Node& node = s.scene->nodes[static_cast<size_t>(n)];
    if (!ImGui::CollapsingHeader("Transform", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (ImGui::TreeNodeEx("local (as stored)", ImGuiTreeNodeFlags_DefaultOpen)) {
        transformText("stored", node.local);
        ImGui::TreePop();
    }
    if (!node.elements.empty() && ImGui::TreeNodeEx("elements (file order)", ImGuiTreeNodeFlags_DefaultOpen)) {
        // OpenGEX: the transform structures whose product is the local (and object) transform.
        for (size_t e = 0; e < node.elements.size(); ++e) {
            const TransformElement& el = node.elements[e];
            const uint32_t comps = elementComponents(el.kind);
            ImGui::Text("%zu %s%s%s%s", e, elementKindName(el.kind), el.object ? " (object)" : "",
                        el.name.empty() ? "" : "  %", el.name.c_str());
            if (comps <= 4) {
                ImGui::SameLine();
                std::string values;
                char buf[32];
                for (uint32_t c = 0; c < comps; ++c) {
                    const bool angle = c == 0 && el.kind >= ElementKind::RotateX && el.kind <= ElementKind::RotateAxis;
                    std::snprintf(buf, sizeof buf, c ? ", %.4g" : "%.4g", angle ? glm::degrees(el.value[c]) : el.value[c]);
                    values += buf;
                    if (angle) values += " deg";
                }
                ImGui::TextDisabled("%s", values.c_str());
            } else {
                glm::mat4 m;
                std::memcpy(&m[0][0], el.value.data(), sizeof m);
                matrixTable(("element" + std::to_string(e)).c_str(), m);
            }
        }
        ImGui::TreePop();
    }
    if (ImGui::TreeNodeEx("local (animated)", ImGuiTreeNodeFlags_DefaultOpen)) {
        if (inRange(s.pose.local, n))
            transformText("animated", s.pose.local[static_cast<size_t>(n)]);
        else
            ImGui::TextDisabled("no pose evaluated");
        ImGui::TreePop();
    }
    if (ImGui::TreeNodeEx("world", ImGuiTreeNodeFlags_DefaultOpen)) {
        if (inRange(s.pose.world, n)) {
            const glm::mat4& world = s.pose.world[static_cast<size_t>(n)];
            glm::vec3 t, r, sc;
            decompose(world, t, r, sc);
            trsText(t, r, sc);
            matrixTable("world", world);
        } else {
            ImGui::TextDisabled("no pose evaluated");
        }
        ImGui::TreePop();
    }
}

void drawChannels(const ViewerState& s, int n) {
    const Scene& scene = *s.scene;
    const int clip = s.transport.clip;
    if (!ImGui::CollapsingHeader("Animation channels")) return;
    if (!inRange(scene.animation.clips, clip)) {
        ImGui::TextDisabled("Rest pose: no clip playing.");
        return;
    }
    const Clip& c = scene.animation.clips[static_cast<size_t>(clip)];
    ImGui::Text("clip \"%s\" (%.3f .. %.3f s)", c.name.c_str(), c.start, c.end);
    std::vector<size_t> tracks;
    for (size_t i = 0; i < c.tracks.size(); ++i)
        if (c.tracks[i].node == n) tracks.push_back(i);
    if (tracks.empty()) {
        ImGui::TextDisabled("The clip does not animate this node.");
        return;
    }
    if (!beginTable("channels", 5, tracks.size(), true)) return;
    ImGui::TableSetupColumn("channel");
    ImGui::TableSetupColumn("keys");
    ImGui::TableSetupColumn("interpolation");
    ImGui::TableSetupColumn("components");
    ImGui::TableSetupColumn("time range (s)");
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(tracks.size()));
    while (clipper.Step()) {
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const Track& track = c.tracks[tracks[static_cast<size_t>(r)]];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(static_cast<size_t>(track.channel) < static_cast<size_t>(Channel::Count)
                                       ? channelName(track.channel)
                                       : "?");
            ImGui::TableNextColumn();
            ImGui::Text("%zu", track.times.size());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(enumName(kInterpolationNames, track.interpolation));
            ImGui::TableNextColumn();
            ImGui::Text("%u", track.components);
            ImGui::TableNextColumn();
            if (track.times.empty())
                ImGui::TextDisabled("no keys");
            else
                ImGui::Text("%.3f .. %.3f", track.times.front(), track.times.back());
        }
    }
    ImGui::EndTable();
}

// ---------------------------------------------------------------------------------------------
// Textures

// A thumbnail of scene texture `t` fitted in `size` pixels, with a larger preview on hover.
// What the view draws for a missing texture, in one word: grey by default, the checker on request.
const char* missingLook(const ViewerState& s) {
    return s.view.missingTexture == MissingTexture::Checker ? "checker" : "grey";
}

void textureThumbnail(const ViewerState& s, int t, float size, bool preview) {
    const Texture& texture = s.scene->textures[static_cast<size_t>(t)];
    // A missing texture looks here as it does in the view: a grey square unless the checker is asked for.
    if (texture.placeholder && s.view.missingTexture == MissingTexture::Grey) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + size, at.y + size), IM_COL32(128, 128, 128, 255));
        ImGui::Dummy(ImVec2(size, size));
        return;
    }
    unsigned object = textureObject(s, t);
    // A later array layer or a cube map's face chosen in the Textures list: its picture
    // (LayerPreview) instead of the renderer's texture.
    const LayerPreview& layer = s.layerPreview;
    const bool previewed = t == s.selection.texture && (s.selection.textureLayer > 0 || texture.image.isCube()) &&
                           layer.texture == t && layer.layer == s.selection.textureLayer;
    if (previewed) {
        if (!layer.error.empty()) {
            ImGui::TextColored(kWarningColor, "layer %d: %s", layer.layer, layer.error.c_str());
            return;
        }
        object = layer.object;
    }
    if (object == 0) {
        ImGui::TextDisabled("(not uploaded)");
        return;
    }
    // ImGui's GL backend binds GL_TEXTURE_2D; a cube map object cannot be drawn through it, only the
    // selected one's face picture.
    if (texture.image.isCube() && !previewed) {
        ImGui::TextDisabled("(cube map)");
        return;
    }
    const float w = static_cast<float>(std::max(texture.image.width, 1u));
    const float h = static_cast<float>(std::max(texture.image.height, 1u));
    auto fit = [&](float box) { return w >= h ? ImVec2(box, box * h / w) : ImVec2(box * w / h, box); };
    const ImTextureID id = reinterpret_cast<ImTextureID>(static_cast<intptr_t>(object));
    ImGui::Image(id, fit(size));
    if (preview && ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::Image(id, fit(kPreview));
        ImGui::Text("%s  %ux%u", textureDisplayName(texture.name).c_str(), texture.image.width, texture.image.height);
        ImGui::EndTooltip();
    }
}

// The file's format and, where it differs, the one uploaded: "PVRTC1 4bpp RGB -> RGBA8" for an image
// decoded in software for this GPU (the format as the decoding note names it), else the format alone.
// KTX files, which wrap every family, also name their container and an ASTC block size:
// "KTX2 ASTC 6x6 -> RGBA8".
std::string storedAndUploaded(const Image& image) {
    const std::string marker = " decoded to RGBA8";
    std::string stored = pixelFormatName(image.format);
    bool decoded = false;
    for (const std::string& note : image.notes) {
        const size_t at = note.find(marker);
        if (at != std::string::npos && at > 0) {
            stored = note.substr(0, at);
            decoded = true;
            break;
        }
    }
    if (image.container == "ktx" || image.container == "ktx2") {
        if (stored == pixelFormatName(PixelFormat::Astc))
            stored += " " + std::to_string(image.blockWidth) + "x" + std::to_string(image.blockHeight);
        stored = (image.container == "ktx" ? "KTX " : "KTX2 ") + stored;
    }
    return decoded ? stored + " -> RGBA8" : stored;
}

// How the image reaches the GPU: compressed as stored, decoded in software for this GPU, or RGBA8.
void imageStatus(const ViewerState& s, const Image& image) {
    if (isCompressed(image.format)) {
        if (s.rendererInfo.supports(image.format))
            ImGui::TextUnformatted("compressed, sampled natively by this GPU");
        else
            ImGui::TextColored(kWarningColor, "compressed, but this GPU lacks the codec");
        return;
    }
    bool decoded = false;
    for (const std::string& note : image.notes)
        decoded = decoded || note.find("decoded to RGBA8") != std::string::npos;
    if (decoded)
        ImGui::TextColored(kWarningColor, "decoded to RGBA8 for this GPU");
    else
        ImGui::TextUnformatted("uncompressed RGBA8");
}

void drawTextureDetail(const ViewerState& s, int t) {
    const Scene& scene = *s.scene;
    if (!inRange(scene.textures, t)) {
        ImGui::TextDisabled("texture %d does not exist", t);
        return;
    }
    const Texture& texture = scene.textures[static_cast<size_t>(t)];
    const Image& image = texture.image;
    ImGui::PushID(t);
    ImGui::BeginGroup();
    textureThumbnail(s, t, kThumbnail, true);
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    const std::string header = formatText("texture %d \"%s\"", t, textureDisplayName(texture.name).c_str());
    const std::string shownHeader = fitToWidth(header, ImGui::GetContentRegionAvail().x);
    ImGui::TextUnformatted(shownHeader.c_str());
    if ((shownHeader != header || textureDisplayName(texture.name) != texture.name) && ImGui::IsItemHovered())
        fullTextTooltip(texture.name);
    label("path");
    pathText(texture.path);
    label("found");
    if (texture.placeholder)
        ImGui::TextColored(kWarningColor, "missing (drawn %s)", missingLook(s));
    else if (!texture.embedded.empty())
        ImGui::TextUnformatted("embedded in the file");
    else
        pathText(texture.resolvedPath);
    ImGui::Text("%s, %ux%u, %u mip levels, %u face%s%s", pixelFormatName(image.format), image.width,
                image.height, image.levels, image.faces, image.faces == 1 ? "" : "s",
                image.srgb ? ", sRGB" : "");
    if (image.layers > 1) ImGui::Text("array of %u layers", image.layers);
    if (image.format == PixelFormat::Astc)
        ImGui::Text("ASTC block %ux%u", image.blockWidth, image.blockHeight);
    ImGui::Text("container %s%s%s", image.container.empty() ? "?" : image.container.c_str(),
                image.bottomUp ? ", stored bottom-up" : "",
                image.premultiplied ? ", premultiplied alpha" : "");
    imageStatus(s, image);
    ImGui::EndGroup();
    for (const std::string& note : image.notes) ImGui::BulletText("%s", note.c_str());
    attributeTable(texture.attributes);
    ImGui::PopID();
}

// ---------------------------------------------------------------------------------------------
// Materials

// True when the current clip animates uv transform `uv`.
bool uvTransformAnimated(const ViewerState& s, int uv) {
    const Scene& scene = *s.scene;
    if (!inRange(scene.animation.clips, s.transport.clip)) return false;
    for (const Track& track : scene.animation.clips[static_cast<size_t>(s.transport.clip)].tracks)
        if (track.channel == Channel::UvElement && track.uvTransform == uv) return true;
    return false;
}

// A texture reference's swizzle, border colour and texture coordinate transform: its elements in
// order, whether the current clip animates it, and its matrix at the current time.
void drawTextureSampling(const ViewerState& s, const TextureRef& ref) {
    const Scene& scene = *s.scene;
    if (ref.swizzle != kIdentitySwizzle) {
        label("swizzle");
        ImGui::Text("%s (as rgba: %s)", swizzleText(ref.swizzle).c_str(), swizzleText(resolveSwizzle(ref.swizzle, 4)).c_str());
    }
    if (wrapNeedsShader(ref.wrapS) || wrapNeedsShader(ref.wrapT) || ref.border != glm::vec4(0.0f)) {
        label("border");
        ImGui::Text("(%.3g, %.3g, %.3g, %.3g)%s", ref.border.r, ref.border.g, ref.border.b, ref.border.a,
                    wrapNeedsShader(ref.wrapS) || wrapNeedsShader(ref.wrapT) ? ", emulated in the fragment stage" : "");
    }
    if (ref.uvTransform < 0) return;
    if (!inRange(scene.uvTransforms, ref.uvTransform)) {
        ImGui::TextColored(kWarningColor, "uv transform %d does not exist", ref.uvTransform);
        return;
    }
    const UvTransform& uv = scene.uvTransforms[static_cast<size_t>(ref.uvTransform)];
    const bool animated = uvTransformAnimated(s, ref.uvTransform);
    const std::string title = "uv transform " + std::to_string(ref.uvTransform) + " \"" + uv.name + "\"" +
                              (animated ? " (animated by this clip)" : "") + "###uv";
    if (!ImGui::TreeNodeEx(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
    for (size_t e = 0; e < uv.elements.size(); ++e) {
        const TransformElement& el = uv.elements[e];
        std::string values;
        char buf[32];
        const uint32_t comps = elementComponents(el.kind);
        for (uint32_t c = 0; c < comps && comps <= 4; ++c) {
            const bool angle = c == 0 && el.kind >= ElementKind::RotateX && el.kind <= ElementKind::RotateAxis;
            std::snprintf(buf, sizeof buf, c ? ", %.4g" : "%.4g", angle ? glm::degrees(el.value[c]) : el.value[c]);
            values += buf;
            if (angle) values += " deg";
        }
        ImGui::Text("%zu %s%s%s", e, elementKindName(el.kind), el.name.empty() ? "" : "  %", el.name.c_str());
        if (!values.empty()) {
            ImGui::SameLine();
            ImGui::TextDisabled("%s", values.c_str());
        }
    }
    // u' = m00 u + m10 v + m30, v' = m01 u + m11 v + m31: what the renderer applies.
    const glm::mat4 m = inRange(s.pose.uvMatrices, ref.uvTransform) ? s.pose.uvMatrices[static_cast<size_t>(ref.uvTransform)]
                                                                     : uv.matrix();
    constexpr float kZero = 1e-6f;
    ImGui::Text("now: u' = %.4g u %+.4g v %+.4g", shown(m[0][0], kZero), shown(m[1][0], kZero), shown(m[3][0], kZero));
    ImGui::Text("     v' = %.4g u %+.4g v %+.4g", shown(m[0][1], kZero), shown(m[1][1], kZero), shown(m[3][1], kZero));
    ImGui::TreePop();
}

void drawMaterialDetail(ViewerState& s, int m) {
    Scene& scene = *s.scene;
    if (!inRange(scene.materials, m)) {
        if (m < 0)
            ImGui::TextDisabled("no material (default)");
        else
            ImGui::TextColored(kWarningColor, "material %d does not exist", m);
        return;
    }
    Material& material = scene.materials[static_cast<size_t>(m)];
    ImGui::PushID(m);
    fittedText(formatText("material %d \"%s\"", m, material.name.c_str()));
    attributeTable(material.attributes);
    label("shading");
    ImGui::TextUnformatted(enumName(kShadingModelNames, material.model));
    colorEdit("ambient", material.ambient);
    colorEdit("diffuse", material.diffuse);
    colorEdit("specular", material.specular);
    colorEdit("emissive", material.emissive);
    ImGui::DragFloat("shininess", &material.shininess, 0.5f, 0.0f, 1024.0f, "%.1f");
    if (material.model == ShadingModel::MetalRough) {
        ImGui::SliderFloat("metallic", &material.metallic, 0.0f, 1.0f);
        ImGui::SliderFloat("roughness", &material.roughness, 0.0f, 1.0f);
        ImGui::Text("ior %.3f, reflectivity %.3f", material.ior, material.reflectivity);
    }
    ImGui::Text("opacity %.3f, alpha cutoff %s", material.opacity,
                material.alphaCutoff > 0.0f ? std::to_string(material.alphaCutoff).c_str() : "off");
    ImGui::Text("%s, vertex colours %s", material.twoSided ? "two-sided" : "one-sided (back faces culled)",
                material.vertexColors ? "on" : "off");
    const BlendState& blend = material.blend;
    if (blend.enabled) {
        ImGui::Text("blend rgb %s %s %s", enumName(kBlendFactorNames, blend.srcRgb),
                    enumName(kBlendOpNames, blend.opRgb), enumName(kBlendFactorNames, blend.dstRgb));
        ImGui::Text("blend alpha %s %s %s", enumName(kBlendFactorNames, blend.srcAlpha),
                    enumName(kBlendOpNames, blend.opAlpha), enumName(kBlendFactorNames, blend.dstAlpha));
    } else {
        ImGui::TextUnformatted("blend off");
    }
    if (!material.effectFile.empty() || !material.effectName.empty())
        ImGui::Text("effect %s %s", material.effectFile.c_str(), material.effectName.c_str());

    bool anyTexture = false;
    for (size_t slot = 0; slot < material.textures.size(); ++slot) {
        const TextureRef& ref = material.textures[slot];
        if (ref.texture < 0) continue;
        anyTexture = true;
        ImGui::PushID(static_cast<int>(slot));
        ImGui::Separator();
        ImGui::Text("%s: uv set %u, address %s/%s", textureSlotName(static_cast<TextureSlot>(slot)), ref.uvSet,
                    wrapName(ref.wrapS), wrapName(ref.wrapT));
        drawTextureSampling(s, ref);
        drawTextureDetail(s, ref.texture);
        ImGui::PopID();
    }
    if (!anyTexture) ImGui::TextDisabled("no textures");
    ImGui::PopID();
}

// ---------------------------------------------------------------------------------------------
// Mesh

size_t gpuBytes(const Mesh& mesh) {
    size_t bytes = 0;
    for (const VertexStream& stream : mesh.streams) bytes += size_t{stream.count} * stream.stride;
    for (const MorphTarget& target : mesh.morphTargets)
        bytes += size_t{target.stream.count} * target.stream.stride;
    if (mesh.indices.count > 0 &&
        static_cast<size_t>(mesh.indices.type) < static_cast<size_t>(ComponentType::Count))
        bytes += size_t{mesh.indices.count} * componentSize(mesh.indices.type);
    return bytes;
}

void streamTable(const char* id, const VertexStream& stream) {
    if (!beginTable(id, 6, stream.attributes.size(), true)) return;
    ImGui::TableSetupColumn("attribute");
    ImGui::TableSetupColumn("type");
    ImGui::TableSetupColumn("components");
    ImGui::TableSetupColumn("normalized");
    ImGui::TableSetupColumn("offset");
    ImGui::TableSetupColumn("swizzle");
    ImGui::TableHeadersRow();
    for (const VertexAttribute& a : stream.attributes) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const bool semanticOk = static_cast<size_t>(a.semantic) < static_cast<size_t>(Semantic::Count);
        ImGui::Text("%s %u", semanticOk ? semanticName(a.semantic) : "?", a.set);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(static_cast<size_t>(a.type) < static_cast<size_t>(ComponentType::Count)
                                   ? componentTypeName(a.type)
                                   : "?");
        ImGui::TableNextColumn();
        ImGui::Text("%u", a.components);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(a.normalized ? "yes" : "no");
        ImGui::TableNextColumn();
        ImGui::Text("%u", a.offset);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(a.swizzle == Swizzle::BGRA   ? "bgra"
                               : a.swizzle == Swizzle::ABGR ? "abgr"
                                                            : "-");
    }
    ImGui::EndTable();
}

void drawBoneBatches(ViewerState& s, const Node& node, const Mesh& mesh) {
    const Scene& scene = *s.scene;
    const Skin* skin =
        inRange(scene.skins, node.skin) ? &scene.skins[static_cast<size_t>(node.skin)] : nullptr;
    auto jointNode = [&](int32_t bone) {
        return skin && bone >= 0 && static_cast<size_t>(bone) < skin->joints.size()
                   ? skin->joints[static_cast<size_t>(bone)]
                   : -1;
    };
    const int perBone = s.rendererInfo.vectorsPerBone;
    ImGui::Text("%zu bone batches, at most %u bones each, %s bone indices, %d uniform vectors per bone",
                mesh.boneBatches.size(), mesh.maxBonesPerBatch,
                mesh.boneIndicesBatchLocal ? "batch-local" : "skin", perBone);
    if (!beginTable("batches", 6, mesh.boneBatches.size(), true)) return;
    ImGui::TableSetupColumn("batch");
    ImGui::TableSetupColumn("bones");
    ImGui::TableSetupColumn("uniform vectors");
    ImGui::TableSetupColumn("first triangle");
    ImGui::TableSetupColumn("triangles");
    ImGui::TableSetupColumn("joints (click to select)");
    ImGui::TableHeadersRow();
    const int limit = s.rendererInfo.maxVertexUniformVectors;
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(mesh.boneBatches.size()));
    while (clipper.Step()) {
        for (int b = clipper.DisplayStart; b < clipper.DisplayEnd; ++b) {
            const BoneBatch& batch = mesh.boneBatches[static_cast<size_t>(b)];
            ImGui::PushID(b);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d", b);
            ImGui::TableNextColumn();
            ImGui::Text("%zu", batch.bones.size());
            ImGui::TableNextColumn();
            const size_t vectors = batch.bones.size() * static_cast<size_t>(std::max(perBone, 0));
            if (limit > 0 &&
                vectors + static_cast<size_t>(std::max(s.rendererInfo.reservedVertexVectors, 0)) >
                    static_cast<size_t>(limit))
                ImGui::TextColored(kOverColor, "%zu", vectors);
            else
                ImGui::Text("%zu", vectors);
            ImGui::TableNextColumn();
            ImGui::Text("%u", batch.firstTriangle);
            ImGui::TableNextColumn();
            ImGui::Text("%u", batch.triangleCount);
            ImGui::TableNextColumn();
            // The joint names in one line, each a link to its node.
            for (size_t i = 0; i < batch.bones.size(); ++i) {
                const int joint = jointNode(batch.bones[i]);
                const std::string text = nodeLabel(scene, joint);
                ImGui::PushID(static_cast<int>(i));
                if (i > 0) ImGui::SameLine();
                if (ImGui::Selectable(text.c_str(), joint >= 0 && s.selection.node == joint, 0,
                                      ImGui::CalcTextSize(text.c_str())) &&
                    inRange(scene.nodes, joint))
                    selectNode(s, joint);
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("palette entry %zu = skin joint %d", i, batch.bones[i]);
                ImGui::PopID();
            }
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
}

void drawSkin(ViewerState& s, const Node& node) {
    const Scene& scene = *s.scene;
    if (!inRange(scene.skins, node.skin)) return;
    const Skin& skin = scene.skins[static_cast<size_t>(node.skin)];
    if (!fittedTreeNode(
            "skin", 0,
            formatText("skin %d \"%s\": %zu joints, skeleton root %s", node.skin, skin.name.c_str(),
                       skin.joints.size(), nodeLabel(scene, skin.skeletonRoot).c_str())))
        return;
    ImGui::BeginChild(
        "skin joints",
        ImVec2(0, ImGui::GetTextLineHeightWithSpacing() *
                      static_cast<float>(std::min<size_t>(skin.joints.size(), kListHeightRows) + 1)),
        true);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(skin.joints.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const int joint = skin.joints[static_cast<size_t>(i)];
            ImGui::PushID(i);
            const std::string text = std::to_string(i) + ": " + nodeLabel(scene, joint);
            if (ImGui::Selectable(text.c_str(), s.selection.node == joint) && inRange(scene.nodes, joint))
                selectNode(s, joint);
            ImGui::PopID();
        }
    }
    ImGui::EndChild();
    ImGui::TreePop();
}

void drawMesh(ViewerState& s, int n) {
    const Scene& scene = *s.scene;
    const Node& node = scene.nodes[static_cast<size_t>(n)];
    if (!inRange(scene.meshes, node.object)) {
        ImGui::TextColored(kWarningColor, "mesh %d does not exist", node.object);
        return;
    }
    const Mesh& mesh = scene.meshes[static_cast<size_t>(node.object)];
    if (!ImGui::CollapsingHeader("Mesh", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::PushID("mesh");
    int instances = 0, instance = 0;
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const Node& other = scene.nodes[i];
        if (other.kind != NodeKind::Mesh || other.object != node.object) continue;
        ++instances;
        if (static_cast<int>(i) == n) instance = instances;
    }
    fittedText(formatText("mesh %d \"%s\"", node.object, mesh.name.c_str()));
    if (instances > 1) {
        ImGui::SameLine();
        ImGui::TextColored(kLabelColor, "instance %d of %d", instance, instances);
    }
    ImGui::Text("%u vertices, %u triangles, %zu submeshes", mesh.vertexCount, triangleCount(mesh),
                mesh.submeshes.size());
    ImGui::Text("GPU buffers %s", bytesText(static_cast<double>(gpuBytes(mesh))).c_str());
    attributeTable(mesh.attributes);
    if (mesh.positionUnpack != glm::mat4(1.0f) && ImGui::TreeNode("position unpack matrix")) {
        matrixTable("unpack", mesh.positionUnpack);
        ImGui::TreePop();
    }

    if (ImGui::TreeNodeEx("submeshes", ImGuiTreeNodeFlags_DefaultOpen, "submeshes (%zu)",
                          mesh.submeshes.size())) {
        if (beginTable("submeshes", 6, mesh.submeshes.size(), true)) {
            ImGui::TableSetupColumn("#");
            ImGui::TableSetupColumn("primitive");
            ImGui::TableSetupColumn("first index");
            ImGui::TableSetupColumn("index count");
            ImGui::TableSetupColumn("triangles");
            ImGui::TableSetupColumn("material");
            ImGui::TableHeadersRow();
            ImGuiListClipper clipper;
            clipper.Begin(static_cast<int>(mesh.submeshes.size()));
            while (clipper.Step()) {
                for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
                    const size_t i = static_cast<size_t>(row);
                    const Submesh& sub = mesh.submeshes[i];
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::Text("%zu", i);
                    ImGui::TableNextColumn();
                    ImGui::Text("%s%s%s",
                                static_cast<size_t>(sub.primitive) < static_cast<size_t>(Primitive::Count)
                                    ? primitiveName(sub.primitive)
                                    : "?",
                                sub.stripLengths.empty() ? "" : " (strips)",
                                sub.primitiveRestart ? " (restart)" : "");
                    ImGui::TableNextColumn();
                    ImGui::Text("%u", sub.firstIndex);
                    ImGui::TableNextColumn();
                    ImGui::Text("%u", sub.indexCount);
                    ImGui::TableNextColumn();
                    ImGui::Text("%u", triangleCount(sub));
                    ImGui::TableNextColumn();
                    const int material =
                        sub.materialSlot < node.materials.size() ? node.materials[sub.materialSlot] : -1;
                    if (inRange(scene.materials, material))
                        fittedText(formatText("slot %u: %d \"%s\"", sub.materialSlot, material,
                                              scene.materials[static_cast<size_t>(material)].name.c_str()));
                    else
                        ImGui::Text("slot %u: default", sub.materialSlot);
                }
            }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }

    if (ImGui::TreeNodeEx("vertex layout", ImGuiTreeNodeFlags_DefaultOpen, "vertex layout (%zu streams)",
                          mesh.streams.size())) {
        for (size_t i = 0; i < mesh.streams.size(); ++i) {
            const VertexStream& stream = mesh.streams[i];
            ImGui::PushID(static_cast<int>(i));
            ImGui::Text("stream %zu: %u vertices, stride %u bytes, %s", i, stream.count, stream.stride,
                        bytesText(static_cast<double>(size_t{stream.count} * stream.stride)).c_str());
            streamTable("attributes", stream);
            ImGui::PopID();
        }
        if (mesh.indices.count > 0)
            ImGui::Text("indices: %u x %s (%s)", mesh.indices.count,
                        static_cast<size_t>(mesh.indices.type) < static_cast<size_t>(ComponentType::Count)
                            ? componentTypeName(mesh.indices.type)
                            : "?",
                        bytesText(static_cast<double>(mesh.indices.bytes.size)).c_str());
        else
            ImGui::TextUnformatted("indices: none (non-indexed)");
        ImGui::TreePop();
    }

    if (!mesh.boneBatches.empty() && ImGui::TreeNodeEx("bone batches", ImGuiTreeNodeFlags_DefaultOpen,
                                                       "bone batches (%zu)", mesh.boneBatches.size())) {
        drawBoneBatches(s, node, mesh);
        ImGui::TreePop();
    }
    drawSkin(s, node);

    if (!mesh.morphTargets.empty() && ImGui::TreeNodeEx("morph targets", ImGuiTreeNodeFlags_DefaultOpen,
                                                        "morph targets (%zu)", mesh.morphTargets.size())) {
        const std::vector<float>* weights =
            inRange(s.pose.morphWeights, n) ? &s.pose.morphWeights[static_cast<size_t>(n)] : nullptr;
        const std::vector<float>* overrides =
            inRange(s.morphOverride, n) ? &s.morphOverride[static_cast<size_t>(n)] : nullptr;
        if (beginTable("morphs", 5, mesh.morphTargets.size(), true)) {
            ImGui::TableSetupColumn("#");
            ImGui::TableSetupColumn("name");
            ImGui::TableSetupColumn("kind");
            ImGui::TableSetupColumn("stream");
            ImGui::TableSetupColumn("weight");
            ImGui::TableHeadersRow();
            ImGuiListClipper clipper;
            clipper.Begin(static_cast<int>(mesh.morphTargets.size()));
            while (clipper.Step()) {
                for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
                    const size_t t = static_cast<size_t>(row);
                    const MorphTarget& target = mesh.morphTargets[t];
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::Text("%zu", t);
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(target.name.c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(target.relative ? "relative" : "absolute");
                    ImGui::TableNextColumn();
                    ImGui::Text("%u x %u B", target.stream.count, target.stream.stride);
                    ImGui::TableNextColumn();
                    const bool pinned = overrides && t < overrides->size() && !std::isnan((*overrides)[t]);
                    if (weights && t < weights->size())
                        ImGui::Text("%.4f%s", (*weights)[t], pinned ? " (set)" : "");
                    else
                        ImGui::TextDisabled("n/a");
                }
            }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }
    ImGui::PopID();
}

void drawNodeMaterials(ViewerState& s, int n) {
    const Scene& scene = *s.scene;
    const Node& node = scene.nodes[static_cast<size_t>(n)];
    if (!inRange(scene.meshes, node.object)) return;
    const Mesh& mesh = scene.meshes[static_cast<size_t>(node.object)];
    if (!ImGui::CollapsingHeader("Materials", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (mesh.submeshes.empty()) ImGui::TextDisabled("no submeshes");
    for (size_t i = 0; i < mesh.submeshes.size(); ++i) {
        const uint32_t slot = mesh.submeshes[i].materialSlot;
        const int material = slot < node.materials.size() ? node.materials[slot] : -1;
        const std::string name = inRange(scene.materials, material)
                                     ? scene.materials[static_cast<size_t>(material)].name
                                     : std::string("default");
        ImGui::PushID(static_cast<int>(i));
        if (fittedTreeNode("submesh material", i == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0,
                           formatText("submesh %zu: %s", i, name.c_str()))) {
            drawMaterialDetail(s, material);
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
}

// ---------------------------------------------------------------------------------------------
// Lights and cameras

void drawLightEditor(ViewerState& s, int l) {
    Scene& scene = *s.scene;
    if (!inRange(scene.lights, l)) {
        ImGui::TextColored(kWarningColor, "light %d does not exist", l);
        return;
    }
    Light& light = scene.lights[static_cast<size_t>(l)];
    ImGui::PushID(l);
    fittedText(formatText("light %d \"%s\", %s", l, light.name.c_str(),
                          static_cast<size_t>(light.type) < static_cast<size_t>(LightType::Count)
                              ? lightTypeName(light.type)
                              : "?"));
    ImGui::Checkbox("enabled", &light.enabled);
    colorEdit("color", light.color);
    ImGui::DragFloat("intensity", &light.intensity, 0.01f, 0.0f, 1000.0f, "%.3f");
    if (light.type == LightType::Point || light.type == LightType::Spot) {
        ImGui::DragFloat("constant att.", &light.constantAttenuation, 0.01f, 0.0f, 100.0f, "%.4f");
        ImGui::DragFloat("linear att.", &light.linearAttenuation, 0.001f, 0.0f, 100.0f, "%.4f");
        ImGui::DragFloat("quadratic att.", &light.quadraticAttenuation, 0.0001f, 0.0f, 100.0f, "%.5f");
        ImGui::DragFloat("range", &light.range, 0.1f, 0.0f, 1e6f, light.range > 0.0f ? "%.2f" : "infinite");
    }
    if (light.type == LightType::Spot) {
        ImGui::SliderAngle("inner cone", &light.innerCone, 0.0f, 180.0f);
        ImGui::SliderAngle("outer cone", &light.outerCone, 0.0f, 180.0f);
        ImGui::DragFloat("falloff exponent", &light.falloffExponent, 0.05f, 0.0f, 128.0f, "%.2f");
    }
    if (inRange(s.scene->textures, light.projection.texture)) {
        ImGui::Separator();
        ImGui::TextUnformatted(light.type == LightType::Spot
                                   ? "projection texture (across the outer cone)"
                                   : "projection texture (not projected: not a spot light)");
        drawTextureDetail(s, light.projection.texture);
    }
    if (light.targetNode >= 0) {
        label("target");
        nodeLink(s, light.targetNode);
    }
    ImGui::PopID();
}

void drawCamera(ViewerState& s, int n) {
    const Scene& scene = *s.scene;
    const Node& node = scene.nodes[static_cast<size_t>(n)];
    if (!ImGui::CollapsingHeader("Camera", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (!inRange(scene.cameras, node.object)) {
        ImGui::TextColored(kWarningColor, "camera %d does not exist", node.object);
        return;
    }
    const Camera& camera = scene.cameras[static_cast<size_t>(node.object)];
    fittedText(formatText("camera %d \"%s\", %s", node.object, camera.name.c_str(),
                          camera.orthographic ? "orthographic" : "perspective"));
    if (camera.orthographic)
        ImGui::Text("ortho height %.3f", camera.orthoHeight);
    else
        ImGui::Text("vertical fov %.2f deg", glm::degrees(camera.yfov));
    if (inRange(s.pose.cameraFov, n) && s.pose.cameraFov[static_cast<size_t>(n)] > 0.0f)
        ImGui::Text("fov now %.2f deg (animated)", glm::degrees(s.pose.cameraFov[static_cast<size_t>(n)]));
    ImGui::Text("near %.4g, far %.4g, aspect %s", camera.nearZ, camera.farZ,
                camera.aspect > 0.0f ? std::to_string(camera.aspect).c_str() : "from the viewport");
    if (camera.targetNode >= 0) {
        label("target");
        nodeLink(s, camera.targetNode);
    }
    if (s.view.camera == node.object) {
        if (ImGui::Button("Back to the orbit camera")) s.view.camera = -1;
    } else if (ImGui::Button("Look through")) {
        s.view.camera = node.object;
    }
}

// ---------------------------------------------------------------------------------------------
// The selected node

void drawNode(ViewerState& s, int n) {
    const Scene& scene = *s.scene;
    const Node& node = scene.nodes[static_cast<size_t>(n)];
    ImGui::Text("%s", nodeLabel(scene, n).c_str());
    label("kind");
    ImGui::TextUnformatted(static_cast<size_t>(node.kind) < static_cast<size_t>(NodeKind::Count)
                               ? nodeKindName(node.kind)
                               : "?");
    if (isJoint(scene, n)) {
        ImGui::SameLine();
        ImGui::TextColored(kLabelColor, "(joint)");
    }
    label("parent");
    if (node.parent >= 0)
        nodeLink(s, node.parent);
    else
        ImGui::TextUnformatted("none (root)");
    size_t children = 0;
    for (const Node& other : scene.nodes) children += other.parent == n ? 1 : 0;
    const bool visible =
        inRange(s.pose.visible, n) ? s.pose.visible[static_cast<size_t>(n)] != 0 : node.visible;
    ImGui::Text("%zu children, %s", children, visible ? "visible" : "hidden");
    if (ImGui::Button("Frame")) frameSelection(s);
    ImGui::SameLine();
    if (ImGui::Button("Deselect")) selectNode(s, -1);
    attributeTable(node.attributes);

    drawTransforms(s, n);
    if (node.objectTransform != glm::mat4(1.0f) && ImGui::CollapsingHeader("Object transform")) {
        matrixTable("object", node.objectTransform);
    }
    drawChannels(s, n);
    switch (node.kind) {
        case NodeKind::Mesh:
            drawMesh(s, n);
            drawNodeMaterials(s, n);
            break;
        case NodeKind::Light:
            if (ImGui::CollapsingHeader("Light", ImGuiTreeNodeFlags_DefaultOpen))
                drawLightEditor(s, node.object);
            break;
        case NodeKind::Camera:
            drawCamera(s, n);
            break;
        default:
            break;
    }
}

// ---------------------------------------------------------------------------------------------
// Scene-wide lists

// A list of `count` selectable rows in a child region, clipped; `row` draws row i.
template <class RowFn>
void clippedList(const char* id, size_t count, float rowHeight, RowFn row) {
    const float height = rowHeight * static_cast<float>(std::min<size_t>(count, kListHeightRows)) +
                         ImGui::GetStyle().WindowPadding.y * 2.0f;
    ImGui::BeginChild(id, ImVec2(0, height), true);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(count), rowHeight);
    while (clipper.Step())
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            ImGui::PushID(i);
            row(i);
            ImGui::PopID();
        }
    ImGui::EndChild();
}

void drawLists(ViewerState& s, bool open) {
    Scene& scene = *s.scene;
    const ImGuiTreeNodeFlags flags = open ? ImGuiTreeNodeFlags_DefaultOpen : 0;
    const float line = ImGui::GetTextLineHeightWithSpacing();

    const std::string materials = "Materials (" + std::to_string(scene.materials.size()) + ")###materials";
    if (ImGui::CollapsingHeader(materials.c_str(), flags)) {
        if (scene.materials.empty())
            ImGui::TextDisabled("none");
        else
            clippedList("material list", scene.materials.size(), line, [&](int i) {
                const std::string text =
                    std::to_string(i) + ": " + scene.materials[static_cast<size_t>(i)].name;
                if (fittedSelectable("material", text, s.selection.material == i))
                    s.selection.material = s.selection.material == i ? -1 : i;
            });
        if (inRange(scene.materials, s.selection.material)) drawMaterialDetail(s, s.selection.material);
    }

    const std::string textures = "Textures (" + std::to_string(scene.textures.size()) + ")###textures";
    if (ImGui::CollapsingHeader(textures.c_str(), flags)) {
        if (scene.textures.empty())
            ImGui::TextDisabled("none");
        else {
            const float row = std::max(line, kListThumbnail + ImGui::GetStyle().ItemSpacing.y);
            clippedList("texture list", scene.textures.size(), row, [&](int i) {
                const Texture& texture = scene.textures[static_cast<size_t>(i)];
                const ImVec2 start = ImGui::GetCursorPos();
                if (ImGui::Selectable("##texture", s.selection.texture == i,
                                      ImGuiSelectableFlags_AllowItemOverlap, ImVec2(0, kListThumbnail))) {
                    s.selection.texture = s.selection.texture == i ? -1 : i;
                    s.selection.textureLayer = 0;
                    s.selection.textureFace = 0;
                }
                ImGui::SetCursorPos(start);
                textureThumbnail(s, i, kListThumbnail, false);
                ImGui::SameLine(kListThumbnail + ImGui::GetStyle().ItemSpacing.x * 2.0f);
                const std::string name = textureDisplayName(texture.name);
                const std::string text =
                    texture.placeholder
                        ? formatText("%d: %s  missing (drawn %s)", i, name.c_str(), missingLook(s))
                        : formatText("%d: %s  %s %ux%u", i, name.c_str(),
                                     storedAndUploaded(texture.image).c_str(), texture.image.width,
                                     texture.image.height);
                const std::string shownText = fitToWidth(text, ImGui::GetContentRegionAvail().x);
                if (texture.placeholder)
                    ImGui::TextColored(kWarningColor, "%s", shownText.c_str());
                else
                    ImGui::TextUnformatted(shownText.c_str());
                // The whole line when it was cut, and where the texture is.
                std::string tooltip = shownText != text ? text : std::string();
                if (!texture.path.empty()) tooltip += (tooltip.empty() ? "" : "\n") + texture.path;
                if (!tooltip.empty() && ImGui::IsItemHovered()) fullTextTooltip(tooltip);
            });
        }
        if (inRange(scene.textures, s.selection.texture)) {
            // An array texture (KTX): which layer the picture below shows (materials draw layer 0).
            const Image& image = scene.textures[size_t(s.selection.texture)].image;
            if (image.layers > 1) {
                s.selection.textureLayer = std::clamp(s.selection.textureLayer, 0, int(image.layers) - 1);
                ImGui::SliderInt("layer", &s.selection.textureLayer, 0, int(image.layers) - 1, "layer %d",
                                 ImGuiSliderFlags_AlwaysClamp);
                ImGui::SameLine();
                ImGui::TextDisabled("of %u (materials draw layer 0)", image.layers);
            }
            if (image.isCube() && s.selection.textureLayer == 0) {
                // A cube map: which face the picture shows (a later layer keeps its first face alone).
                s.selection.textureFace = std::clamp(s.selection.textureFace, 0, 5);
                ImGui::Combo("face", &s.selection.textureFace, "+X\0-X\0+Y\0-Y\0+Z\0-Z\0");
            }
            drawTextureDetail(s, s.selection.texture);
        }
    }

    const std::string lights = "Lights (" + std::to_string(scene.lights.size()) + ")###lights";
    if (ImGui::CollapsingHeader(lights.c_str(), flags)) {
        if (scene.lights.empty())
            ImGui::TextDisabled("none (the studio rig lights the scene)");
        else
            clippedList("light list", scene.lights.size(), line, [&](int i) {
                const Light& light = scene.lights[static_cast<size_t>(i)];
                const std::string text =
                    std::to_string(i) + ": " + light.name + " (" +
                    (static_cast<size_t>(light.type) < static_cast<size_t>(LightType::Count)
                         ? lightTypeName(light.type)
                         : "?") +
                    (light.enabled ? ")" : ", off)");
                if (fittedSelectable("light", text, s.selection.light == i))
                    s.selection.light = s.selection.light == i ? -1 : i;
            });
        if (inRange(scene.lights, s.selection.light)) drawLightEditor(s, s.selection.light);
    }
}

// The vertex picked for the skinning debugger (ctrl+click in the 3D view): its influences as the
// file stores them (pickedVertexLines, as the box beside it in the 3D view).
void drawPickedVertex(ViewerState& s) {
    const std::vector<std::string> lines = pickedVertexLines(s);
    if (lines.empty() || !ImGui::CollapsingHeader("Picked vertex", ImGuiTreeNodeFlags_DefaultOpen)) return;
    for (const std::string& line : lines) ImGui::TextUnformatted(line.c_str());
    if (ImGui::SmallButton("Clear##picked vertex")) clearPickedVertex(s);
    ImGui::Separator();
}

}  // namespace

void drawInspectorPanel(ViewerState& s) {
    if (!beginScenePanel(s, PanelId::Inspector, ImGuiWindowFlags_HorizontalScrollbar))
        return;
    // Room for the longest labels ("quadratic att.") next to the fields in the narrow column.
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 8.0f);
    drawPickedVertex(s);
    const int n = s.selection.node;
    const bool haveNode = inRange(s.scene->nodes, n);
    if (haveNode) {
        ImGui::PushID("node");
        drawNode(s, n);
        ImGui::PopID();
        ImGui::Spacing();
        ImGui::Separator();
        ImGui::TextColored(kLabelColor, "Scene");
    } else {
        if (n >= 0) ImGui::TextColored(kWarningColor, "Selected node %d does not exist.", n);
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("No node selected: pick one in the viewport or the scene tree.");
        ImGui::PopStyleColor();
    }
    ImGui::PushID("lists");
    drawLists(s, !haveNode);
    ImGui::PopID();
    ImGui::PopItemWidth();
    endScenePanel();
}

}  // namespace esv
