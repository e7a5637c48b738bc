// Device profiles: what a GPU model's driver reports and what esview makes of it, as data (the
// values are in device_profiles.cpp, each with its source). `render --device NAME`, the viewer's
// `--device`, `esview cost --device NAME` and `check --device NAME --budget FILE` read them;
// `strict-es2` is the profile `--gles2-strict` always was (target/strict_profile.h), `desktop` an
// ES 3.2 desktop-class GPU with the limits llvmpipe and desktop drivers grant.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "target/strict_profile.h"
#include "target/target_caps.h"

namespace esv {

// Frame budgets a device is comfortable with: guidance for `check --budget` and the Cost panel's
// colours, not limits of the hardware.
struct DeviceBudgets {
    uint32_t triangles = 0;     // per frame
    uint32_t draws = 0;         // draw calls per frame
    uint64_t textureBytes = 0;  // resident texture memory
};

struct DeviceProfile {
    std::string name;    // "sgx540": what --device takes (lower case, no spaces)
    std::string title;   // "PowerVR SGX 540"
    std::string family;  // "SGX Series5", "Rogue Series6", ..., "desktop", "profile"
    int esVersion = 20;  // the highest ES version its drivers expose: 20, 30, 31 or 32
    DeviceLimits limits{};
    // Optional features, by the extension or core version that gives them.
    bool pvrtc = false;         // GL_IMG_texture_compression_pvrtc
    bool etc1 = false;          // GL_OES_compressed_ETC1_RGB8_texture
    bool etc2 = false;          // ETC2/EAC (core in ES 3.0)
    bool astc = false;          // GL_KHR_texture_compression_astc_ldr
    bool bc = false;            // S3TC / DXT (GL_EXT_texture_compression_s3tc): desktop parts
    bool uintIndices = false;   // 32-bit indices (ES 3.0 or GL_OES_element_index_uint)
    bool halfFloat = false;     // half-float vertex data (ES 3.0 or GL_OES_vertex_half_float)
    bool vertexArrays = false;  // vertex array objects (ES 3.0 or GL_OES_vertex_array_object)
    bool npotTextures = false;  // full non-power-of-two textures (ES 3.0 or GL_OES_texture_npot)
    // Post-transform vertex cache as a FIFO of this many entries: a model of the hardware (tile-based
    // GPUs reuse transformed vertices within a primitive block, not through a FIFO), the figure the
    // ACMR/ATVR of `esview cost` are computed with.
    uint32_t vertexCache = 16;
    DeviceBudgets budgets;
    // Where each value comes from: "<field>: <source>" lines (a public GPU caps database report, a
    // vendor document, the ES specification's minimum), as the README's table lists them.
    std::vector<std::string> sources;
};

// Every profile, ES 2.0 parts first, then ES 3.x, then `strict-es2` and `desktop`.
const std::vector<DeviceProfile>& deviceProfiles();
// The profile named `name` (any case); null when there is none.
const DeviceProfile* findDevice(const std::string& name);
// "sgx530, sgx540, ...": the names for a usage line or an error.
std::string deviceNameList();

// Bone matrices per draw esview's skinned programs get on the device (its vertex uniform vectors
// less what the programs keep besides the palette, 4 vectors a matrix).
int devicePaletteCapacity(const DeviceProfile& device);
// The target the preparation stage adapts a scene to for the device.
TargetCaps deviceTargetCaps(const DeviceProfile& device);
// Whether the device's driver lists the GL extension `name` ("GL_OES_element_index_uint"), from its
// feature flags; an extension the profile does not model is taken as absent.
bool deviceHasExtension(const DeviceProfile& device, const char* name);

}  // namespace esv
