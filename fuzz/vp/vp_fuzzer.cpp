// libFuzzer entry point for the VP archive reader. Each input is read as an archive in load and
// check mode; inputs that do not begin with "VPVP" are read a second time behind a header whose
// directory is the whole input, so that mutations reach the entry walk (folders, "..", names,
// offsets) without first having to keep a header consistent. Every file the reader keeps is looked
// up again by its path and read. A finding is a crash, a sanitizer report, a leak, a timeout, an
// allocation over -rss_limit_mb, or a broken invariant below (trap).
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/fuzz_contract.h"
#include "loaders/archive/vp_archive.h"

namespace {

using esv::fuzz::check;

void readArchive(const std::shared_ptr<const std::vector<uint8_t>>& bytes) {
    const int64_t size = static_cast<int64_t>(bytes->size());
    for (bool collectAll : {false, true}) {
        std::vector<esv::Problem> problems;
        std::shared_ptr<const esv::VpArchive> archive =
            esv::VpArchive::fromMemory(bytes, "fuzz.vp", problems, collectAll);
        esv::fuzz::checkResultOrProblems(archive != nullptr, problems, bytes->size());
        // A place in the archive, or in the 16-byte header a short input lacks.
        for (const esv::Problem& p : problems) check(p.offset < std::max<int64_t>(size, 16));
        if (!archive) continue;
        check(archive->problems().size() == problems.size());
        check(archive->archiveSize() == uint64_t(size));
        // Every kept file lies inside the archive and is found again by its path, in any case.
        uint64_t budget = 4 * uint64_t(size) + 4096;  // bytes copied out (shared ranges could repeat)
        for (const esv::VpFile& f : archive->files()) {
            check(f.size > 0 && uint64_t(f.offset) + f.size <= uint64_t(size));
            check(archive->find(f.path) == &f);
            std::string upper = f.path;
            for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            check(archive->find(upper) == &f);
            if (f.size <= budget) {
                budget -= f.size;
                std::string error;
                auto data = archive->read(f, error);
                check(data && data->size() == f.size);
            }
        }
        std::vector<std::string> folders;
        std::vector<const esv::VpFile*> files;
        size_t listed = 0;
        for (const esv::VpFolder& folder : archive->folders()) {
            check(archive->hasFolder(folder.path));
            if (listed++ < 64) archive->list(folder.path, folders, files);
        }
        archive->list("", folders, files);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    readArchive(std::make_shared<const std::vector<uint8_t>>(data, data + size));
    if (size < 4 || std::memcmp(data, "VPVP", 4) != 0) {
        // The input as a directory: header, then the entries (44 bytes each) at offset 16.
        std::vector<uint8_t> file = {'V', 'P', 'V', 'P', 2, 0, 0, 0, 16, 0, 0, 0};
        const uint32_t count = static_cast<uint32_t>(size / 44);
        for (int i = 0; i < 4; ++i) file.push_back(static_cast<uint8_t>(count >> (8 * i)));
        file.insert(file.end(), data, data + size);
        readArchive(std::make_shared<const std::vector<uint8_t>>(std::move(file)));
    }
    return 0;
}
