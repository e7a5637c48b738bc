#include "loaders/load.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <sstream>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>


namespace esv {

std::string Problem::format() const {
    std::ostringstream out;
    out << file << ": ";
    if (offset >= 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "offset 0x%llX: ", static_cast<unsigned long long>(offset));
        out << buf;
    } else if (line > 0) {
        out << "line " << line;
        if (column > 0) out << ", column " << column;
        out << ": ";
    }
    if (!where.empty()) out << where << ": ";
    out << message;
    return out.str();
}

namespace {

// A container's member (`file.vp:inner`, the container table of format_table.h) read through its
// row: the one way any caller reads a file inside one.
ContainerRead readMember(const ContainerPath& where, const std::string& path) {
    ContainerRead read = where.container->readMember(where.file, where.inner);
    for (Problem& p : read.problems)
        if (p.file.empty()) p.file = path;
    return read;
}

}  // namespace

namespace {

constexpr size_t kReadStep = size_t(4) << 20;  // progress is reported every 4 MiB

// A read-only private mapping of a whole regular file, unmapped when the last owner goes.
struct MappedFile {
    const uint8_t* data = nullptr;
    size_t size = 0;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    MappedFile(const uint8_t* d, size_t n) : data(d), size(n) {}
    ~MappedFile() {
        if (data) munmap(const_cast<uint8_t*>(data), size);
    }
};

// A private mapping of the regular file open as `fd` (`size` bytes, not 0); null where the OS
// refuses (the caller reads the file instead). Without `progress` the pages are populated up front,
// in one call; with it they are read in steps of kReadStep, each reported. A text format whose
// scene keeps nothing of the text (OpenGEX) parses the mapping directly and so skips the copy into
// a buffer and the zero-filled pages a buffer costs.
std::shared_ptr<const MappedFile> mapOpenFile(int fd, size_t size, bool populate) {
    void* at = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
    if (at == MAP_FAILED) return nullptr;
    try {
        return std::make_shared<const MappedFile>(static_cast<const uint8_t*>(at), size);
    } catch (const std::bad_alloc&) {
        munmap(at, size);
        return nullptr;
    }
}

// Reads the mapping's pages in steps, reporting each (the parse then finds them in memory).
void readPages(const MappedFile& mapped, const ReadProgress& progress) {
    const long page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
    volatile uint8_t sink = 0;
    for (size_t done = 0; done < mapped.size;) {
        const size_t step = std::min(kReadStep, mapped.size - done);
        madvise(const_cast<uint8_t*>(mapped.data + done - done % size_t(page)), step + done % size_t(page),
                MADV_WILLNEED);
        for (size_t at = done; at < done + step; at += size_t(page)) sink = sink + mapped.data[at];
        done += step;
        progress(float(double(done) / double(mapped.size)));
    }
}

// Reads `size` bytes of the regular file open as `fd` into `out`, in steps of kReadStep, each
// reported. False with `error` set when it cannot.
bool readInSteps(int fd, uint8_t* out, size_t size, const ReadProgress& progress, std::string& error) {
    for (size_t done = 0; done < size;) {
        const size_t end = done + std::min(kReadStep, size - done);
        while (done < end) {
            const ssize_t got = ::read(fd, out + done, end - done);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {
                error = got < 0 ? std::strerror(errno) : "short read";
                return false;
            }
            done += size_t(got);
        }
        if (progress) progress(float(double(done) / double(size)));
    }
    if (size == 0 && progress) progress(1.0f);
    return true;
}

// The whole of the regular file open as `fd` (`size` bytes), read into a buffer the scene can own.
// A read straight into the buffer costs less than a mapping copied into it: the mapping's page
// tables are made and torn down for nothing (bench_gltf). Null and `error` set when it cannot be read.
std::shared_ptr<const std::vector<uint8_t>> readOpenFile(int fd, size_t size, const ReadProgress& progress,
                                                        std::string& error) {
    std::shared_ptr<std::vector<uint8_t>> bytes;
    try {
        bytes = std::make_shared<std::vector<uint8_t>>(size);
    } catch (const std::exception&) {  // bad_alloc, or length_error past the vector's max_size
        error = "the file is too large to load";
        return nullptr;
    }
    if (!readInSteps(fd, bytes->data(), size, progress, error)) return nullptr;
    return bytes;
}

// The same into a buffer that is not zero-filled before the read (format_table.h's loadRead).
std::shared_ptr<const uint8_t> readOpenFileRaw(int fd, size_t size, const ReadProgress& progress, std::string& error) {
    std::shared_ptr<uint8_t> bytes;
    try {
        bytes = std::shared_ptr<uint8_t>(new uint8_t[std::max<size_t>(size, 1)], std::default_delete<uint8_t[]>());
    } catch (const std::exception&) {
        error = "the file is too large to load";
        return nullptr;
    }
    if (!readInSteps(fd, bytes.get(), size, progress, error)) return nullptr;
    return bytes;
}

// An open regular file: its descriptor (closed with it) and size; fd < 0 when `path` could not be
// opened or is not a regular file, with `error` saying why.
struct OpenFile {
    int fd = -1;
    size_t size = 0;
    OpenFile(const OpenFile&) = delete;
    OpenFile& operator=(const OpenFile&) = delete;
    explicit OpenFile(const std::string& path, std::string& error) {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            error = std::strerror(errno);
            return;
        }
        struct stat info {};
        if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
            error = S_ISDIR(info.st_mode) ? "it is a directory" : "not a regular file";
            ::close(fd);
            fd = -1;
            return;
        }
        size = static_cast<size_t>(info.st_size);
    }
    ~OpenFile() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

std::shared_ptr<const std::vector<uint8_t>> readWholeFile(const std::string& path, std::string& error,
                                                          const ReadProgress& progress) {
    ContainerPath inside;
    if (splitContainerPath(path, inside)) {
        ContainerRead read = readMember(inside, path);
        if (!read.bytes) {
            const Problem& p = read.problems.front();
            error = p.file == path ? p.message : p.format();
        }
        if (read.bytes && progress) progress(1.0f);
        return read.bytes;
    }
    OpenFile file(path, error);
    if (file.fd < 0) return nullptr;
    return readOpenFile(file.fd, file.size, progress, error);
}

namespace {

// What every successful load goes through: the source path is recorded and the scene validated.
void finishLoad(LoadResult& result, const std::string& path) {
    if (!result.scene) return;
    result.scene->sourcePath = path;
    std::vector<Problem> invalid;
    validateScene(*result.scene, path, invalid);
    if (!invalid.empty()) {
        result.scene.reset();
        result.problems.insert(result.problems.end(), invalid.begin(), invalid.end());
    }
}

}  // namespace

LoadResult loadSceneMemory(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                           const LoadOptions& options) {
    LoadResult result;
    const FormatInfo* format = findFormat(detectFormat(bytes->data(), bytes->size(), path));
    if (!format) {
        Problem p{path, bytes->empty() ? -1 : 0, 0, 0, "", "the file is empty"};
        if (!bytes->empty()) p.message = "unknown file format (expected " + formatNameList(" or ") + ")";
        if (const ContainerInfo* c = containerForMagic(bytes->data(), bytes->size())) {
            p.message = "a " + c->mime.comment + ", not a model: name a model inside it as " + path + ":PATH";
            const std::string models = c->describeModels ? c->describeModels(bytes, path) : std::string();
            if (!models.empty()) p.message += " (" + models + ")";
        }
        result.problems.push_back(std::move(p));
        return result;
    }
    result = format->load(bytes, path, options);
    finishLoad(result, path);
    return result;
}

namespace {

// A container's member loaded as if it were on disk under `path`. Problems of the container that
// did not stop the read become one warning, so that a load says the container needs a look.
LoadResult loadFromContainer(const ContainerPath& where, const std::string& path, const LoadOptions& options) {
    ContainerRead read = readMember(where, path);
    if (!read.bytes) {
        LoadResult result;
        result.problems = std::move(read.problems);
        return result;
    }
    LoadResult result = loadSceneMemory(std::move(read.bytes), path, options);
    if (result.scene && !read.warning.empty()) result.scene->warn(read.warning);
    return result;
}

}  // namespace

LoadResult loadSceneFile(const std::string& path, const LoadOptions& options, const ReadProgress& progress) {
    ContainerPath inside;
    // A bare container file: a problem that names the models inside it.
    if (!splitContainerPath(path, inside)) inside = {containerFile(path), path, ""};
    if (inside.container) {
        LoadResult result = loadFromContainer(inside, path, options);
        if (progress) progress(1.0f);
        return result;
    }
    std::string error;
    OpenFile file(path, error);
    if (file.fd < 0) {
        LoadResult result;
        result.problems.push_back({path, -1, 0, 0, "", "cannot read the file: " + error});
        return result;
    }
    // The format from the file's first bytes (what detectFormat looks at: a magic, or the first
    // character after up to 4 KiB of white space).
    uint8_t head[8192];
    const ssize_t headSize = file.size > 0 ? ::pread(file.fd, head, std::min(sizeof head, file.size), 0) : 0;
    const FormatInfo* format = headSize > 0 ? findFormat(detectFormat(head, size_t(headSize), path)) : nullptr;
    auto mapped = format && format->loadView ? mapOpenFile(file.fd, file.size, !progress) : nullptr;
    if (mapped) {
        if (progress) readPages(*mapped, progress);
        const uint8_t* data = mapped->data;
        const size_t size = mapped->size;
        // The parsed tree and the mapping are freed on a second thread while this one
        // validates the scene (for a large file, each takes a millisecond or more).
        std::shared_ptr<void> parsed;
        LoadResult result = format->loadView(std::shared_ptr<const void>(std::move(mapped)), data, size,
                                             path, options, &parsed);
        std::thread release;
        try {
            if (size >= (size_t(1) << 20)) release = std::thread([document = std::move(parsed)]() mutable { document.reset(); });
        } catch (const std::system_error&) {
        }
        parsed.reset();
        finishLoad(result, path);
        if (release.joinable()) release.join();
        return result;
    }
    // The other formats keep views into the bytes: read them into a buffer the scene can own.
    if (format && format->loadRead && file.size > 0) {
        std::shared_ptr<const uint8_t> raw = readOpenFileRaw(file.fd, file.size, progress, error);
        if (raw) {
            const uint8_t* data = raw.get();
            LoadResult result = format->loadRead(std::move(raw), data, file.size, path, options, nullptr);
            finishLoad(result, path);
            return result;
        }
    }
    auto bytes = error.empty() ? readOpenFile(file.fd, file.size, progress, error) : nullptr;
    if (!bytes) {
        LoadResult result;
        result.problems.push_back({path, -1, 0, 0, "", "cannot read the file: " + error});
        return result;
    }
    return loadSceneMemory(std::move(bytes), path, options);
}

}  // namespace esv
