#include "renderer/shader_program.h"

#include <algorithm>
#include <initializer_list>
#include <utility>

#include "shaders/embedded_shaders.h"

namespace esv {

uint64_t ShaderFeatures::key() const {
    uint64_t k = static_cast<uint64_t>(mode);
    k = k << 1 | uint64_t(capture);
    k = k << 3 | uint64_t(morphTargets & 7);
    k = k << 1 | uint64_t(morphNormals);
    k = k << 1 | uint64_t(skinned);
    k = k << 1 | uint64_t(normal);
    k = k << 1 | uint64_t(color);
    k = k << 1 | uint64_t(uv);
    k = k << 3 | uint64_t(influences & 7);
    k = k << 16 | uint64_t(boneCount & 0xFFFF);
    k = k << 1 | uint64_t(textured);
    k = k << 1 | uint64_t(normalMap);
    k = k << 2 | uint64_t(reflection & 3);
    k = k << 1 | uint64_t(metalRough);
    k = k << 1 | uint64_t(materialMaps);
    k = k << 1 | uint64_t(morphTexture);
    k = k << 1 | uint64_t(mapTransforms);
    k = k << 1 | uint64_t(points);
    k = k << 1 | uint64_t(lightProjection);
    k = k << 1 | uint64_t(outline);
    k = k << 4 | uint64_t(maxLights & 15);
    k = k << 1 | uint64_t(specularMaps);
    k = k << 8 | uint64_t(uv1Maps);
    return k;
}

namespace {

std::string header(const ShaderFeatures& f, GlslVersion version, bool vertex, bool fragmentHighp = true) {
    std::string s = version == GlslVersion::Es300 ? "#version 300 es\n" : "#version 100\n";
    // The texture views take screen-space derivatives: core in ES 3.00, an extension in ES 1.00 (a
    // context without it fails to compile the program, which the frame's notes then say).
    if (!vertex && version == GlslVersion::Es100 && (f.mode == ViewMode::Mip || f.mode == ViewMode::TexelDensity))
        s += "#extension GL_OES_standard_derivatives : enable\n";
    if (vertex)
        s += "precision highp float;\n";
    else if (fragmentHighp)
        s += "#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\n#else\nprecision mediump float;\n"
             "#define MEDIUMP 1\n#endif\n";
    else
        s += "precision mediump float;\n#define MEDIUMP 1\n";
    if (version == GlslVersion::Es300) {
        s += vertex ? "#define ATTRIBUTE in\n#define VARYING_OUT out\n"
                    : "#define VARYING_IN in\nout vec4 o_fragColor;\n#define FRAG_COLOR o_fragColor\n";
    } else {
        s += vertex ? "#define ATTRIBUTE attribute\n#define VARYING_OUT varying\n"
                    : "#define VARYING_IN varying\n#define FRAG_COLOR gl_FragColor\n";
    }
    s += "#define FRONT_FACING gl_FrontFacing\n";
    s += version == GlslVersion::Es300 ? "#define TEXTURE_2D texture\n#define TEXTURE_CUBE texture\n"
                                       : "#define TEXTURE_2D texture2D\n#define TEXTURE_CUBE textureCube\n";
    // Each stage gets only the defines it reads, so its source is a function of those alone.
    if (f.normalMap) s += "#define NORMAL_MAP 1\n";
    if (vertex) {
        if (f.skinned) {
            s += "#define SKINNED 1\n#define BONE_COUNT " + std::to_string(f.boneCount) + "\n";
            s += "#define INFLUENCES " + std::to_string(f.influences) + "\n";
        }
        if (f.morphTargets > 0) {
            s += "#define MORPH_TARGETS " + std::to_string(f.morphTargets) + "\n";
            if (f.morphNormals) s += "#define MORPH_NORMALS 1\n";
        }
        if (f.morphTexture) s += "#define MORPH_TEXTURE 1\n";
        if (f.normal) s += "#define HAS_NORMAL 1\n";
        if (f.color) s += "#define HAS_COLOR 1\n";
        if (f.uv) s += "#define HAS_UV 1\n";
        if (f.uv1Maps) s += "#define HAS_UV1 1\n";
        if (f.mode == ViewMode::Weights) s += "#define MODE_WEIGHTS 1\n";
        if (f.points) s += "#define POINTS 1\n";
        if (f.outline) s += "#define OUTLINE 1\n";
    } else {
        static constexpr const char* kModeDefines[] = {"MODE_SHADED", "MODE_WIREFRAME", "MODE_NORMALS",
                                                       "MODE_WEIGHTS", "MODE_BATCHES", "MODE_UV",
                                                       "MODE_UNLIT",  "MODE_COLORS", "MODE_SKINDIFF",
                                                       "MODE_SHADED_WIRE", "MODE_MIP", "MODE_TEXEL_DENSITY",
                                                       "MODE_OVERDRAW", "MODE_OVERDRAW"};
        static_assert(sizeof(kModeDefines) / sizeof(kModeDefines[0]) == static_cast<size_t>(ViewMode::Count));
        s += std::string("#define ") + kModeDefines[static_cast<size_t>(f.mode)] + " 1\n";
        if (f.textured) s += "#define TEXTURED 1\n";
        if (f.materialMaps) s += "#define MATERIAL_MAPS 1\n";
        s += "#define REFLECTION_MAP " + std::to_string(int(f.reflection)) + "\n";
        if (f.metalRough) s += "#define METAL_ROUGH 1\n";
        // Units 9 and 10: GLSL ES 1.00 programs never sample them (ES 2 grants 8 units).
        if (f.specularMaps && f.metalRough && version == GlslVersion::Es300) s += "#define SPECULAR_MAPS 1\n";
        if (f.mapTransforms) s += "#define MAP_TRANSFORMS 1\n";
        if (f.uv1Maps) s += "#define UV1_MAPS " + std::to_string(int(f.uv1Maps)) + "\n";
        if (f.lightProjection) s += "#define LIGHT_PROJECTION 1\n";
        if (f.maxLights > 0) s += "#define MAX_LIGHTS " + std::to_string(int(f.maxLights)) + "\n";
    }
    s += "#line 1\n";
    return s;
}

gl::Shader compile(GLenum stage, const std::string& source, std::string& error) {
    gl::Shader shader(glCreateShader(stage));
    const char* text = source.c_str();
    glShaderSource(shader.get(), 1, &text, nullptr);
    glCompileShader(shader.get());
    GLint ok = 0;
    glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetShaderInfoLog(shader.get(), sizeof log, nullptr, log);
        error = std::string(stage == GL_VERTEX_SHADER ? "vertex" : "fragment") + " shader does not compile: " + log;
        return gl::Shader();
    }
    return shader;
}

// The program of two stages with `attributes` bound to their locations; empty with `error` (naming
// `what`) when a stage does not compile or the program does not link.
gl::Program linkProgram(const std::string& vertex, const std::string& fragment,
                        std::initializer_list<std::pair<GLuint, const char*>> attributes, const char* what,
                        std::string& error) {
    gl::Shader vs = compile(GL_VERTEX_SHADER, vertex, error);
    if (!vs) return gl::Program();
    gl::Shader fs = compile(GL_FRAGMENT_SHADER, fragment, error);
    if (!fs) return gl::Program();
    gl::Program program(glCreateProgram());
    glAttachShader(program.get(), vs.get());
    glAttachShader(program.get(), fs.get());
    for (const auto& [location, name] : attributes) glBindAttribLocation(program.get(), location, name);
    glLinkProgram(program.get());
    GLint ok = 0;
    glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetProgramInfoLog(program.get(), sizeof log, nullptr, log);
        error = std::string(what) + " program does not link: " + log;
        return gl::Program();
    }
    return program;
}

}  // namespace

std::string assembleVertexShader(const ShaderFeatures& features, GlslVersion version) {
    return header(features, version, true) + kShaderMeshVert;
}

std::string assembleFragmentShader(const ShaderFeatures& features, GlslVersion version, bool fragmentHighp) {
    return header(features, version, false, fragmentHighp) + kShaderMeshFrag;
}

const std::vector<std::string>& fragmentUniformNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        const std::string source = kShaderMeshFrag;
        for (size_t at = source.find("uniform "); at != std::string::npos;
             at = source.find("uniform ", at + 1)) {
            if (at > 0 && source[at - 1] != '\n') continue;  // declarations start a line
            const size_t eol = source.find_first_of(";\n", at);
            std::string decl = source.substr(at, eol - at);
            // "uniform [precision] type name[N]": the name is the last word, before any bracket.
            decl = decl.substr(0, decl.find('['));
            const size_t space = decl.find_last_of(' ');
            if (space != std::string::npos) out.push_back(decl.substr(space + 1));
        }
        return out;
    }();
    return names;
}

int uniformVectors(unsigned type, int arraySize) {
    int rows = 1;
    switch (type) {
        case GL_FLOAT_MAT2:
            rows = 2;
            break;
        case GL_FLOAT_MAT3:
            rows = 3;
            break;
        case GL_FLOAT_MAT4:
            rows = 4;
            break;
        case GL_SAMPLER_2D:
        case GL_SAMPLER_CUBE:
        case GL_SAMPLER_3D:
        case GL_SAMPLER_2D_SHADOW:
            rows = 0;
            break;
        default:
            break;
    }
    return rows * (arraySize > 0 ? arraySize : 1);
}

std::string assembleOverdrawShader(bool vertex, GlslVersion version) {
    return header(ShaderFeatures(), version, vertex) + (vertex ? kShaderOverdrawVert : kShaderOverdrawFrag);
}

bool buildOverdrawProgram(GlslVersion version, OverdrawProgram& out, std::string& error) {
    out.program = linkProgram(assembleOverdrawShader(true, version), assembleOverdrawShader(false, version),
                              {{kLocPosition, "a_position"}}, "overdraw", error);
    if (!out.program) return false;
    out.counts = glGetUniformLocation(out.program.get(), "u_counts");
    return true;
}

std::string assembleOverlayShader(bool vertex, GlslVersion version) {
    return header(ShaderFeatures(), version, vertex) + (vertex ? kShaderOverlayVert : kShaderOverlayFrag);
}

bool buildOverlayProgram(GlslVersion version, OverlayProgram& out, std::string& error) {
    out.program = linkProgram(assembleOverlayShader(true, version), assembleOverlayShader(false, version),
                              {{kLocPosition, "a_position"}, {kLocColor, "a_color"}}, "overlay", error);
    if (!out.program) return false;
    out.viewProjection = glGetUniformLocation(out.program.get(), "u_viewProjection");
    out.pointSize = glGetUniformLocation(out.program.get(), "u_pointSize");
    return true;
}

std::vector<ShaderFeatures> allShaderPermutations(int maxBones) {
    std::vector<ShaderFeatures> all;
    // Vertex sources: skinning, morphs, attributes, the tangent frame, the weights view, capture.
    for (int bits = 0; bits < 8; ++bits)
        for (int skin = 0; skin < 2; ++skin)
            for (int morph = 0; morph <= 2 * kMaxGpuMorphTargets + 1; ++morph)
                for (int extra = 0; extra < 8; ++extra) {
                    ShaderFeatures f;
                    f.normal = bits & 1;
                    f.color = bits & 2;
                    f.uv = bits & 4;
                    f.skinned = skin;
                    // 0: no morphs; 1..4: position targets; 5..8: position and normal targets.
                    // The last value: every target from the texture of deltas (ES3).
                    f.morphTexture = morph == 2 * kMaxGpuMorphTargets + 1;
                    f.morphTargets = f.morphTexture ? 0 : morph <= kMaxGpuMorphTargets ? morph : morph - kMaxGpuMorphTargets;
                    f.morphNormals = !f.morphTexture && morph > kMaxGpuMorphTargets;
                    f.normalMap = extra & 1;
                    f.mode = (extra & 2) ? ViewMode::Weights : ViewMode::Shaded;
                    f.capture = extra & 4;
                    if (f.morphNormals && !f.normal) continue;               // never requested
                    if (f.normalMap && !(f.normal && f.uv)) continue;        // needs both
                    if (f.mode == ViewMode::Weights && !f.skinned) continue;  // drawn shaded instead
                    if (f.capture && (f.normalMap || f.mode != ViewMode::Shaded)) continue;
                    if (f.normalMap) f.textured = true;
                    // Each source also as a Points draw (never captured) and, as the selection
                    // outline, with OUTLINE (flat passes: no normal map, weights view or capture).
                    const bool outlined = !f.capture && !f.normalMap && f.mode != ViewMode::Weights;
                    // Past those, the plain and Points draws also with texture coordinate set 1
                    // (HAS_UV1), where there is set 0 (the flat outline pass samples no map).
                    const int passes = f.capture ? 1 : outlined ? 3 : 2;
                    for (int variant = 0; variant < passes + (f.uv && !f.capture ? 2 : 0); ++variant) {
                        f.points = variant < passes ? variant == 1 : variant == passes + 1;
                        f.outline = variant == 2 && passes == 3;
                        f.uv1Maps = variant < passes ? 0 : 1;
                        if (f.skinned) {
                            for (int influences = 1; influences <= 4; ++influences) {
                                f.influences = influences;
                                f.boneCount = maxBones;
                                all.push_back(f);
                            }
                        } else {
                            all.push_back(f);
                        }
                    }
                }
    // Fragment sources: every mode; material variants in the shaded mode, textures in unlit.
    for (int mode = 0; mode < static_cast<int>(ViewMode::Count); ++mode)
        for (int material = 0; material < 96; ++material) {
            ShaderFeatures f;
            f.mode = static_cast<ViewMode>(mode);
            f.mapTransforms = material >= 48;  // the second half: every map through its transform
            f.normal = f.uv = true;
            f.textured = material & 1;
            f.normalMap = material & 2;
            f.metalRough = material & 4;
            f.reflection = uint8_t((material % 48 / 8) % 3);
            f.materialMaps = material % 48 >= 24;
            if ((f.normalMap || f.materialMaps || f.mapTransforms) && !f.textured) continue;
            if (f.materialMaps && f.mode != ViewMode::Shaded) continue;
            const bool shaded = f.mode == ViewMode::Shaded;
            if (!shaded && (f.normalMap || f.metalRough || f.reflection)) continue;
            if (!shaded && f.textured && f.mode != ViewMode::Unlit) continue;
            if (f.metalRough && f.reflection == 1) continue;  // metal/rough takes cube maps or the gradient
            all.push_back(f);
            // Shaded variants also with a projected spot light, and textured metal/rough ones also
            // with KHR_materials_specular's maps (ES 3.00; the 1.00 source is the one without).
            if (shaded) {
                f.lightProjection = true;
                all.push_back(f);
            }
            if (shaded && f.metalRough && f.textured) {
                f.specularMaps = true;
                for (bool projection : {false, true}) {
                    f.lightProjection = projection;
                    all.push_back(f);
                }
            }
            // Textured ones also with every map on texture coordinate set 1 (UV1_MAPS; the mask only
            // picks v_uv1 or v_uv per map, so the full one compiles every choice).
            if (f.textured) {
                f.lightProjection = false;
                f.uv1Maps = 0xFF;
                all.push_back(f);
            }
        }
    return all;
}

const MeshProgram* ProgramCache::get(const ShaderFeatures& features, std::string& error) {
    auto found = m_programs.find(features.key());
    if (found != m_programs.end()) return &found->second;
    MeshProgram p;
    if (!link(features, p, error)) return nullptr;
    // Over the fragment budget: the same program with fewer lights, under the key asked for.
    const int lights = features.maxLights > 0 ? features.maxLights : kMaxShaderLights;
    const int fewer = lightsWithinBudget(p.fragmentUniformVectors, lights, m_maxFragmentVectors);
    if (fewer < lights) {
        ShaderFeatures reduced = features;
        reduced.maxLights = uint8_t(fewer);
        MeshProgram q;
        if (!link(reduced, q, error)) return nullptr;
        m_notes.push_back("a shader program holds " + std::to_string(fewer) + " of " +
                          std::to_string(lights) +
                          " lights per draw: with all of them its fragment stage needs " +
                          std::to_string(p.fragmentUniformVectors) + " uniform vectors, over the " +
                          std::to_string(m_maxFragmentVectors) + " of GL_MAX_FRAGMENT_UNIFORM_VECTORS here");
        p = std::move(q);
    }
    m_fragmentVectorsUsed = std::max(m_fragmentVectorsUsed, p.fragmentUniformVectors);
    if (m_maxFragmentVectors > 0 && p.fragmentUniformVectors > m_maxFragmentVectors)
        m_notes.push_back(
            "a shader program uses " + std::to_string(p.fragmentUniformVectors) +
            " fragment uniform vectors, more than the " + std::to_string(m_maxFragmentVectors) +
            " this profile allows (GL_MAX_FRAGMENT_UNIFORM_VECTORS): a device with that limit would "
            "not link it");
    return &m_programs.emplace(features.key(), std::move(p)).first->second;
}

bool ProgramCache::link(const ShaderFeatures& features, MeshProgram& p, std::string& error) {
    gl::Shader vs = compile(GL_VERTEX_SHADER, assembleVertexShader(features, m_version), error);
    if (!vs) return false;
    gl::Shader fs =
        compile(GL_FRAGMENT_SHADER, assembleFragmentShader(features, m_version, m_fragmentHighp), error);
    if (!fs) return false;
    p.program = gl::Program(glCreateProgram());
    const GLuint prog = p.program.get();
    glAttachShader(prog, vs.get());
    glAttachShader(prog, fs.get());
    glBindAttribLocation(prog, kLocPosition, "a_position");
    glBindAttribLocation(prog, kLocNormal, "a_normal");
    glBindAttribLocation(prog, kLocColor, "a_color");
    glBindAttribLocation(prog, kLocUv, "a_uv");
    glBindAttribLocation(prog, kLocBoneIndices, "a_boneIndices");
    glBindAttribLocation(prog, kLocBoneWeights, "a_boneWeights");
    if (features.normalMap) glBindAttribLocation(prog, tangentLocation(m_maxVertexAttribs), "a_tangent");
    if (features.uv1Maps) glBindAttribLocation(prog, uv1Location(m_maxVertexAttribs), "a_uv1");
    for (int t = 0; t < features.morphTargets; ++t) {
        glBindAttribLocation(prog, morphPositionLocation(t), ("a_morphPosition" + std::to_string(t)).c_str());
        if (features.morphNormals)
            glBindAttribLocation(prog, morphNormalLocation(features.morphTargets, t), ("a_morphNormal" + std::to_string(t)).c_str());
    }
    if (features.capture) {
        if (m_version != GlslVersion::Es300) {
            error = "transform feedback needs GLSL ES 3.00";
            return false;
        }
        static const char* const kVaryings[] = {"v_worldPosition", "v_normal"};
        glTransformFeedbackVaryings(prog, 2, kVaryings, GL_INTERLEAVED_ATTRIBS);
    }
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetProgramInfoLog(prog, sizeof log, nullptr, log);
        error = std::string("shader program does not link: ") + log;
        return false;
    }
    // The fragment stage's uniform vectors, as a driver with few of them would count the active ones.
    GLint active = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &active);
    int fragmentVectors = 0;
    for (GLint u = 0; u < active; ++u) {
        char name[128] = {};
        GLint size = 0;
        GLenum type = 0;
        glGetActiveUniform(prog, GLuint(u), sizeof name, nullptr, &size, &type, name);
        std::string base = name;
        base = base.substr(0, base.find('['));
        const auto& names = fragmentUniformNames();
        if (std::find(names.begin(), names.end(), base) != names.end())
            fragmentVectors += uniformVectors(type, size);
    }
    p.fragmentUniformVectors = fragmentVectors;
    p.maxLights = features.maxLights > 0 ? features.maxLights : kMaxShaderLights;
    p.model = glGetUniformLocation(prog, "u_model");
    p.viewProjection = glGetUniformLocation(prog, "u_viewProjection");
    p.positionUnpack = glGetUniformLocation(prog, "u_positionUnpack");
    p.bones = glGetUniformLocation(prog, "u_bones");
    p.ambient = glGetUniformLocation(prog, "u_ambient");
    p.diffuse = glGetUniformLocation(prog, "u_diffuse");
    p.specular = glGetUniformLocation(prog, "u_specular");
    p.emissive = glGetUniformLocation(prog, "u_emissive");
    p.shininess = glGetUniformLocation(prog, "u_shininess");
    p.eye = glGetUniformLocation(prog, "u_eye");
    p.lightCount = glGetUniformLocation(prog, "u_lightCount");
    p.lightPosition = glGetUniformLocation(prog, "u_lightPosition");
    p.lightColor = glGetUniformLocation(prog, "u_lightColor");
    p.lightAttenuation = glGetUniformLocation(prog, "u_lightAttenuation");
    p.lightSpot = glGetUniformLocation(prog, "u_lightSpot");
    p.lightRange = glGetUniformLocation(prog, "u_lightRange");
    p.skyColor = glGetUniformLocation(prog, "u_skyColor");
    p.groundColor = glGetUniformLocation(prog, "u_groundColor");
    p.up = glGetUniformLocation(prog, "u_up");
    p.flatColor = glGetUniformLocation(prog, "u_flatColor");
    p.diffuseSize = glGetUniformLocation(prog, "u_diffuseSize");
    p.surface = glGetUniformLocation(prog, "u_surface");
    p.outline = glGetUniformLocation(prog, "u_outline");
    // Samplers never change unit: set once at link time.
    glUseProgram(prog);
    static constexpr struct {
        const char* name;
        int unit;
    } kSamplers[] = {{"u_diffuseMap", kUnitDiffuse},   {"u_specularMap", kUnitSpecular},
                     {"u_normalMap", kUnitNormal},     {"u_emissiveMap", kUnitEmissive},
                     {"u_opacityMap", kUnitOpacity},   {"u_reflectionMap", kUnitReflection},
                     {"u_reflectionCube", kUnitReflectionCube}, {"u_morphDeltas", kUnitMorphDeltas},
                     {"u_occlusionMap", kUnitOcclusion}, {"u_specularStrengthMap", kUnitSpecularStrength},
                     {"u_specularTintMap", kUnitSpecularTint}};
    for (const auto& sampler : kSamplers) {
        const GLint location = glGetUniformLocation(prog, sampler.name);
        if (location >= 0) glUniform1i(location, sampler.unit);
    }
    const GLint projectionMap = glGetUniformLocation(prog, "u_projectionMap");
    if (projectionMap >= 0) glUniform1i(projectionMap, lightProjectionUnit(m_version));
    p.lightProjection = glGetUniformLocation(prog, "u_lightProjection");
    p.projectedLight = glGetUniformLocation(prog, "u_projectedLight");
    p.weightBone = glGetUniformLocation(prog, "u_weightBone");
    p.morphWeights = glGetUniformLocation(prog, "u_morphWeights");
    p.morphAbsolute = glGetUniformLocation(prog, "u_morphAbsolute");
    p.morphBaseScale = glGetUniformLocation(prog, "u_morphBaseScale");
    p.morphTextureWeights = glGetUniformLocation(prog, "u_morphTextureWeights");
    p.morphLayout = glGetUniformLocation(prog, "u_morphLayout");
    p.mapUv = glGetUniformLocation(prog, "u_mapUv");
    p.mapBorder = glGetUniformLocation(prog, "u_mapBorder");
    p.mapFactors = glGetUniformLocation(prog, "u_mapFactors");
    p.metalRough = features.metalRough;
    p.pointSize = glGetUniformLocation(prog, "u_pointSize");
    return true;
}

}  // namespace esv
