// The strict ES 2.0 device profile (`--gles2-strict`, RendererOptions::gles2Strict): what a
// PowerVR SGX-class ES 2.0 driver gives, held by the renderer and the preparation stage even where
// the context (llvmpipe: ES 3.2, huge limits) grants more. GL-free, so prepare/ and tests read it.
#pragma once

namespace esv {

struct DeviceLimits {
    int vertexUniformVectors;    // GL_MAX_VERTEX_UNIFORM_VECTORS
    int fragmentUniformVectors;  // GL_MAX_FRAGMENT_UNIFORM_VECTORS
    int vertexAttribs;           // GL_MAX_VERTEX_ATTRIBS
    int textureUnits;            // GL_MAX_TEXTURE_IMAGE_UNITS (fragment stage)
    int vertexTextureUnits;      // GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS
    int varyingVectors;          // GL_MAX_VARYING_VECTORS
    int maxTextureSize;          // GL_MAX_TEXTURE_SIZE
};

// The ES 2.0 specification's minimums (table 6.20), except two limits no device ships this low and
// that would leave nothing to test:
// - GL_MAX_TEXTURE_SIZE: the minimum is 64; SGX 530/540 drivers report 2048, the smallest any
//   PowerVR ES2 part ships with, so 2048 (larger textures are downscaled by the preparation stage).
// - GL_MAX_FRAGMENT_UNIFORM_VECTORS: the minimum is 16; SGX 5xx drivers report 64. The shaded
//   program's light rig alone takes 40 vectors (8 lights x 5) and the material 12, so 16 would leave
//   no light at all and no match with the ES3 picture; 64 is what the profile holds, and every
//   linked program is checked against it (a note names any program above it).
constexpr DeviceLimits kStrictLimits{128, 64, 8, 8, 0, 8, 2048};

// The extensions the strict profile sees: none (the strictest useful choice: every optional path
// of the renderer, from vertex array objects to 32-bit indices, takes its ES 2.0 core fallback).
constexpr const char* kStrictExtensions = "";

}  // namespace esv
