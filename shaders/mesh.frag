// Mesh fragment stage: Blinn-Phong with up to MAX_LIGHTS lights, plus the debug view modes.
// Defines: MODE_SHADED, MODE_UNLIT, MODE_COLORS, MODE_NORMALS, MODE_WEIGHTS, MODE_BATCHES, MODE_UV, MODE_WIREFRAME.
#define MAX_LIGHTS 4

VARYING_IN vec3 v_worldPosition;
VARYING_IN vec3 v_normal;
VARYING_IN vec4 v_color;
VARYING_IN vec2 v_uv;
VARYING_IN float v_weight;

uniform vec3 u_ambient;         // material ambient * scene ambient
uniform vec4 u_diffuse;         // rgb + opacity
uniform vec3 u_specular;
uniform vec3 u_emissive;
uniform float u_shininess;
uniform vec3 u_eye;
uniform int u_lightCount;
uniform vec4 u_lightPosition[MAX_LIGHTS];   // w = 0: direction the light travels; w = 1: position
uniform vec3 u_lightColor[MAX_LIGHTS];
uniform vec3 u_lightAttenuation[MAX_LIGHTS]; // constant, linear, quadratic
uniform vec4 u_lightSpot[MAX_LIGHTS];       // spot direction, cos(outer cone); cos = -2 for no cone
uniform float u_lightSpotExponent[MAX_LIGHTS];  // POD falloff exponent: cos(angle)^e inside the cone
uniform vec4 u_flatColor;                   // batches and wireframe modes

vec3 shade(vec3 n, vec3 baseColor) {
    vec3 color = u_ambient * baseColor + u_emissive;
    vec3 viewDir = normalize(u_eye - v_worldPosition);
    for (int i = 0; i < MAX_LIGHTS; ++i) {
        if (i >= u_lightCount) break;
        vec3 toLight;
        float attenuation = 1.0;
        if (u_lightPosition[i].w == 0.0) {
            toLight = -normalize(u_lightPosition[i].xyz);
        } else {
            vec3 d = u_lightPosition[i].xyz - v_worldPosition;
            float dist = length(d);
            toLight = d / max(dist, 1e-6);
            vec3 a = u_lightAttenuation[i];
            attenuation = 1.0 / max(a.x + a.y * dist + a.z * dist * dist, 1e-6);
            if (u_lightSpot[i].w > -1.5) {
                float c = dot(-toLight, normalize(u_lightSpot[i].xyz));
                attenuation *= smoothstep(u_lightSpot[i].w, mix(u_lightSpot[i].w, 1.0, 0.2), c);
                if (u_lightSpotExponent[i] > 0.0) attenuation *= pow(max(c, 0.0), u_lightSpotExponent[i]);
            }
        }
        float diffuse = max(dot(n, toLight), 0.0);
        vec3 halfway = normalize(toLight + viewDir);
        float specular = diffuse > 0.0 && u_shininess > 0.0 ? pow(max(dot(n, halfway), 0.0), u_shininess) : 0.0;
        color += attenuation * u_lightColor[i] * (diffuse * baseColor + specular * u_specular);
    }
    return color;
}

void main() {
    vec3 n = normalize(v_normal);
    if (!FRONT_FACING) n = -n;
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
    result = vec4(shade(n, u_flatColor.rgb) * 0.8 + u_flatColor.rgb * 0.2, 1.0);
#elif defined(MODE_COLORS)
    result = v_color;
#elif defined(MODE_UNLIT)
    result = vec4(u_diffuse.rgb * v_color.rgb, u_diffuse.a * v_color.a);
#else
    vec3 base = u_diffuse.rgb * v_color.rgb;
    result = vec4(shade(n, base), u_diffuse.a * v_color.a);
#endif
    FRAG_COLOR = result;
}
