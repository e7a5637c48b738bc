// The overdraw views' heat scale over the fragments shaded per pixel, counted in the red channel
// of u_counts (one unit a fragment): nothing where none was, then 1 dark blue, 2 blue, 3 green, 4
// yellow, 5 orange, 6 and 7 red, 8 or more white (app/viewer/legend.cpp lists the same).
uniform sampler2D u_counts;
VARYING_IN vec2 v_uv;

void main() {
    float n = floor(TEXTURE_2D(u_counts, v_uv).r * 255.0 + 0.5);
    if (n < 0.5) discard;
    vec3 c = vec3(1.0);
    if (n < 1.5) c = vec3(0.05, 0.1, 0.45);
    else if (n < 2.5) c = vec3(0.1, 0.35, 1.0);
    else if (n < 3.5) c = vec3(0.1, 0.85, 0.2);
    else if (n < 4.5) c = vec3(1.0, 0.95, 0.1);
    else if (n < 5.5) c = vec3(1.0, 0.55, 0.0);
    else if (n < 7.5) c = vec3(0.95, 0.1, 0.05);
    FRAG_COLOR = vec4(c, 1.0);
}
