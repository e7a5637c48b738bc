#include "app/cli/thumbnail_command.h"

#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "app/cli/render_command.h"
#include "app/viewer/png_file.h"
#include "loaders/archive/vp_archive.h"

namespace esv {
namespace {

// Each thumbnail pixel is the average of factor x factor drawn ones (edges without stair steps at
// the small sizes file managers show), while the drawn picture stays within this many pixels.
constexpr int kSupersample = 2;
constexpr int kMaxDrawnSize = 2048;

// Set by SIGTERM, SIGINT or SIGHUP while the parent waits (a file manager giving up on us): the
// child is killed and the temporary file removed before leaving.
volatile std::sig_atomic_t g_stopRequested = 0;
void requestStop(int signal) {
    g_stopRequested = signal;
}

// What a whole VP archive is drawn as: its first model in directory order. False with one line
// printed when the archive cannot be read or holds no model.
bool firstModelOfArchive(const std::string& path, std::string& model) {
    std::vector<Problem> problems;
    std::shared_ptr<const VpArchive> archive = VpArchive::open(path, problems);
    if (!archive) {
        for (const Problem& p : problems) std::fprintf(stderr, "%s\n", p.format().c_str());
        return false;
    }
    for (const VpFile& file : archive->files())
        if (isModelInArchive(file.path)) {
            model = joinArchivePath(path, file.path);
            return true;
        }
    std::fprintf(stderr, "%s: the VP archive holds no model\n", path.c_str());
    return false;
}

// The child's work: read, draw on black and on white, compose, write `temporary`. Returns an ExitCode.
int drawThumbnail(const ThumbnailRequest& request, const std::string& temporary) {
    RenderRequest render;
    render.file = request.input;
    if (isVpArchiveFile(request.input) && !firstModelOfArchive(request.input, render.file))
        return kExitBadInput;
    const int factor = request.size * kSupersample <= kMaxDrawnSize ? kSupersample : 1;
    render.width = render.height = request.size * factor;
    render.frameClip = false;  // drawn at rest, framed on what is drawn
    render.clearColors = {glm::vec4(0.0f, 0.0f, 0.0f, 1.0f), glm::vec4(1.0f, 1.0f, 1.0f, 1.0f)};
    // Gizmos are the viewer's way to show a file without a mesh; a thumbnail of them would say
    // nothing of the file, so such a file keeps the type's icon (below).
    render.gizmos = false;
    RenderedFrames frames;
    if (renderFrames(render, frames) != kExitOk || frames.rgba.size() != 2) return kExitBadInput;
    const std::vector<uint8_t> rgba = composeThumbnail(frames.rgba[0], frames.rgba[1], request.size, factor);
    // A file that places no mesh (lights, cameras, materials alone) or none in view: no picture,
    // so that a file manager shows the type's icon rather than an empty square.
    bool drawn = false;
    for (size_t i = 3; i < rgba.size() && !drawn; i += 4) drawn = rgba[i] != 0;
    if (!drawn) {
        std::fprintf(stderr, "%s: nothing to draw (the file places no visible mesh)\n",
                     request.input.c_str());
        return kExitBadInput;
    }
    if (!writePng(temporary, request.size, request.size, rgba)) {
        std::fprintf(stderr, "esview thumbnail: cannot write %s\n", temporary.c_str());
        return kExitBadInput;
    }
    return kExitOk;
}

// AddressSanitizer reserves terabytes of address space for its shadow memory: under it the memory
// cap is not set (the time cap still is).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizerBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitizerBuild = true;
#else
constexpr bool kSanitizerBuild = false;
#endif
#else
constexpr bool kSanitizerBuild = false;
#endif

// The child's status when it failed near its memory cap: the parent then says so in one line
// instead of relaying whichever allocation happened to fail. Never the command's own exit code.
constexpr int kChildOutOfMemory = 3;
// Failing with this little address space left under the cap counts as running out of memory (the
// allocation that failed may have been a large one: a library mapped, a texture decoded).
constexpr long kOutOfMemoryMarginKiB = 256 * 1024;

// The peak address space (VmPeak) of process `pid` (this one when 0), in KiB; 0 when unknown.
long peakAddressSpaceKiB(pid_t pid = 0) {
    const std::string path =
        pid == 0 ? std::string("/proc/self/status") : "/proc/" + std::to_string(pid) + "/status";
    FILE* f = std::fopen(path.c_str(), "r");
    if (!f) return 0;
    long kib = 0;
    char line[256];
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "VmPeak: %ld kB", &kib) == 1) break;
    std::fclose(f);
    return kib;
}

// Runs drawThumbnail in this (forked) process under the caps, its messages going to `errorFd`,
// and leaves with its status.
[[noreturn]] void childMain(const ThumbnailRequest& request, const std::string& temporary, int errorFd) {
    // Never outlive the parent (a file manager may kill it without waiting for us).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1) _exit(kExitBadInput);
    // The parent's stop handlers are not this process's: a signal ends it as it would any program.
    for (int signal : {SIGTERM, SIGINT, SIGHUP}) std::signal(signal, SIG_DFL);
    dup2(errorFd, STDERR_FILENO);
    close(errorFd);
    if (!kSanitizerBuild) {
        const rlim_t bytes = rlim_t(request.memoryMiB) << 20;
        const rlimit memory{bytes, bytes};
        setrlimit(RLIMIT_AS, &memory);
    }
    // The parent's wall clock is the cap; CPU time (every thread's, llvmpipe draws on all cores) is
    // a backstop for a child that somehow outlives it.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const rlim_t cpuSeconds = rlim_t(std::ceil(request.timeoutSeconds)) * cores + 1;
    const rlimit cpu{cpuSeconds, cpuSeconds + 1};
    setrlimit(RLIMIT_CPU, &cpu);
    // Address space is what the cap counts: a few malloc arenas and llvmpipe threads instead of one
    // of each per core (a thumbnail is too small to gain from more), so the cap means the same on
    // any machine. LP_NUM_THREADS set by the user wins.
    mallopt(M_ARENA_MAX, 2);
    setenv("LP_NUM_THREADS", std::to_string(std::min(cores, 4u)).c_str(), 0);
    // Drawn on the CPU (Mesa's llvmpipe) whatever the machine has: the same picture and the same
    // address space everywhere, and a hostile file never reaches a GPU driver from a file manager.
    setenv("LIBGL_ALWAYS_SOFTWARE", "1", 0);
    int status = kChildOutOfMemory;
    try {
        status = drawThumbnail(request, temporary);
    } catch (const std::bad_alloc&) {
    }
    if (status != kExitOk && !kSanitizerBuild &&
        peakAddressSpaceKiB() + kOutOfMemoryMarginKiB >= long(request.memoryMiB) * 1024)
        status = kChildOutOfMemory;
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(status);
}

}  // namespace

std::vector<uint8_t> composeThumbnail(const std::vector<uint8_t>& onBlack,
                                      const std::vector<uint8_t>& onWhite, int size, int factor) {
    const size_t drawn = size_t(size) * size_t(factor);
    std::vector<uint8_t> out(size_t(size) * size_t(size) * 4, 0);
    if (onBlack.size() < drawn * drawn * 4 || onWhite.size() < drawn * drawn * 4) return out;
    const float samples = float(factor * factor);
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            // Over black a pixel is its colour times its coverage (premultiplied); what white adds
            // is what the surface let through. Averaged premultiplied, then divided back.
            float color[3] = {0.0f, 0.0f, 0.0f}, alpha = 0.0f;
            for (int sy = 0; sy < factor; ++sy)
                for (int sx = 0; sx < factor; ++sx) {
                    const size_t i = ((size_t(y) * factor + sy) * drawn + size_t(x) * factor + sx) * 4;
                    float through = 0.0f;
                    for (int c = 0; c < 3; ++c) {
                        color[c] += onBlack[i + c];
                        through += float(std::max(0, int(onWhite[i + c]) - int(onBlack[i + c])));
                    }
                    alpha += 1.0f - through / (3.0f * 255.0f);
                }
            const size_t o = (size_t(y) * size + size_t(x)) * 4;
            const float a = alpha / samples;
            if (a <= 0.5f / 255.0f) continue;  // background: transparent black
            for (int c = 0; c < 3; ++c)
                out[o + c] = uint8_t(std::min(255.0f, std::round(color[c] / samples / a)));
            out[o + 3] = uint8_t(std::min(255.0f, std::round(a * 255.0f)));
        }
    return out;
}

int runThumbnail(const ThumbnailRequest& request) {
    // Stopping is handled from before the temporary file exists, so that no signal leaves it behind.
    struct sigaction stop {
    }, previous[3];
    stop.sa_handler = requestStop;
    sigemptyset(&stop.sa_mask);
    const int signals[3] = {SIGTERM, SIGINT, SIGHUP};
    for (int i = 0; i < 3; ++i) sigaction(signals[i], &stop, &previous[i]);

    // The child writes here and the parent renames it, so the output appears whole or not at all.
    std::string temporary = request.output + ".XXXXXX";
    const int fd = mkstemp(temporary.data());
    if (fd < 0) {
        for (int i = 0; i < 3; ++i) sigaction(signals[i], &previous[i], nullptr);
        std::fprintf(stderr, "esview thumbnail: cannot write %s\n", request.output.c_str());
        return kExitBadInput;
    }
    // mkstemp makes the file private; the picture gets what any new file of the user's would.
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);

    // The child's messages come through a pipe: relayed when it fails for a reason of the file,
    // replaced by one line when a cap stopped it.
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0) {
        std::remove(temporary.c_str());
        std::fprintf(stderr, "esview thumbnail: cannot start the process that draws\n");
        return kExitBadInput;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) {
        close(pipeFds[0]);
        close(pipeFds[1]);
        std::remove(temporary.c_str());
        std::fprintf(stderr, "esview thumbnail: cannot start the process that draws\n");
        return kExitBadInput;
    }
    if (pid == 0) {
        close(pipeFds[0]);
        childMain(request, temporary, pipeFds[1]);
    }
    close(pipeFds[1]);

    // Waits for the child, reading what it says (so that it never blocks on a full pipe), until it
    // exits, the time is up or we are asked to stop.
    std::string messages;
    constexpr size_t kMaxMessages = 64 * 1024;
    int status = 0;
    long childPeakKiB = 0;
    bool timedOut = false, exited = false, pipeOpen = true;
    while (!exited) {
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (g_stopRequested || elapsed >= request.timeoutSeconds) {
            timedOut = !g_stopRequested;
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        if (pipeOpen) {
            pollfd readable{pipeFds[0], POLLIN, 0};
            const int waitMs = int(std::clamp((request.timeoutSeconds - elapsed) * 1000.0, 1.0, 20.0));
            if (poll(&readable, 1, waitMs) > 0) {
                char buffer[4096];
                const ssize_t n = read(pipeFds[0], buffer, sizeof buffer);
                if (n > 0 && messages.size() < kMaxMessages) messages.append(buffer, size_t(n));
                if (n == 0) pipeOpen = false;  // the child (or the last of its threads) is gone
            }
        } else {
            usleep(2000);
        }
        // Sampled while it runs: a driver that crashes where an allocation failed leaves no
        // message, and its last peak says whether the cap was the cause.
        childPeakKiB = std::max(childPeakKiB, peakAddressSpaceKiB(pid));
        const pid_t done = waitpid(pid, &status, WNOHANG);
        exited = done == pid || done < 0;
    }
    // What the child wrote just before it exited (without waiting: nothing else holds the pipe).
    fcntl(pipeFds[0], F_SETFL, O_NONBLOCK);
    for (char buffer[4096]; pipeOpen;) {
        const ssize_t n = read(pipeFds[0], buffer, sizeof buffer);
        if (n <= 0) break;
        if (messages.size() < kMaxMessages) messages.append(buffer, size_t(n));
    }
    close(pipeFds[0]);
    for (int i = 0; i < 3; ++i) sigaction(signals[i], &previous[i], nullptr);

    const bool ok = !timedOut && !g_stopRequested && WIFEXITED(status) && WEXITSTATUS(status) == kExitOk;
    if (ok && std::rename(temporary.c_str(), request.output.c_str()) == 0) {
        std::fputs(messages.c_str(), stderr);  // warnings of a file drawn all the same
        std::printf("%s: wrote a %dx%d thumbnail of %s\n", request.output.c_str(), request.size, request.size,
                    request.input.c_str());
        return kExitOk;
    }
    std::remove(temporary.c_str());
    if (ok) {
        std::fprintf(stderr, "esview thumbnail: cannot write %s\n", request.output.c_str());
    } else if (g_stopRequested) {
        std::fprintf(stderr, "esview thumbnail: stopped by signal %d\n", int(g_stopRequested));
    } else if (timedOut || (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)) {
        std::fprintf(stderr, "%s: not drawn within the %g s a thumbnail may take (--timeout)\n",
                     request.input.c_str(), request.timeoutSeconds);
    } else if ((WIFEXITED(status) && WEXITSTATUS(status) == kChildOutOfMemory) ||
               (WIFSIGNALED(status) && !kSanitizerBuild &&
                childPeakKiB + kOutOfMemoryMarginKiB >= long(request.memoryMiB) * 1024)) {
        std::fprintf(stderr, "%s: not drawn within the %d MB of memory a thumbnail may use (--memory)\n",
                     request.input.c_str(), request.memoryMiB);
    } else if (WIFSIGNALED(status)) {
        std::fprintf(stderr, "%s: the process drawing it stopped with signal %d\n", request.input.c_str(),
                     WTERMSIG(status));
    } else {
        std::fputs(messages.c_str(), stderr);
    }
    return kExitBadInput;
}

Subcommand addThumbnailCommand(CLI::App& app) {
    auto request = std::make_shared<ThumbnailRequest>();
    CLI::App* cmd = app.add_subcommand("thumbnail", "Render a framed, lit thumbnail of a model to a PNG");
    cmd->add_option("IN", request->input,
                    "Model file, archive.vp:path/model.pof, or a VP archive (its first model)")
        ->required();
    cmd->add_option("OUT", request->output, "PNG to write (square, transparent background)")->required();
    cmd->add_option("--size", request->size, "Width and height in pixels (default 256)")
        ->check(CLI::Range(16, 4096));
    cmd->add_option("--timeout", request->timeoutSeconds,
                    "Seconds the reading and drawing may take (default 10)")
        ->check(CLI::Range(0.01, 3600.0));
    cmd->add_option("--memory", request->memoryMiB, "Megabytes of address space they may use (default 2048)")
        ->check(CLI::Range(64, 1 << 20));
    return {cmd, [request] { return runThumbnail(*request); }};
}

}  // namespace esv
