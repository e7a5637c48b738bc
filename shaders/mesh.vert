// Mesh vertex stage. Prepended by the renderer: version line, prelude (ATTRIBUTE/VARYING_OUT),
// and feature defines: SKINNED, BONE_COUNT, INFLUENCES, HAS_NORMAL, HAS_COLOR, HAS_UV,
// MORPH_TARGETS (1..4), MORPH_NORMALS, MORPH_TEXTURE (GLSL ES 3.00: any number of targets from a
// texture of deltas), NORMAL_MAP (tangent frame for tangent-space maps), POINTS (a GL_POINTS draw:
// gl_PointSize from u_pointSize), OUTLINE (the selection outline: see u_outline), HAS_UV1 (texture
// coordinate set 1 for the maps that name it: a_uv1 to v_uv1).
ATTRIBUTE vec3 a_position;
#ifdef HAS_NORMAL
ATTRIBUTE vec3 a_normal;
#endif
#ifdef HAS_COLOR
ATTRIBUTE vec4 a_color;
#endif
#ifdef HAS_UV
ATTRIBUTE vec2 a_uv;
#endif
#ifdef HAS_UV1
ATTRIBUTE vec2 a_uv1;
VARYING_OUT vec2 v_uv1;
#endif
#ifdef NORMAL_MAP
ATTRIBUTE vec4 a_tangent;  // xyz tangent, w handedness: bitangent = w * cross(normal, tangent)
VARYING_OUT vec4 v_tangent;
#endif
#ifdef SKINNED
ATTRIBUTE vec4 a_boneIndices;
ATTRIBUTE vec4 a_boneWeights;
uniform mat4 u_bones[BONE_COUNT];
#ifdef MODE_WEIGHTS
uniform float u_weightBone;  // palette index whose weight to show; -1: the strongest influence; -2: a joint not in this batch
#endif
#endif

#ifdef MORPH_TARGETS
// Target i adds weight_i * (target_i - absolute_i * base) in stored space, before the unpack
// matrix: relative targets are deltas, absolute targets blend from the base toward themselves.
uniform vec4 u_morphWeights;
uniform vec4 u_morphAbsolute;  // 1.0 for absolute targets, 0.0 for relative ones
ATTRIBUTE vec3 a_morphPosition0;
#if MORPH_TARGETS > 1
ATTRIBUTE vec3 a_morphPosition1;
#endif
#if MORPH_TARGETS > 2
ATTRIBUTE vec3 a_morphPosition2;
#endif
#if MORPH_TARGETS > 3
ATTRIBUTE vec3 a_morphPosition3;
#endif
#ifdef MORPH_NORMALS
ATTRIBUTE vec3 a_morphNormal0;
#if MORPH_TARGETS > 1
ATTRIBUTE vec3 a_morphNormal1;
#endif
#if MORPH_TARGETS > 2
ATTRIBUTE vec3 a_morphNormal2;
#endif
#if MORPH_TARGETS > 3
ATTRIBUTE vec3 a_morphNormal3;
#endif
#endif
#endif

#if defined(MORPH_TARGETS) || (defined(MORPH_TEXTURE) && __VERSION__ >= 300)
// The base is scaled before the deltas are added: 1, or (OpenGEX, A = sum w_i M_i) the sum of the
// absolute targets' weights.
uniform float u_morphBaseScale;
#endif

#if defined(MORPH_TEXTURE) && __VERSION__ >= 300
// Deltas in stored space (absolute targets already less the base), RGBA32F: target t's position
// deltas fill rows [t * rows, (t + 1) * rows), vertex v at (v % width, v / width) within them;
// normal deltas follow all position rows when u_morphLayout.w is 1.
#define MORPH_TEXTURE_TARGETS 64
uniform highp sampler2D u_morphDeltas;
uniform vec4 u_morphTextureWeights[MORPH_TEXTURE_TARGETS / 4];
uniform ivec4 u_morphLayout;  // targets, rows per target, width, normals present
#endif

uniform mat4 u_model;           // identity for skinned draws: the palette is already in world space
uniform mat4 u_viewProjection;
uniform mat4 u_positionUnpack;  // POD unpack matrix: stored (quantised) position -> model space
#ifdef POINTS
uniform float u_pointSize;      // pixels
#endif
#ifdef OUTLINE
// The selection outline: an inverted hull, drawn with front faces culled after the scene. Each
// vertex moves out by u_outline (the width in clip units per unit of w, in x and y) along the
// screen-space image of `toward`, a clip-space direction, so the hull's back faces show as an even
// rim around the silhouette while the surface in front hides the rest.
uniform vec2 u_outline;
vec4 outlined(vec4 clip, vec4 toward) {
    // The derivative of clip.xy / clip.w along `toward` (up to a positive factor), in pixel units.
    vec2 d = (toward.xy * clip.w - clip.xy * toward.w) / u_outline;
    float len = length(d);
    if (len > 0.0) clip.xy += d / len * u_outline * clip.w;
    return clip;
}
#endif

VARYING_OUT vec3 v_worldPosition;
VARYING_OUT vec3 v_normal;
VARYING_OUT vec4 v_color;
VARYING_OUT vec2 v_uv;
VARYING_OUT float v_weight;

// The inverse transpose of the upper 3x3 up to a positive scale: its cofactor matrix (columns are
// cross products of the other two columns), sign-corrected by the determinant so mirrored
// transforms keep normals outward. Exact for non-uniform scale and shear, and free of inverse(),
// which GLSL ES 1.00 lacks.
mat3 normalMatrix(mat4 m) {
    vec3 c0 = m[0].xyz, c1 = m[1].xyz, c2 = m[2].xyz;
    mat3 cofactor = mat3(cross(c1, c2), cross(c2, c0), cross(c0, c1));
    return dot(c0, cross(c1, c2)) < 0.0 ? -cofactor : cofactor;
}

void main() {
    vec3 stored = a_position;
#ifdef HAS_NORMAL
    vec3 normal = a_normal;
#else
    vec3 normal = vec3(0.0, 0.0, 1.0);
#endif
#if defined(MORPH_TARGETS) || (defined(MORPH_TEXTURE) && __VERSION__ >= 300)
    stored *= u_morphBaseScale;
    normal *= u_morphBaseScale;
#endif
#ifdef MORPH_TARGETS
    vec3 base = a_position;
    stored += u_morphWeights.x * (a_morphPosition0 - u_morphAbsolute.x * base);
#if MORPH_TARGETS > 1
    stored += u_morphWeights.y * (a_morphPosition1 - u_morphAbsolute.y * base);
#endif
#if MORPH_TARGETS > 2
    stored += u_morphWeights.z * (a_morphPosition2 - u_morphAbsolute.z * base);
#endif
#if MORPH_TARGETS > 3
    stored += u_morphWeights.w * (a_morphPosition3 - u_morphAbsolute.w * base);
#endif
#if defined(MORPH_NORMALS) && defined(HAS_NORMAL)
    vec3 baseNormal = a_normal;
    normal += u_morphWeights.x * (a_morphNormal0 - u_morphAbsolute.x * baseNormal);
#if MORPH_TARGETS > 1
    normal += u_morphWeights.y * (a_morphNormal1 - u_morphAbsolute.y * baseNormal);
#endif
#if MORPH_TARGETS > 2
    normal += u_morphWeights.z * (a_morphNormal2 - u_morphAbsolute.z * baseNormal);
#endif
#if MORPH_TARGETS > 3
    normal += u_morphWeights.w * (a_morphNormal3 - u_morphAbsolute.w * baseNormal);
#endif
#endif
#endif
#if defined(MORPH_TEXTURE) && __VERSION__ >= 300
    {
        int width = u_morphLayout.z;
        ivec2 texel = ivec2(gl_VertexID % width, gl_VertexID / width);
        int normalBase = u_morphLayout.x * u_morphLayout.y;
        for (int t = 0; t < MORPH_TEXTURE_TARGETS; ++t) {
            if (t >= u_morphLayout.x) break;
            float w = u_morphTextureWeights[t / 4][t % 4];
            if (w == 0.0) continue;
            stored += w * texelFetch(u_morphDeltas, texel + ivec2(0, t * u_morphLayout.y), 0).xyz;
#ifdef HAS_NORMAL
            if (u_morphLayout.w != 0)
                normal += w * texelFetch(u_morphDeltas, texel + ivec2(0, normalBase + t * u_morphLayout.y), 0).xyz;
#endif
        }
    }
#endif
    vec4 position = u_positionUnpack * vec4(stored, 1.0);
    mat4 model = u_model;
    v_weight = 1.0;
#ifdef SKINNED
    mat4 skin = mat4(0.0);
    float total = 0.0;
    float strongest = 0.0;
    float selected = 0.0;
    for (int i = 0; i < INFLUENCES; ++i) {
        float w = a_boneWeights[i];
        // ES 1.00 has no integer attributes: indices arrive as floats.
        int bone = int(a_boneIndices[i] + 0.5);
        if (w > 0.0) {
            skin += w * u_bones[bone];
            total += w;
            strongest = max(strongest, w);
#ifdef MODE_WEIGHTS
            if (abs(float(bone) - u_weightBone) < 0.5) selected += w;
#endif
        }
    }
    if (total > 0.0) model = skin;
    v_weight = strongest;
#ifdef MODE_WEIGHTS
    if (u_weightBone > -1.5) v_weight = u_weightBone >= 0.0 ? selected : strongest;
    else v_weight = 0.0;
#endif
#endif
    vec4 world = model * position;
    v_worldPosition = world.xyz;
    v_normal = normalMatrix(model) * normal;  // normalised in the fragment stage
#ifdef NORMAL_MAP
    // Tangents follow the surface: transformed by the model (or skin) matrix itself.
    v_tangent = vec4(mat3(model[0].xyz, model[1].xyz, model[2].xyz) * a_tangent.xyz,
                     a_tangent.w * sign(dot(model[0].xyz, cross(model[1].xyz, model[2].xyz))));
#endif
#ifdef HAS_COLOR
    v_color = a_color;
#else
    v_color = vec4(1.0);
#endif
#ifdef HAS_UV
    v_uv = a_uv;
#else
    v_uv = vec2(0.0);
#endif
#ifdef HAS_UV1
    v_uv1 = a_uv1;
#endif
    gl_Position = u_viewProjection * world;
#ifdef OUTLINE
#ifdef HAS_NORMAL
    gl_Position = outlined(gl_Position, u_viewProjection * vec4(v_normal, 0.0));
#else
    // No normals: away from the node's origin.
    gl_Position = outlined(gl_Position, gl_Position - u_viewProjection * vec4(model[3].xyz, 1.0));
#endif
#endif
#ifdef POINTS
    gl_PointSize = u_pointSize;
#endif
}
