// Spectral data (OpenGEX Spectrum structures) to colour, with the CIE 1931 tables of the spec.
#pragma once

#include <cstddef>

#include <glm/glm.hpp>

namespace esv::ogex {

// X, Y, Z of a spectrum of `count` samples evenly spaced from minNm to maxNm (inclusive):
// sums of S(lambda) times the colour matching functions times the sample spacing (spec, Spectrum).
glm::vec3 spectrumToXyz(float minNm, float maxNm, const float* values, size_t count);
// The same spectrum as linear sRGB (the spec's XYZ to sRGB matrix).
glm::vec3 spectrumToLinearSrgb(float minNm, float maxNm, const float* values, size_t count);

}  // namespace esv::ogex
