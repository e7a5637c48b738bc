// CIE 1931 colour matching functions from the OpenGEX 3.0 specification (Tables 2.4 to 2.6),
// and the conversion of a Spectrum structure to linear sRGB.
#include "loaders/opengex/opengex_spectrum.h"

#include <cmath>

namespace esv::ogex {
namespace {

// 360 nm to 830 nm in steps of 5 nm.
constexpr int kFirst = 360, kStep = 5, kCount = 95;
constexpr float kXBar[kCount] = {
    0.0001299f, 0.0002321f, 0.0004149f, 0.0007416f, 0.001368f, 0.002236f, 0.004243f, 0.00765f,
    0.01431f, 0.02319f, 0.04351f, 0.07763f, 0.13438f, 0.21477f, 0.2839f, 0.3285f,
    0.34828f, 0.34806f, 0.3362f, 0.3187f, 0.2908f, 0.2511f, 0.19536f, 0.1421f,
    0.09564f, 0.05795f, 0.03201f, 0.0147f, 0.0049f, 0.0024f, 0.0093f, 0.0291f,
    0.06327f, 0.1096f, 0.1655f, 0.22575f, 0.2904f, 0.3597f, 0.43345f, 0.51205f,
    0.5945f, 0.6784f, 0.7621f, 0.8425f, 0.9163f, 0.9786f, 1.0263f, 1.0567f,
    1.0622f, 1.0456f, 1.0026f, 0.9384f, 0.85445f, 0.7514f, 0.6424f, 0.5419f,
    0.4479f, 0.3608f, 0.2835f, 0.2187f, 0.1649f, 0.1212f, 0.0874f, 0.0636f,
    0.04677f, 0.0329f, 0.0227f, 0.01584f, 0.01135916f, 0.008110916f, 0.005790346f, 0.004109457f,
    0.002899327f, 0.00204919f, 0.001439971f, 0.0009999493f, 0.0006900786f, 0.0004760213f, 0.0003323011f, 0.0002348261f,
    0.0001661505f, 0.000117413f, 0.00008307527f, 0.00005870652f, 0.00004150994f, 0.00002935326f, 0.00002067383f, 0.00001455977f,
    0.00001025398f, 0.000007221456f, 0.000005085868f, 0.000003581652f, 0.000002522525f, 0.000001776509f, 0.000001251141f,
};
constexpr float kYBar[kCount] = {
    0.000003917f, 0.000006965f, 0.00001239f, 0.00002202f, 0.000039f, 0.000064f, 0.000120f, 0.000217f,
    0.000396f, 0.00064f, 0.00121f, 0.00218f, 0.004f, 0.0073f, 0.0116f, 0.01684f,
    0.023f, 0.0298f, 0.038f, 0.048f, 0.06f, 0.0739f, 0.09098f, 0.1126f,
    0.13902f, 0.1693f, 0.20802f, 0.2586f, 0.323f, 0.4073f, 0.503f, 0.6082f,
    0.71f, 0.7932f, 0.862f, 0.91485f, 0.954f, 0.9803f, 0.99495f, 1.0f,
    0.995f, 0.9786f, 0.952f, 0.9154f, 0.87f, 0.8163f, 0.757f, 0.6949f,
    0.631f, 0.5668f, 0.503f, 0.4412f, 0.381f, 0.321f, 0.265f, 0.217f,
    0.175f, 0.1382f, 0.107f, 0.0816f, 0.061f, 0.04458f, 0.032f, 0.0232f,
    0.017f, 0.01192f, 0.00821f, 0.005723f, 0.004102f, 0.002929f, 0.002091f, 0.001484f,
    0.001047f, 0.00074f, 0.00052f, 0.0003611f, 0.0002492f, 0.0001719f, 0.00012f, 0.0000848f,
    0.00006f, 0.0000424f, 0.00003f, 0.0000212f, 0.000015f, 0.0000106f, 0.0000074657f, 0.0000052578f,
    0.0000037029f, 0.0000026078f, 0.0000018366f, 0.0000012934f, 0.00000091093f, 0.00000064153f, 0.00000045181f,
};
constexpr float kZBar[kCount] = {
    0.0006061f, 0.001086f, 0.001946f, 0.003486f, 0.00645f, 0.01055f, 0.02005f, 0.03621f,
    0.06785f, 0.1102f, 0.2074f, 0.3713f, 0.6456f, 1.03905f, 1.3856f, 1.62296f,
    1.74706f, 1.7826f, 1.77211f, 1.7441f, 1.6692f, 1.5281f, 1.28764f, 1.0419f,
    0.81295f, 0.6162f, 0.46518f, 0.3533f, 0.272f, 0.2123f, 0.1582f, 0.1117f,
    0.07825f, 0.05725f, 0.04216f, 0.02984f, 0.0203f, 0.0134f, 0.00875f, 0.00575f,
    0.0039f, 0.00275f, 0.0021f, 0.0018f, 0.00165f, 0.0014f, 0.0011f, 0.001f,
    0.0008f, 0.0006f, 0.00034f, 0.00024f, 0.00019f, 0.0001f, 0.00005f, 0.00003f,
    0.00002f, 0.00001f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
    0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
    0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
    0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
    0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
};

// Linear interpolation between the tabulated wavelengths; zero outside 360..830 nm.
float sample(const float* table, float lambda) {
    const float at = (lambda - float(kFirst)) / float(kStep);
    if (!(at >= 0.0f) || at > float(kCount - 1)) return 0.0f;
    const int i = static_cast<int>(at);
    if (i >= kCount - 1) return table[kCount - 1];
    const float f = at - float(i);
    return table[i] + (table[i + 1] - table[i]) * f;
}

}  // namespace

glm::vec3 spectrumToXyz(float minNm, float maxNm, const float* values, size_t count) {
    glm::vec3 xyz(0.0f);
    if (count < 2 || !(maxNm > minNm)) return xyz;
    const float step = (maxNm - minNm) / float(count - 1);
    for (size_t i = 0; i < count; ++i) {
        const float lambda = minNm + step * float(i);
        xyz += values[i] * step * glm::vec3(sample(kXBar, lambda), sample(kYBar, lambda), sample(kZBar, lambda));
    }
    return xyz;
}

glm::vec3 spectrumToLinearSrgb(float minNm, float maxNm, const float* values, size_t count) {
    const glm::vec3 xyz = spectrumToXyz(minNm, maxNm, values, count);
    // The spec's XYZ -> sRGB matrix (rows written as glm columns transposed).
    const glm::mat3 toRgb = glm::transpose(glm::mat3(3.240970f, -1.537383f, -0.498611f,  //
                                                     -0.969244f, 1.875968f, 0.041555f,   //
                                                     0.055630f, -0.203977f, 1.056972f));
    return toRgb * xyz;
}

}  // namespace esv::ogex
