#include "app/cli/render_sequence.h"

#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <regex>

#include <CLI/CLI.hpp>

#include "app/viewer/exit_code.h"
#include "app/viewer/png_file.h"

namespace esv {

namespace {

// The conversion of an output pattern: where it starts and ends, and how it prints.
struct Conversion {
    size_t begin = 0, end = 0;
    bool zero = false, left = false, plus = false, space = false;
    int width = 0;
};

// Finds the one integer conversion of `pattern`; returns the problem, empty when there is one.
std::string findConversion(const std::string& pattern, Conversion& out) {
    int conversions = 0;
    for (size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%') continue;
        if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
            ++i;
            continue;
        }
        Conversion c;
        c.begin = i++;
        for (; i < pattern.size() && std::string("0-+ ").find(pattern[i]) != std::string::npos; ++i) {
            c.zero |= pattern[i] == '0';
            c.left |= pattern[i] == '-';
            c.plus |= pattern[i] == '+';
            c.space |= pattern[i] == ' ';
        }
        for (; i < pattern.size() && pattern[i] >= '0' && pattern[i] <= '9'; ++i)
            if ((c.width = c.width * 10 + (pattern[i] - '0')) > 64)
                return "a conversion wider than 64 characters";
        if (i >= pattern.size() || (pattern[i] != 'd' && pattern[i] != 'i' && pattern[i] != 'u'))
            return "'" + pattern.substr(c.begin, i + 1 - c.begin) +
                   "' is not an integer conversion (%d, %02d; a literal % is written %%)";
        c.end = i + 1;
        out = c;
        ++conversions;
    }
    if (conversions != 1)
        return "the output pattern needs exactly one integer conversion such as %02d (it has " +
               std::to_string(conversions) + ")";
    return {};
}

// Every "%%" of `text` as "%".
std::string unescapePercent(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        out += text[i];
        if (text[i] == '%' && i + 1 < text.size() && text[i + 1] == '%') ++i;
    }
    return out;
}

std::string shellQuote(const std::string& text) {
    std::string out = "'";
    for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return out + "'";
}

// Feeds the pictures to ffmpeg as raw RGBA frames at `fps` and has it write `path` as H.264 in MP4,
// the same bytes on every run: one thread, bit-exact flags, no metadata. Returns an ExitCode.
int encodeVideo(const std::string& path, const RenderRequest& request, const RenderedFrames& frames,
                double fps) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.6g", fps > 0.0 ? fps : 30.0);
    const std::string command =
        "ffmpeg -nostdin -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba -s " +
        std::to_string(request.width) + "x" + std::to_string(request.height) + " -framerate " + rate +
        " -i - -vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' -c:v libx264 -preset medium -crf 18 -pix_fmt yuv420p"
        " -threads 1 -x264-params threads=1:lookahead-threads=1 -fflags +bitexact -flags:v +bitexact"
        " -map_metadata -1 " +
        shellQuote(path);
    // An ffmpeg that stops early (it cannot write the file) must fail the write, not end esview.
    void (*const previous)(int) = std::signal(SIGPIPE, SIG_IGN);
    FILE* pipe = popen(command.c_str(), "w");
    if (!pipe) {
        std::signal(SIGPIPE, previous);
        std::fprintf(stderr, "esview: cannot start ffmpeg for %s\n", path.c_str());
        return kExitBadInput;
    }
    bool written = true;
    for (const std::vector<uint8_t>& picture : frames.rgba)
        written = written && std::fwrite(picture.data(), 1, picture.size(), pipe) == picture.size();
    const int status = pclose(pipe);
    std::signal(SIGPIPE, previous);
    if (!written || status != 0) {
        std::fprintf(stderr, "esview: ffmpeg could not encode %s (exit status %d)\n", path.c_str(), status);
        return kExitBadInput;
    }
    std::printf("%s: encoded %zu pictures at %s per second\n", path.c_str(), frames.rgba.size(), rate);
    return kExitOk;
}

}  // namespace

std::string checkFrameRange(const std::string& text) {
    FrameRange range;
    return parseFrameRange(text, range)
               ? std::string()
               : "expected A:B or A:B:STEP, frames 0 <= A <= B and STEP >= 1 (e.g. 0:30:2)";
}

bool parseFrameRange(const std::string& text, FrameRange& range) {
    static const std::regex kRange("([0-9]{1,7}):([0-9]{1,7})(?::([0-9]{1,7}))?");
    std::smatch m;
    if (!std::regex_match(text, m, kRange)) return false;
    range.first = std::atoi(m[1].str().c_str());
    range.last = std::atoi(m[2].str().c_str());
    range.step = m[3].matched ? std::atoi(m[3].str().c_str()) : 1;
    return range.first <= range.last && range.step >= 1;
}

std::string checkOutputPattern(const std::string& pattern) {
    Conversion c;
    return findConversion(pattern, c);
}

std::string patternName(const std::string& pattern, int number) {
    Conversion c;
    if (!findConversion(pattern, c).empty()) return pattern;
    std::string digits = std::to_string(number < 0 ? -static_cast<long long>(number) : number);
    const std::string sign = number < 0 ? "-" : c.plus ? "+" : c.space ? " " : "";
    std::string text = sign + digits;
    if (int(text.size()) < c.width) {
        const size_t pad = size_t(c.width) - text.size();
        if (c.left)
            text += std::string(pad, ' ');
        else if (c.zero)
            text = sign + std::string(pad, '0') + digits;
        else
            text = std::string(pad, ' ') + text;
    }
    return unescapePercent(pattern.substr(0, c.begin)) + text + unescapePercent(pattern.substr(c.end));
}

bool onPath(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string folders = path ? path : "";
    size_t start = 0;
    while (start <= folders.size()) {
        size_t end = folders.find(':', start);
        if (end == std::string::npos) end = folders.size();
        const std::string folder = end > start ? folders.substr(start, end - start) : ".";
        if (::access((folder + "/" + name).c_str(), X_OK) == 0) return true;
        start = end + 1;
    }
    return false;
}

std::vector<RenderShot> sequenceShots(const SequenceRequest& sequence, std::vector<int>& numbers) {
    std::vector<RenderShot> shots;
    numbers.clear();
    if (sequence.turntable > 0) {
        for (int k = 0; k < sequence.turntable; ++k) {
            RenderShot shot;
            shot.yawOffset = float(2.0 * M_PI * double(k) / double(sequence.turntable));
            shots.push_back(shot);
            numbers.push_back(k);
        }
    } else if (sequence.frames) {
        for (int f = sequence.frames->first; f <= sequence.frames->last; f += sequence.frames->step) {
            RenderShot shot;
            shot.frame = double(f);
            shots.push_back(shot);
            numbers.push_back(f);
        }
    }
    return shots;
}

int runRenderSequence(RenderRequest request, const SequenceRequest& sequence) {
    if (!sequence.video.empty() && !onPath("ffmpeg")) {
        std::fprintf(stderr,
                     "esview: --video needs ffmpeg on PATH (Debian package ffmpeg); nothing was written\n");
        return kExitBadInput;
    }
    // A frame range resolves its clip as --frame does (the framing follows that clip).
    if (sequence.frames) request.time.frame = double(sequence.frames->first);
    RenderScene opened;
    if (const int status = openRenderScene(request, opened); status != kExitOk) return status;
    std::vector<int> numbers;
    request.shots = sequenceShots(sequence, numbers);
    RenderedFrames frames;
    const int status = renderOpened(request, opened, frames);
    if (status != kExitOk) return status;
    for (size_t i = 0; i < frames.rgba.size() && i < numbers.size(); ++i) {
        const std::string name = patternName(request.output, numbers[i]);
        if (!writePng(name, request.width, request.height, frames.rgba[i])) {
            std::fprintf(stderr, "esview: cannot write %s\n", name.c_str());
            return kExitBadInput;
        }
    }
    std::printf("%s: wrote %zu pictures %dx%d (%u draw calls, %u triangles in the last)\n",
                request.output.c_str(), frames.rgba.size(), request.width, request.height, frames.drawCalls,
                frames.triangles);
    if (sequence.video.empty()) return kExitOk;
    const float fps = opened.loaded.scene->animation.fps > 0 ? opened.loaded.scene->animation.fps : 30.0f;
    return encodeVideo(sequence.video, request, frames, sequence.frames ? fps / sequence.frames->step : 30.0);
}

void addSequenceOptions(CLI::App* render, SequenceRequest& sequence) {
    CLI::Option* turntable =
        render
            ->add_option(
                "--turntable", sequence.turntable,
                "Write N pictures turned 360/N degrees apart about the first view's centre (-o a pattern: "
                "OUT_%02d.png)")
            ->check(CLI::Range(1, 3600));
    CLI::Option* frames = render
                              ->add_option_function<std::string>(
                                  "--frames",
                                  [&sequence](const std::string& text) {
                                      FrameRange range;
                                      if (parseFrameRange(text, range)) sequence.frames = range;
                                  },
                                  "Write animation frames A to B, every STEP (A:B[:STEP]; -o a pattern: "
                                  "OUT_%04d.png, numbered by "
                                  "frame)")
                              ->check(checkFrameRange);
    render->add_option(
        "--video", sequence.video,
        "With --turntable or --frames: also encode the pictures as an MP4 (H.264) with ffmpeg");
    turntable->excludes(frames);
    for (const char* name : {"--frame", "--time"})
        if (CLI::Option* time = render->get_option_no_throw(name)) frames->excludes(time);
    if (CLI::Option* camera = render->get_option_no_throw("--camera")) turntable->excludes(camera);
}

int runRenderCommand(const RenderRequest& request, const SequenceRequest& sequence) {
    const bool isSequence = sequence.turntable > 0 || sequence.frames;
    if (!isSequence) {
        if (!sequence.video.empty()) {
            std::fprintf(stderr, "esview render: --video needs --turntable or --frames\n");
            return kExitUsage;
        }
        return runRender(request);
    }
    const std::string problem = checkOutputPattern(request.output);
    if (!problem.empty()) {
        std::fprintf(stderr, "esview render: -o %s: %s\n", request.output.c_str(), problem.c_str());
        return kExitUsage;
    }
    return runRenderSequence(request, sequence);
}

}  // namespace esv
