// Overlay lines and points drawn over the scene (skeleton, normal lines). World-space positions
// with a colour each. Prepended by the renderer: version line and prelude (ATTRIBUTE/VARYING_OUT).
ATTRIBUTE vec3 a_position;
ATTRIBUTE vec4 a_color;
uniform mat4 u_viewProjection;
uniform float u_pointSize;
VARYING_OUT vec4 v_color;

void main() {
    v_color = a_color;
    gl_PointSize = u_pointSize;
    gl_Position = u_viewProjection * vec4(a_position, 1.0);
}
