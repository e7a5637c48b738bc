// The overdraw views' resolve: one triangle covering the viewport, the count texture read at each
// pixel. Prepended by the renderer: version line and prelude (ATTRIBUTE/VARYING_OUT).
ATTRIBUTE vec2 a_position;  // clip space: (-1, -1), (3, -1), (-1, 3)
VARYING_OUT vec2 v_uv;

void main() {
    v_uv = a_position * 0.5 + 0.5;
    gl_Position = vec4(a_position, 0.0, 1.0);
}
