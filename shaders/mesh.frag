// Mesh fragment stage: the classic model (Blinn-Phong: ambient, diffuse, specular with shininess,
// emission, opacity) or the metal/rough model (GGX with a hemispherical image-based ambient), up to
// MAX_LIGHTS lights and the viewer's sky-over-ground hemisphere ambient, plus the debug view modes.
// Defines: MODE_SHADED, MODE_UNLIT, MODE_COLORS, MODE_NORMALS, MODE_WEIGHTS, MODE_BATCHES, MODE_UV,
// MODE_WIREFRAME, MODE_SKINDIFF, MODE_MIP, MODE_TEXEL_DENSITY; TEXTURED (the diffuse / base colour map; a neutral 1x1 texture
// when the material has none), MATERIAL_MAPS (specular, emissive and opacity maps, neutral where absent; metal/rough:
// metallic, emissive, roughness and occlusion maps), NORMAL_MAP,
// REFLECTION_MAP (1: lat-long 2D map, 2: cube map), METAL_ROUGH, MAP_TRANSFORMS (every map samples
// through its texture coordinate transform and emulated addressing mode), LIGHT_PROJECTION (one
// spot light's colour filtered by its projection texture), SPECULAR_MAPS (metal/rough, GLSL ES 3.00
// only: KHR_materials_specular's strength and colour maps, neutral where absent), UV1_MAPS (a mask
// of MAP_* bits: those maps sample texture coordinate set 1, v_uv1, instead of set 0).
#ifndef MAX_LIGHTS
#define MAX_LIGHTS 8  // LightRig::kMaxLights: four of the file's and four of the viewer's
#endif

VARYING_IN vec3 v_worldPosition;
VARYING_IN vec3 v_normal;
VARYING_IN vec4 v_color;
VARYING_IN vec2 v_uv;
VARYING_IN float v_weight;
#ifdef NORMAL_MAP
VARYING_IN vec4 v_tangent;
#endif
#ifdef UV1_MAPS
VARYING_IN vec2 v_uv1;
#endif

uniform vec3 u_ambient;         // material ambient * scene ambient
uniform vec4 u_diffuse;         // rgb + opacity (metal/rough: base colour + opacity)
uniform vec3 u_specular;       // metal/rough: the dielectric F0 of the index of refraction (0.04 at 1.5) x KHR_materials_specular's colour
uniform vec3 u_emissive;
uniform float u_shininess;
uniform vec4 u_surface;         // metallic, roughness, reflectivity, alpha cutoff (0 = no test)
uniform vec3 u_eye;
uniform int u_lightCount;
uniform vec4 u_lightPosition[MAX_LIGHTS];   // w = 0: direction the light travels; w = 1: position
uniform vec4 u_lightColor[MAX_LIGHTS];      // rgb, w: POD falloff exponent (cos(angle)^w inside the cone)
uniform vec4 u_lightAttenuation[MAX_LIGHTS]; // constant, linear, quadratic, offset (OpenGEX inverse curves)
// range start, range end (0: none), cos(inner cone) (-2: the default soft edge), flags (a sum):
// 1 smooth distance window, 2 OpenGEX curves (inverse saturated after the offset, power on the cone
// function), 4 smooth cone, 8 cone linear in the cosine
uniform vec4 u_lightRange[MAX_LIGHTS];
uniform vec4 u_lightSpot[MAX_LIGHTS];       // spot direction, cos(outer cone); cos = -2 for no cone
uniform vec4 u_flatColor;                   // batches and wireframe modes
// x: the normal map's scale (glTF normalTexture.scale: its x and y before normalising); y: the
// occlusion map's strength (glTF occlusionTexture.strength: 1 + strength * (ao - 1)); z:
// KHR_materials_specular's factor. Metal/rough: the dielectric F0 = min(u_specular, 1) * z and
// F90 = z (0.04 and 1 without the extension).
uniform vec4 u_mapFactors;
#if defined(MODE_MIP) || defined(MODE_TEXEL_DENSITY)
// The diffuse map's base width and height in texels and its mip levels sampled; 0: no map.
uniform vec3 u_diffuseSize;
// log2 of the base level's texels per screen pixel along the steeper screen axis (the level GL's
// LOD selection picks before clamping), from the UV derivatives.
float texelsPerPixelLog2() {
    vec2 texels = v_uv * u_diffuseSize.xy;
    vec2 dx = dFdx(texels), dy = dFdy(texels);
    return 0.5 * log2(max(max(dot(dx, dx), dot(dy, dy)), 1e-12));
}
#endif
// The viewer's hemisphere ambient: sky colour for normals along u_up.xyz, ground colour against it
// (black when the file's lights alone light the scene); u_up.w: the diffuse response, see below.
uniform vec3 u_skyColor;
uniform vec3 u_groundColor;
uniform vec4 u_up;

#ifdef TEXTURED
uniform sampler2D u_diffuseMap;   // unit 0: diffuse / base colour
#endif
#ifdef MATERIAL_MAPS
uniform sampler2D u_specularMap;  // unit 1: specular colour (metal/rough: metallic in .b, as glTF packs it)
uniform sampler2D u_emissiveMap;  // unit 3
uniform sampler2D u_opacityMap;   // unit 4: opacity in .r (metal/rough: roughness in .g)
#ifdef METAL_ROUGH
uniform sampler2D u_occlusionMap;  // unit 5 (the classic model's lat-long reflection unit): occlusion in .r
#endif
#endif
#ifdef NORMAL_MAP
uniform sampler2D u_normalMap;    // unit 2: tangent-space normal
#endif
#ifdef SPECULAR_MAPS
// KHR_materials_specular's maps on units 9 and 10 (ES 2 has 8 units, all taken). The colour map is
// sampled as stored, sRGB, as the base colour and emissive maps are: this renderer shades stored
// colours and shows the result through its own display response (diffuseResponse, rollOff).
uniform sampler2D u_specularStrengthMap;  // unit 9: the strength in .a (times u_mapFactors.z)
uniform sampler2D u_specularTintMap;      // unit 10: the colour in .rgb (times u_specular)
#endif
#if REFLECTION_MAP == 1
uniform sampler2D u_reflectionMap;  // unit 5: lat-long environment
#elif REFLECTION_MAP == 2
uniform samplerCube u_reflectionCube;  // unit 6
#endif

#ifdef LIGHT_PROJECTION
// World space to the projected spot's texture space: q.xy / q.w in [0, 1] inside its square
// frustum (image right along the light's +X, up along +Y), q.w the depth in front of the light.
uniform mat4 u_lightProjection;
uniform float u_projectedLight;     // index of that light among this draw's lights; -1: none
uniform sampler2D u_projectionMap;  // unit 8 (GLSL ES 1.00: unit 7, free there)
#endif

const float PI = 3.14159265;

// MEDIUMP (the prelude defines it where fragment shaders lack high precision: ES2 drivers without
// GL_FRAGMENT_PRECISION_HIGH, the strict profile): mediump may be 16-bit floats (Mesa lowers it so),
// whose squares overflow above 256 (65504), so world-space vectors are brought to unit scale
// before their length is taken.
#ifdef MEDIUMP
vec3 unitScale(vec3 v) {
    float m = max(max(abs(v.x), abs(v.y)), abs(v.z));
    return v / max(m, 1e-4);
}
float safeLength(vec3 v) {
    float m = max(max(abs(v.x), abs(v.y)), abs(v.z));
    return m * length(v / max(m, 1e-4));
}
#define NORMALIZE(v) normalize(unitScale(v))
#else
#define NORMALIZE(v) normalize(v)
#define safeLength(v) length(v)
#endif

// Maps by index into the MAP_TRANSFORMS uniforms (equal to their texture units).
#define MAP_DIFFUSE 0
#define MAP_SPECULAR 1
#define MAP_NORMAL 2
#define MAP_EMISSIVE 3
#define MAP_OPACITY 4
#define MAP_OCCLUSION 5
#define MAP_SPECULAR_STRENGTH 6
#define MAP_SPECULAR_TINT 7
// Map i's texture coordinates: set 1 where bit i of UV1_MAPS is set, else set 0. The mask is a
// compile-time constant (ES 1.00 has no integer bit operations, hence the arithmetic), so the
// choice folds away and costs no uniform.
#ifdef UV1_MAPS
#define MAP_UV(index) (mod(floor(float(UV1_MAPS) / exp2(float(index))), 2.0) > 0.5 ? v_uv1 : v_uv)
#else
#define MAP_UV(index) v_uv
#endif
#ifdef MAP_TRANSFORMS
// Per map i: u_mapUv[2i] and u_mapUv[2i + 1] are the x and y rows of its 2D affine texture
// coordinate transform (xyz: the u, v and constant coefficients), their w its addressing mode of s
// and t: 0 GL's own (repeat, clamp, mirrored repeat), 1 border, 2 mirror_clamp, 3 mirror_border.
// u_mapBorder[i] is the border colour. ES 1.00 indexes fragment uniform arrays only with constant
// expressions, hence the macro with literal indices. The occlusion map (metal/rough) is the sixth,
// KHR_materials_specular's strength and colour maps the seventh and eighth.
#ifdef SPECULAR_MAPS
uniform vec4 u_mapUv[16];
uniform vec4 u_mapBorder[8];
#elif defined(METAL_ROUGH) && defined(MATERIAL_MAPS)
uniform vec4 u_mapUv[12];
uniform vec4 u_mapBorder[6];
#else
uniform vec4 u_mapUv[10];
uniform vec4 u_mapBorder[5];
#endif

vec4 sampleMap(sampler2D map, vec2 uv, vec4 row0, vec4 row1, vec4 border) {
    vec3 h = vec3(uv, 1.0);
    vec2 c = vec2(dot(row0.xyz, h), dot(row1.xyz, h));
    vec2 mode = vec2(row0.w, row1.w);
    vec2 mirrored = step(1.5, mode);                                      // 2 and 3: about zero
    vec2 bordered = step(0.5, mode) * (1.0 - mirrored) + step(2.5, mode);  // 1 and 3
    c = mix(c, abs(c), mirrored);
    vec2 outside = bordered * (vec2(lessThan(c, vec2(0.0))) + vec2(greaterThan(c, vec2(1.0))));
    // Emulated modes sample inside [0, 1] (GL clamps to the edge for them); the fetch stays out of
    // any branch so derivatives and mipmaps hold.
    vec4 texel = TEXTURE_2D(map, mix(c, clamp(c, 0.0, 1.0), step(0.5, mode)));
    return max(outside.x, outside.y) > 0.5 ? border : texel;
}
#define SAMPLE_MAP(map, index) sampleMap(map, MAP_UV(index), u_mapUv[2 * index], u_mapUv[2 * index + 1], u_mapBorder[index])
#else
#define SAMPLE_MAP(map, index) TEXTURE_2D(map, MAP_UV(index))
#endif

// The environment seen along `dir`: the reflection map when the material has one, else a soft
// sky-over-ground gradient (the image-based ambient that keeps metals from going black).
vec3 environment(vec3 dir) {
#if REFLECTION_MAP == 1
    vec2 uv = vec2(atan(dir.x, -dir.z) / (2.0 * PI) + 0.5, acos(clamp(dir.y, -1.0, 1.0)) / PI);
    return TEXTURE_2D(u_reflectionMap, uv).rgb;
#elif REFLECTION_MAP == 2
    return TEXTURE_CUBE(u_reflectionCube, dir).rgb;
#else
    float up = clamp(dir.y * 0.5 + 0.5, 0.0, 1.0);
    return mix(vec3(0.22, 0.2, 0.18), vec3(0.75, 0.8, 0.9), up);
#endif
}

// The hemisphere ambient a surface with normal `n` receives.
vec3 hemisphere(vec3 n) {
    return mix(u_groundColor, u_skyColor, dot(n, u_up.xyz) * 0.5 + 0.5);
}

// The diffuse irradiance as it scales the surface colour. u_up.w = 0: as it is (the file's lights
// alone). u_up.w = 1, the studio look: raised to 1/2.2, as a linear workflow shows a surface stored
// in sRGB (half the light reads 73%).
vec3 diffuseResponse(vec3 irradiance) {
    if (u_up.w < 0.5) return irradiance;
    return pow(max(irradiance, vec3(0.0)), vec3(1.0 / 2.2));
}

// The studio look's tone curve (u_up.w = 1), for classic and metal/rough materials alike: the
// shaded colour is as it is up to 0.6 and above eases toward 1 (slope 1 at 0.6, so no kink), so
// white surfaces in strong light and broad highlights keep their shading instead of clipping:
// 1.0 shows as 0.85, 1.5 as 0.96.
vec3 rollOff(vec3 c) {
    if (u_up.w < 0.5) return c;
    return mix(c, 0.6 + 0.4 * (1.0 - exp((0.6 - c) / 0.4)), step(0.6, c));
}

float lightFlag(float flags, float bit) {
    return mod(floor(flags / bit + 0.5), 2.0);
}

// Light i's colour filter at the fragment: the projection texture for the projected spot, black
// outside its frustum and behind it; white for every other light.
vec3 lightFilter(int i) {
#ifdef LIGHT_PROJECTION
    vec4 q = u_lightProjection * vec4(v_worldPosition, 1.0);
    vec2 uv = q.xy / max(q.w, 1e-6);
    // The fetch stays out of the branch so derivatives hold.
    vec3 texel = TEXTURE_2D(u_projectionMap, clamp(uv, 0.0, 1.0)).rgb;
    if (float(i) != u_projectedLight) return vec3(1.0);
    float inside = step(1e-6, q.w) * step(0.0, uv.x) * step(uv.x, 1.0) * step(0.0, uv.y) * step(uv.y, 1.0);
    return texel * inside;
#else
    return vec3(1.0);
#endif
}

// A light's direction (towards the light) and attenuation at the fragment, from its uniforms (the
// caller indexes them with its loop counter: ES 1.00 indexes fragment uniform arrays only with
// constant or loop expressions, which a function's parameter is not, and WebGL enforces it).
// a: constant, linear, quadratic, offset; r: u_lightRange's; exponent: u_lightColor's w.
float lightAt(vec4 position, vec4 a, vec4 r, vec4 spot, float exponent, out vec3 toLight) {
    float attenuation = 1.0;
    if (position.w == 0.0) {
        toLight = -NORMALIZE(position.xyz);
    } else {
        vec3 d = position.xyz - v_worldPosition;
        float dist = safeLength(d);
        toLight = NORMALIZE(d);
        bool openGex = lightFlag(r.w, 2.0) > 0.5;
        attenuation = 1.0 / max(a.x + dist * (a.y + a.z * dist), 1e-6);  // no dist^2 alone: mediump overflows
        if (openGex) attenuation = clamp(attenuation + a.w, 0.0, 1.0);
        if (r.y > 0.0) {
            float t = clamp((r.y - dist) / max(r.y - r.x, 1e-6), 0.0, 1.0);
            if (lightFlag(r.w, 1.0) > 0.5) t = t * t * (3.0 - 2.0 * t);
            attenuation *= t;
        }
        if (spot.w > -1.5) {
            float c = dot(-toLight, NORMALIZE(spot.xyz));
            if (r.z > -1.5) {
                float t;
                if (lightFlag(r.w, 8.0) > 0.5) {
                    t = clamp((c - spot.w) / max(r.z - spot.w, 1e-6), 0.0, 1.0);
                } else {
                    float outer = acos(clamp(spot.w, -1.0, 1.0));
                    float inner = acos(clamp(r.z, -1.0, 1.0));
                    t = clamp((outer - acos(clamp(c, -1.0, 1.0))) / max(outer - inner, 1e-6), 0.0, 1.0);
                }
                if (lightFlag(r.w, 4.0) > 0.5) t = t * t * (3.0 - 2.0 * t);
                if (openGex && exponent > 0.0) t = pow(t, exponent);
                attenuation *= t;
            } else {
                attenuation *= smoothstep(spot.w, mix(spot.w, 1.0, 0.2), c);
            }
            if (!openGex && exponent > 0.0) attenuation *= pow(max(c, 0.0), exponent);
        }
    }
    return attenuation;
}

vec3 shadeClassic(vec3 n, vec3 baseColor, vec3 specularColor) {
    vec3 irradiance = u_ambient + hemisphere(n);
    vec3 highlights = vec3(0.0);
    vec3 viewDir = NORMALIZE(u_eye - v_worldPosition);
    for (int i = 0; i < MAX_LIGHTS; ++i) {
        if (i >= u_lightCount) break;
        vec3 toLight;
        float attenuation = lightAt(u_lightPosition[i], u_lightAttenuation[i], u_lightRange[i], u_lightSpot[i],
                                    u_lightColor[i].w, toLight);
        float diffuse = max(dot(n, toLight), 0.0);
        vec3 halfway = normalize(toLight + viewDir);
        float specular = diffuse > 0.0 && u_shininess > 0.0 ? pow(max(dot(n, halfway), 0.0), u_shininess) : 0.0;
        vec3 light = attenuation * u_lightColor[i].rgb * lightFilter(i);
        irradiance += light * diffuse;
        highlights += light * specular;
    }
    // The studio look takes a specular colour beyond 1 (exporters write intensity x colour: 25 from
    // one) as 1, so highlights stay highlights; the file's lights alone show it as it is.
    vec3 specular = u_up.w < 0.5 ? specularColor : min(specularColor, vec3(1.0));
    return diffuseResponse(irradiance) * baseColor + highlights * specular;
}

#ifdef METAL_ROUGH
// Cook-Torrance with GGX distribution, Smith-Schlick visibility and Schlick Fresnel; the ambient
// term is the environment through Karis' analytic fit of the split-sum BRDF (mobile-friendly).
// `occlusion` darkens the ambient terms only (glTF: the occlusion map affects indirect light).
// KHR_materials_specular: the dielectric F0 = min(specularColor, 1) * specular and F90 = specular.
vec3 shadeMetalRough(vec3 n, vec3 baseColor, float metallic, float roughness, float occlusion,
                     vec3 specularColor, float specular) {
    vec3 v = NORMALIZE(u_eye - v_worldPosition);
    float nv = max(dot(n, v), 1e-4);
    vec3 f0 = mix(min(specularColor, vec3(1.0)) * specular, baseColor, metallic);
    float f90 = mix(specular, 1.0, metallic);
    vec3 diffuseColor = baseColor * (1.0 - metallic);
    float a = max(roughness * roughness, 0.002);
    float a2 = a * a;
    float k = a * 0.5;
    vec3 color = diffuseResponse(hemisphere(n)) * diffuseColor * occlusion;
    for (int i = 0; i < MAX_LIGHTS; ++i) {
        if (i >= u_lightCount) break;
        vec3 l;
        float attenuation = lightAt(u_lightPosition[i], u_lightAttenuation[i], u_lightRange[i], u_lightSpot[i],
                                    u_lightColor[i].w, l);
        float nl = max(dot(n, l), 0.0);
        if (nl <= 0.0) continue;
        vec3 h = normalize(l + v);
        float nh = max(dot(n, h), 0.0);
        float vh = max(dot(v, h), 0.0);
        float d = a2 / (PI * pow(nh * nh * (a2 - 1.0) + 1.0, 2.0));
        float vis = 1.0 / ((nl * (1.0 - k) + k) * (nv * (1.0 - k) + k));
        vec3 f = f0 + (f90 - f0) * pow(1.0 - vh, 5.0);
        // Light colour scaled so a white light on a white Lambert surface gives white, as in the classic model.
        color += attenuation * u_lightColor[i].rgb * lightFilter(i) * nl * (diffuseColor * (1.0 - f) + PI * 0.25 * d * vis * f);
    }
    const vec4 c0 = vec4(-1.0, -0.0275, -0.572, 0.022);
    const vec4 c1 = vec4(1.0, 0.0425, 1.04, -0.04);
    vec4 r = roughness * c0 + c1;
    float a004 = min(r.x * r.x, exp2(-9.28 * nv)) * r.x + r.y;
    vec2 ab = vec2(-1.04, 1.04) * a004 + r.zw;
    vec3 reflected = reflect(-v, n);
    // Rough surfaces see a blurrier environment: blend toward the hemisphere average.
    vec3 specularEnv = mix(environment(reflected), environment(n), roughness);
    // The environment lights the surface at 0.6 of a unit light, plus the scene's ambient.
    vec3 ambientScale = u_ambient + vec3(0.6);
    color += ambientScale * occlusion * (diffuseColor * environment(n) + specularEnv * (f0 * ab.x + f90 * ab.y));
    return color;
}
#endif

void main() {
    vec3 n = NORMALIZE(v_normal);
#ifdef NORMAL_MAP
    vec3 t = v_tangent.xyz - n * dot(n, v_tangent.xyz);
    if (dot(t, t) > 1e-12) {
        t = normalize(t);
        vec3 b = cross(n, t) * (v_tangent.w < 0.0 ? -1.0 : 1.0);
        vec3 m = SAMPLE_MAP(u_normalMap, MAP_NORMAL).xyz * 2.0 - 1.0;
        m.xy *= u_mapFactors.x;
        n = normalize(t * m.x + b * m.y + n * m.z);
    }
#endif
    if (!FRONT_FACING) n = -n;
    vec4 base = u_diffuse * v_color;
#ifdef TEXTURED
    base *= SAMPLE_MAP(u_diffuseMap, MAP_DIFFUSE);
#endif
#if defined(MATERIAL_MAPS) && !defined(METAL_ROUGH)
    base.a *= SAMPLE_MAP(u_opacityMap, MAP_OPACITY).r;
#endif
#ifdef MODE_OVERDRAW
    // One unit of the count target's red channel a fragment, discarded or not (an alpha-tested
    // fragment is shaded before it is discarded).
    FRAG_COLOR = vec4(1.0 / 255.0, 0.0, 0.0, 1.0);
    return;
#endif
    if (u_surface.w > 0.0 && base.a < u_surface.w) discard;
    vec4 result;
#if defined(MODE_NORMALS)
    result = vec4(n * 0.5 + 0.5, 1.0);
#elif defined(MODE_WEIGHTS)
    // Heat map: blue where the strongest influence is weak (blended), red where one bone owns the vertex.
    float w = clamp(v_weight, 0.0, 1.0);
    result = vec4(clamp(vec3(2.0 * w - 0.5, 1.0 - abs(2.0 * w - 1.0), 1.5 - 2.0 * w), 0.0, 1.0), 1.0);
#elif defined(MODE_UV)
    vec2 cell = floor(fract(v_uv) * 8.0);
    float checker = mod(cell.x + cell.y, 2.0);
    result = vec4(mix(vec3(0.15), vec3(0.9), checker) * vec3(fract(v_uv), 1.0) + vec3(0.05), 1.0);
#elif defined(MODE_BATCHES) || defined(MODE_WIREFRAME)
    result = vec4(shadeClassic(n, u_flatColor.rgb, u_specular) * 0.8 + u_flatColor.rgb * 0.2, 1.0);
#elif defined(MODE_COLORS)
    result = v_color;
#elif defined(MODE_SKINDIFF)
    // The renderer's per-vertex heat colour of |GPU - CPU| skinned position, unlit so it reads exactly.
    result = vec4(v_color.rgb, 1.0);
#elif defined(MODE_MIP)
    // A colour per level sampled: 0 blue, 1 cyan, 2 green, 3 yellow, 4 orange, 5 and smaller red;
    // grey without a map.
    if (u_diffuseSize.x <= 0.0) {
        result = vec4(0.5, 0.5, 0.5, 1.0);
    } else {
        float level = clamp(floor(texelsPerPixelLog2() + 0.5), 0.0, max(u_diffuseSize.z - 1.0, 0.0));
        vec3 levels[6];
        levels[0] = vec3(0.1, 0.2, 1.0);
        levels[1] = vec3(0.0, 0.8, 1.0);
        levels[2] = vec3(0.1, 0.9, 0.1);
        levels[3] = vec3(1.0, 1.0, 0.0);
        levels[4] = vec3(1.0, 0.5, 0.0);
        levels[5] = vec3(1.0, 0.0, 0.0);
        vec3 c = levels[5];
        for (int i = 0; i < 5; ++i)
            if (float(i) == level) c = levels[i];
        result = vec4(c, 1.0);
    }
#elif defined(MODE_TEXEL_DENSITY)
    // Diverging around one texel a pixel: blue at 1/8 or fewer, white at 1, red at 8 or more.
    if (u_diffuseSize.x <= 0.0) {
        result = vec4(0.5, 0.5, 0.5, 1.0);
    } else {
        float t = clamp(texelsPerPixelLog2() / 3.0, -1.0, 1.0);
        result = vec4(t < 0.0 ? mix(vec3(1.0), vec3(0.1, 0.2, 1.0), -t) : mix(vec3(1.0), vec3(1.0, 0.1, 0.1), t), 1.0);
    }
#elif defined(MODE_UNLIT)
    result = base;
#else
    vec3 emissive = u_emissive;
#ifdef MATERIAL_MAPS
    emissive *= SAMPLE_MAP(u_emissiveMap, MAP_EMISSIVE).rgb;
#endif
#ifdef METAL_ROUGH
    float metallic = u_surface.x;
    float roughness = u_surface.y;
    float occlusion = 1.0;
#ifdef MATERIAL_MAPS
    metallic *= SAMPLE_MAP(u_specularMap, MAP_SPECULAR).b;
    roughness *= SAMPLE_MAP(u_opacityMap, MAP_OPACITY).g;
    occlusion += u_mapFactors.y * (SAMPLE_MAP(u_occlusionMap, MAP_OCCLUSION).r - 1.0);
#endif
    vec3 specularColor = u_specular;
    float specular = u_mapFactors.z;
#ifdef SPECULAR_MAPS
    specular *= SAMPLE_MAP(u_specularStrengthMap, MAP_SPECULAR_STRENGTH).a;
    specularColor *= SAMPLE_MAP(u_specularTintMap, MAP_SPECULAR_TINT).rgb;
#endif
    vec3 color = shadeMetalRough(n, base.rgb, clamp(metallic, 0.0, 1.0), clamp(roughness, 0.03, 1.0), occlusion,
                                 specularColor, specular);
#else
    vec3 specularColor = u_specular;
#ifdef MATERIAL_MAPS
    specularColor *= SAMPLE_MAP(u_specularMap, MAP_SPECULAR).rgb;
#endif
    vec3 color = shadeClassic(n, base.rgb, specularColor);
#if REFLECTION_MAP > 0
    color = mix(color, environment(reflect(NORMALIZE(v_worldPosition - u_eye), n)) * base.rgb, u_surface.z);
#endif
#endif
    result = vec4(rollOff(color) + emissive, base.a);
#endif
    FRAG_COLOR = result;
}
