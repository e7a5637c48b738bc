// Overlay colour, flat.
VARYING_IN vec4 v_color;

void main() {
    FRAG_COLOR = v_color;
}
