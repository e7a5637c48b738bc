// Materials and textures: the scene's textures (and the neutral stand-ins), the program of each
// feature permutation, material uniforms, maps and their transforms, blending and culling.
#include <algorithm>

#include <glm/gtc/type_ptr.hpp>

#include "renderer/gl_renderer_impl.h"

namespace esv::detail {

const Material& GlRenderer::materialOf(const Scene& scene, const Node& node, uint32_t slot) {
    static const Material fallback;
    if (slot < node.materials.size() && node.materials[slot] >= 0) return scene.materials[node.materials[slot]];
    return fallback;
}

bool GlRenderer::isTransparent(const Scene& scene, const Node& node) {
    for (int32_t m : node.materials)
        if (m >= 0 && (scene.materials[m].blend.enabled || scene.materials[m].opacity < 1.0f)) return true;
    return false;
}

void GlRenderer::uploadTextures(const Scene& scene, std::vector<ReportLine>& report) {
    m_gpu.textures.clear();
    m_gpu.textures.resize(scene.textures.size());
    m_gpu.placeholder.assign(scene.textures.size(), false);
    for (size_t i = 0; i < scene.textures.size(); ++i) m_gpu.placeholder[i] = scene.textures[i].placeholder;
    std::vector<std::string> notes;
    std::string error;
    auto neutral = [&](GpuTexture& t, uint8_t r, uint8_t g, uint8_t b) {
        Image image;
        image.width = image.height = 1;
        image.container = "neutral";
        image.surfaces.push_back(makeOwnedBytes({r, g, b, 255}));
        notes.clear();
        uploadTexture(image, m_textureSupport, t, notes, error);
    };
    if (!m_white.texture) {
        neutral(m_white, 255, 255, 255);
        neutral(m_flatNormal, 128, 128, 255);
        neutral(m_grey, 180, 180, 180);
    }
    // ES2 has no swizzle state: a texture's pixels are permuted once at upload, so every
    // reference to it must ask for the same swizzle (the OpenGEX reader makes one texture per
    // reference). ES3 sets the swizzle per bind instead.
    std::vector<std::vector<TextureSwizzle>> swizzles(scene.textures.size());
    auto want = [&](const TextureRef& ref) {
        if (ref.texture < 0 || size_t(ref.texture) >= scene.textures.size()) return;
        std::vector<TextureSwizzle>& list = swizzles[size_t(ref.texture)];
        const TextureSwizzle resolved = resolveSwizzle(ref.swizzle, 4);
        if (std::find(list.begin(), list.end(), resolved) == list.end()) list.push_back(resolved);
    };
    if (!m_caps.es3) {
        for (const Material& material : scene.materials)
            for (const TextureRef& ref : material.textures) want(ref);
        for (const Light& light : scene.lights) want(light.projection);
    }
    for (size_t i = 0; i < scene.textures.size(); ++i) {
        const Texture& texture = scene.textures[i];
        const std::string label = "texture '" + (texture.name.empty() ? texture.path : texture.name) + "'";
        Image checker, swizzled;
        const Image* image = &texture.image;
        if (image->empty()) {
            // Not prepared (prepareSceneTextures was not run): drawn as if the material had no map.
            report.push_back({Severity::Warning, label + ": no image was prepared for it; drawn untextured"});
            continue;
        } else if (isCompressed(image->format) && !m_textureSupport.supports(image->format)) {
            checker = makeCheckerImage();
            image = &checker;
            report.push_back({Severity::Warning, label + ": " + pixelFormatName(texture.image.format) +
                                                     " is not supported by this context and was not decoded; a "
                                                     "checker is shown"});
        }
        const std::vector<TextureSwizzle>& wanted = swizzles[i];
        if (image == &texture.image && !texture.placeholder && !wanted.empty() && !isIdentitySwizzle(wanted.front())) {
            const std::string text = swizzleText(wanted.front());
            if (wanted.size() > 1)
                report.push_back({Severity::Warning, label + ": sampled with " + std::to_string(wanted.size()) +
                                                         " different swizzles; ES2 mode applies \"" + text +
                                                         "\" to every use"});
            if (swizzleImage(*image, wanted.front(), swizzled)) {
                image = &swizzled;
                report.push_back({Severity::Info, label + ": swizzle \"" + text + "\" applied to the pixels at upload (ES2)"});
            } else {
                report.push_back({Severity::Warning, label + ": swizzle \"" + text + "\" not applied: " +
                                                         pixelFormatName(image->format) +
                                                         " stays compressed and ES2 has no texture swizzle"});
            }
        } else if (wanted.size() > 1) {
            report.push_back({Severity::Warning, label + ": sampled with " + std::to_string(wanted.size()) +
                                                     " different swizzles; ES2 mode shows it unswizzled everywhere"});
        }
        notes.clear();
        if (!uploadTexture(*image, m_textureSupport, m_gpu.textures[i], notes, error)) {
            report.push_back({Severity::Warning, label + ": " + error + "; a checker is shown"});
            checker = makeCheckerImage();
            notes.clear();
            uploadTexture(checker, m_textureSupport, m_gpu.textures[i], notes, error);
        }
        for (const std::string& note : notes) report.push_back({Severity::Info, label + ": " + note});
    }
}

const MeshProgram* GlRenderer::programFor(const ShaderFeatures& f, std::string& error) {
    const size_t linked = m_programs.size();
    const MeshProgram* p = m_programs.get(f, error);
    if (m_programs.size() != linked) m_state.programChanged();
    return p;
}

bool GlRenderer::bindTexture(int unit, const TextureRef& ref, GpuTexture& fallback, GLenum target) {
    GpuTexture* t = &fallback;
    if (ref.texture >= 0 && size_t(ref.texture) < m_gpu.textures.size() && m_gpu.textures[ref.texture].texture &&
        m_gpu.textures[ref.texture].target == target)
        t = &m_gpu.textures[ref.texture];
    // A missing texture in the grey mode: neutral grey for the colour, the map left out elsewhere
    // (the checker is uploaded and shown in the other mode).
    if (t != &fallback && m_missingGrey && m_gpu.placeholder[size_t(ref.texture)])
        t = unit == kUnitDiffuse && target == GL_TEXTURE_2D ? &m_grey : &fallback;
    m_state.bindTexture(unit, t->target, t->texture.get());
    // Wrap and swizzle live in the texture object: set on its unit, and only what differs.
    const TextureSwizzle& swizzle = t == &fallback ? kIdentitySwizzle : ref.swizzle;
    const TextureFilter minFilter = t == &fallback ? TextureFilter::Default : ref.minFilter;
    const TextureFilter magFilter = t == &fallback ? TextureFilter::Default : ref.magFilter;
    if (wrapDiffers(*t, ref.wrapS, ref.wrapT) || (m_caps.es3 && swizzleDiffers(*t, swizzle)) ||
        filterDiffers(*t, minFilter, magFilter)) {
        m_state.activeTexture(unit);
        applyWrap(*t, ref.wrapS, ref.wrapT);
        if (m_caps.es3) applySwizzle(*t, swizzle);
        applyFilter(*t, minFilter, magFilter);
    }
    return t != &fallback;
}

void GlRenderer::sampledMaps(const Material& m, const ShaderFeatures& f,
                             const TextureRef* (&refs)[kTransformedMaps]) {
    for (const TextureRef*& r : refs) r = nullptr;
    if (f.textured) refs[kUnitDiffuse] = &m.texture(TextureSlot::Diffuse);
    if (f.materialMaps) {
        const bool pbr = f.metalRough;
        refs[kUnitSpecular] = &m.texture(pbr ? TextureSlot::Metallic : TextureSlot::Specular);
        refs[kUnitEmissive] = &m.texture(TextureSlot::Emissive);
        refs[kUnitOpacity] = &m.texture(pbr ? TextureSlot::Roughness : TextureSlot::Opacity);
        if (pbr) refs[kUnitOcclusion] = &m.texture(TextureSlot::Occlusion);
    }
    if (f.specularMaps) {
        refs[kMapSpecularStrength] = &m.texture(TextureSlot::SpecularStrength);
        refs[kMapSpecularTint] = &m.texture(TextureSlot::SpecularTint);
    }
    if (f.normalMap) {
        refs[kUnitNormal] = &m.texture(TextureSlot::Normal);
        if (refs[kUnitNormal]->texture < 0) refs[kUnitNormal] = &m.texture(TextureSlot::Bump);
    }
}

bool GlRenderer::needsMapTransforms(const Material& m, const ShaderFeatures& f) {
    const TextureRef* refs[kTransformedMaps];
    sampledMaps(m, f, refs);
    for (const TextureRef* r : refs)
        if (r && r->texture >= 0 && r->needsShaderAddressing()) return true;
    return false;
}

uint8_t GlRenderer::uv1Maps(const Material& m, const ShaderFeatures& f) {
    const TextureRef* refs[kTransformedMaps];
    sampledMaps(m, f, refs);
    uint8_t mask = 0;
    for (int i = 0; i < kTransformedMaps; ++i)
        if (refs[i] && refs[i]->texture >= 0 && refs[i]->uvSet == 1) mask = uint8_t(mask | 1u << i);
    return mask;
}

void GlRenderer::bindMaterialTextures(const Scene& scene, const Pose& pose, const Material& m,
                                      const ShaderFeatures& f, const MeshProgram& p) {
    const TextureRef* refs[kTransformedMaps];
    sampledMaps(m, f, refs);
    bool bound[kTransformedMaps] = {};
    if (refs[kUnitDiffuse]) bound[kUnitDiffuse] = bindTexture(kUnitDiffuse, *refs[kUnitDiffuse], m_white);
    for (int unit : {int(kUnitSpecular), int(kUnitEmissive), int(kUnitOpacity), int(kUnitOcclusion)})
        if (refs[unit]) bound[unit] = bindTexture(unit, *refs[unit], m_white);
    if (refs[kUnitNormal]) bound[kUnitNormal] = bindTexture(kUnitNormal, *refs[kUnitNormal], m_flatNormal);
    if (f.specularMaps) {
        bound[kMapSpecularStrength] = bindTexture(kUnitSpecularStrength, *refs[kMapSpecularStrength], m_white);
        bound[kMapSpecularTint] = bindTexture(kUnitSpecularTint, *refs[kMapSpecularTint], m_white);
    }
    if (f.reflection == 1) bindTexture(kUnitReflection, m.texture(TextureSlot::Reflection), m_white);
    if (f.reflection == 2)
        bindTexture(kUnitReflectionCube, m.texture(TextureSlot::Reflection), m_white, GL_TEXTURE_CUBE_MAP);
    if (!f.mapTransforms) return;
    // Each map's transform at this pose (animated uv matrices) and its emulated addressing; a
    // neutral stand-in samples untransformed.
    glm::vec4 rows[2 * kTransformedMaps], borders[kTransformedMaps];
    const int maps = transformedMaps(f);
    for (int i = 0; i < maps; ++i) {
        const bool use = refs[i] && bound[i];
        glm::mat4 uv(1.0f);
        if (use && refs[i]->uvTransform >= 0 && size_t(refs[i]->uvTransform) < scene.uvTransforms.size())
            uv = size_t(refs[i]->uvTransform) < pose.uvMatrices.size() ? pose.uvMatrices[refs[i]->uvTransform]
                                                                      : scene.uvTransforms[refs[i]->uvTransform].matrix();
        auto mode = [](Wrap w) {
            return w == Wrap::Border ? 1.0f : w == Wrap::MirrorClamp ? 2.0f : w == Wrap::MirrorBorder ? 3.0f : 0.0f;
        };
        rows[2 * i] = glm::vec4(uv[0][0], uv[1][0], uv[3][0], use ? mode(refs[i]->wrapS) : 0.0f);
        rows[2 * i + 1] = glm::vec4(uv[0][1], uv[1][1], uv[3][1], use ? mode(refs[i]->wrapT) : 0.0f);
        borders[i] = use ? refs[i]->border : glm::vec4(0.0f);
    }
    m_state.uniform4fv(p.mapUv, 2 * maps, glm::value_ptr(rows[0]));
    m_state.uniform4fv(p.mapBorder, maps, glm::value_ptr(borders[0]));
}

void GlRenderer::setMaterial(const Scene& scene, const Node& node, uint32_t slot, const MeshProgram& p,
                             const glm::vec3& flat) {
    const Material* m = &materialOf(scene, node, slot);
    m_state.uniform3fv(p.ambient, 1, glm::value_ptr(m->ambient * scene.ambient + (m_lights.empty() ? glm::vec3(0.2f) : glm::vec3(0.0f))));
    // Reflectivity: the material's, or half strength when it has a reflection map but no value.
    const float reflectivity = m->reflectivity > 0.0f ? m->reflectivity : 0.5f;
    m_state.uniform4f(p.surface, m->metallic, m->roughness, reflectivity, m->alphaCutoff);
    glm::vec4 diffuse(m->diffuse, m->opacity);
    m_state.uniform4fv(p.diffuse, 1, glm::value_ptr(diffuse));
    // Metal/rough: KHR_materials_specular's colour on the dielectric F0 of the material's index of
    // refraction, 0.04 at glTF's default 1.5 (u_specular in mesh.frag).
    const glm::vec3 specular = p.metalRough ? dielectricF0(m->ior) * m->specularColorFactor : m->specular;
    m_state.uniform3fv(p.specular, 1, glm::value_ptr(specular));
    m_state.uniform3fv(p.emissive, 1, glm::value_ptr(m->emissive));
    m_state.uniform1f(p.shininess, m->shininess);
    // glTF's normal scale, occlusion strength and KHR_materials_specular's factor.
    m_state.uniform4f(p.mapFactors, m->normalScale, m->occlusionStrength, m->specularFactor, 0.0f);
    m_state.uniform4f(p.flatColor, flat.r, flat.g, flat.b, 1.0f);
    if (p.diffuseSize >= 0) {
        // The texture views: the diffuse map's size and the levels it is sampled with (0: none).
        const int32_t t = m->texture(TextureSlot::Diffuse).texture;
        const GpuTexture* g = t >= 0 && size_t(t) < m_gpu.textures.size() && m_gpu.textures[t].texture
                                  ? &m_gpu.textures[t]
                                  : nullptr;
        const float size[3] = {g ? float(g->width) : 0.0f, g ? float(g->height) : 0.0f, g ? float(g->levels) : 0.0f};
        m_state.uniform3fv(p.diffuseSize, 1, size);
    }
    setCulling(*m);
    if (m->blend.enabled || m->opacity < 1.0f) {
        m_state.enable(GL_BLEND, true);
        m_state.depthMask(false);
        if (m->blend.enabled) {
            static constexpr GLenum kFactors[] = {GL_ZERO, GL_ONE, GL_SRC_COLOR, GL_ONE_MINUS_SRC_COLOR, GL_SRC_ALPHA,
                                                  GL_ONE_MINUS_SRC_ALPHA, GL_DST_ALPHA, GL_ONE_MINUS_DST_ALPHA,
                                                  GL_DST_COLOR, GL_ONE_MINUS_DST_COLOR, GL_SRC_ALPHA_SATURATE,
                                                  GL_CONSTANT_COLOR, GL_ONE_MINUS_CONSTANT_COLOR, GL_CONSTANT_ALPHA,
                                                  GL_ONE_MINUS_CONSTANT_ALPHA};
            static_assert(sizeof(kFactors) / sizeof(kFactors[0]) == static_cast<size_t>(BlendFactor::Count));
            // MIN/MAX are ES3 (or EXT_blend_minmax); ES2 mode keeps to add/subtract.
            const GLenum kOps[] = {GL_FUNC_ADD, GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT,
                                   m_caps.es3 ? GLenum(GL_MIN) : GLenum(GL_FUNC_ADD), m_caps.es3 ? GLenum(GL_MAX) : GLenum(GL_FUNC_ADD)};
            static_assert(sizeof(kOps) / sizeof(kOps[0]) == static_cast<size_t>(BlendOp::Count));
            const BlendState& b = m->blend;
            m_state.blendFuncSeparate(kFactors[size_t(b.srcRgb)], kFactors[size_t(b.dstRgb)], kFactors[size_t(b.srcAlpha)],
                                kFactors[size_t(b.dstAlpha)]);
            m_state.blendEquationSeparate(kOps[size_t(b.opRgb)], kOps[size_t(b.opAlpha)]);
            m_state.blendColor(b.constant.r, b.constant.g, b.constant.b, b.constant.a);
        } else {
            m_state.blendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
            m_state.blendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
        }
    } else {
        m_state.enable(GL_BLEND, false);
        m_state.depthMask(true);
    }
}

void GlRenderer::setCulling(const Material& m) const {
    if (m.twoSided || m_forceTwoSided) {
        m_state.enable(GL_CULL_FACE, false);
    } else {
        m_state.enable(GL_CULL_FACE, true);
        m_state.cullFace(GL_BACK);
    }
}

void GlRenderer::setFlat(const MeshProgram& p, const glm::vec4& color, const Material& m) const {
    m_state.uniform4fv(p.diffuse, 1, glm::value_ptr(color));
    m_state.uniform4f(p.surface, 0.0f, 0.0f, 0.0f, 0.0f);
    setCulling(m);
    m_state.depthMask(false);
    if (color.a < 1.0f) {
        m_state.enable(GL_BLEND, true);
        m_state.blendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        m_state.blendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
    } else {
        m_state.enable(GL_BLEND, false);
    }
}

ShaderFeatures GlRenderer::featuresFor(const Scene& scene, const Node& node, const GpuMesh& gpu, ViewMode mode,
                                       bool cpu, bool gpuSkinned, const Material* material) const {
    const Mesh& mesh = scene.meshes[node.object];
    ShaderFeatures f;
    f.mode = mode;
    f.normal = gpu.hasNormal;
    f.color = gpu.hasColor;
    f.uv = gpu.hasUv;
    f.skinned = gpuSkinned;
    if (material && f.uv && (mode == ViewMode::Shaded || mode == ViewMode::Unlit)) {
        const Material& m = *material;
        auto has = [&](TextureSlot slot) { return m.texture(slot).texture >= 0; };
        f.textured = has(TextureSlot::Diffuse);
        if (mode == ViewMode::Shaded) {
            f.metalRough = m.model == ShadingModel::MetalRough;
            f.materialMaps = f.metalRough ? has(TextureSlot::Metallic) || has(TextureSlot::Roughness) ||
                                                has(TextureSlot::Emissive) || has(TextureSlot::Occlusion)
                                          : has(TextureSlot::Specular) || has(TextureSlot::Emissive) ||
                                                has(TextureSlot::Opacity);
            // Normal maps need the tangent stream; the CPU path has no skinned tangents.
            f.normalMap = !cpu && gpu.tangents && f.normal && normalMapTexture(m) >= 0;
            const int32_t reflection = m.texture(TextureSlot::Reflection).texture;
            if (reflection >= 0 && size_t(reflection) < m_gpu.textures.size())
                f.reflection = m_gpu.textures[reflection].target == GL_TEXTURE_CUBE_MAP ? 2 : f.metalRough ? 0 : 1;
            // KHR_materials_specular's maps take units 9 and 10: GLSL ES 3.00 only (ES 2 has 8 units,
            // all taken; preparation for ES 2 notes that they are not drawn there).
            f.specularMaps = f.metalRough && m_caps.es3 &&
                             (has(TextureSlot::SpecularStrength) || has(TextureSlot::SpecularTint));
            // The maps ride on the diffuse sampler's define (a white texture when it is absent).
            f.textured |= f.materialMaps || f.normalMap || f.specularMaps;
        }
        f.mapTransforms = needsMapTransforms(m, f);
        f.uv1Maps = gpu.uv1Stream >= 0 ? uv1Maps(m, f) : 0;
    }
    f.lightProjection = material && mode == ViewMode::Shaded && m_lights.projecting();
    if (gpuSkinned) {
        f.boneCount = std::max(1, std::min<int>(m_paletteCapacity, std::max<int>(mesh.maxBonesPerBatch, 8)));
        for (const BoneBatch& b : mesh.boneBatches) f.boneCount = std::max<int>(f.boneCount, int(b.bones.size()));
        if (mesh.boneBatches.empty()) f.boneCount = int(scene.skins[node.skin].joints.size());
        // Round the palette up to a multiple of 8 so files share a few programs.
        f.boneCount = std::min(m_paletteCapacity, (f.boneCount + 7) / 8 * 8);
        f.influences = std::max(1, gpu.influences);
    }
    return f;
}

}  // namespace esv::detail
