#include "app/viewer/ui_text.h"

#include "app/viewer/transport.h"

#include <cmath>
#include <cstdio>

namespace esv {

std::string textureDisplayName(const std::string& path) {
    std::string p = path;
    if (p.compare(0, 7, "file://") == 0) p.erase(0, 7);
    // Percent escapes of URLs (`%20`); a stray `%` stays as it is.
    std::string decoded;
    decoded.reserve(p.size());
    auto hex = [](char c) {
        return c >= '0' && c <= '9'   ? c - '0'
               : c >= 'a' && c <= 'f' ? c - 'a' + 10
               : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                      : -1;
    };
    for (size_t i = 0; i < p.size(); ++i) {
        if (p[i] == '%' && i + 2 < p.size() && hex(p[i + 1]) >= 0 && hex(p[i + 2]) >= 0) {
            decoded += char(hex(p[i + 1]) * 16 + hex(p[i + 2]));
            i += 2;
        } else {
            decoded += p[i];
        }
    }
    // Trailing separators name a folder: keep its name.
    size_t end = decoded.find_last_not_of("/\\");
    if (end == std::string::npos) return std::string();
    decoded.erase(end + 1);
    const size_t slash = decoded.find_last_of("/\\");
    return slash == std::string::npos ? decoded : decoded.substr(slash + 1);
}

std::string frameText(float frame, float frameCount) {
    char text[64];
    // The frame shown: the whole frame the time has reached (a time a hair before a frame, from
    // rounding, counts as that frame); no "-0".
    std::snprintf(text, sizeof text, "frame %d", wholeFrame(frame));
    std::string out = text;
    if (frameCount > 0.0f) {
        std::snprintf(text, sizeof text, " / %.0f", double(std::round(frameCount)));
        out += text;
    }
    return out;
}

std::vector<float> thinTicks(const std::vector<float>& keys, float duration, float width, float minSpacing) {
    std::vector<float> kept;
    if (keys.empty() || !(duration > 0.0f) || !(width > 0.0f)) return kept;
    const float pixelsPerSecond = width / duration;
    for (float key : keys)
        // A thousandth of a pixel of slack: keys on a frame grid land exactly minSpacing apart.
        if (kept.empty() || (key - kept.back()) * pixelsPerSecond >= minSpacing - 1e-3f) kept.push_back(key);
    return kept;
}

bool ticksReadable(const std::vector<float>& keys, float duration, float width, float minSpacing) {
    if (!(duration > 0.0f) || !(width > 0.0f)) return keys.size() <= 1;
    const float pixelsPerSecond = width / duration;
    for (size_t i = 1; i < keys.size(); ++i)
        if ((keys[i] - keys[i - 1]) * pixelsPerSecond < minSpacing - 1e-3f) return false;
    return true;
}

std::string fitText(std::string_view text, float width, const std::function<float(std::string_view)>& measure,
                    std::string_view ellipsis) {
    if (measure(text) <= width) return std::string(text);
    // Where a prefix may end: before each code point's lead byte (continuation bytes are 10xxxxxx).
    std::vector<size_t> cuts;
    for (size_t i = 1; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) cuts.push_back(i);
    std::string best(ellipsis);
    std::string candidate;
    // The longest prefix whose cut text fits: the widths grow with the cut, so bisect.
    size_t lo = 0, hi = cuts.size();  // cuts[0, lo) fit, cuts[hi, size) do not
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        std::string_view prefix = text.substr(0, cuts[mid]);
        while (!prefix.empty() && prefix.back() == ' ') prefix.remove_suffix(1);
        candidate.assign(prefix);
        candidate += ellipsis;
        if (measure(candidate) <= width) {
            if (!prefix.empty()) best = candidate;
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return best;
}

}  // namespace esv
