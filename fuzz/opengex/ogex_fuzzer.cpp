// libFuzzer entry point: any bytes through the OpenDDL parser directly (with its tree checked for
// consistency) and through loadSceneMemory as an OpenGEX file, in load and check mode.
// A finding is a crash, a sanitizer report, a leak, a timeout, an allocation over -rss_limit_mb,
// or a broken invariant below (trap).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "fuzz/fuzz_contract.h"
#include "loaders/load.h"
#include "loaders/opengex/openddl/openddl.h"

namespace {

using esv::fuzz::check;

// Every structure lies inside the text, its data is whole elements and subarrays, and every
// reference either resolves to a structure of this document or to nothing.
void checkDocument(const esv::ddl::Document& doc, size_t size) {
    using namespace esv::ddl;
    std::vector<const Structure*> stack(doc.roots().begin(), doc.roots().end());
    size_t visited = 0;
    while (!stack.empty()) {
        const Structure* s = stack.back();
        stack.pop_back();
        ++visited;
        check(s->offset < s->endOffset && s->endOffset <= size);
        check(!s->identifier.empty());
        if (s->hasName && s->name.global) check(doc.findGlobal(s->name.identifier) == s);
        int line = 0, column = 0;
        doc.locate(s->offset, line, column);
        check(line >= 1 && column >= 1);
        for (const Property& p : s->properties) {
            check(p.offset >= s->offset && p.offset < s->endOffset);
            const Reference* ref = nullptr;
            if (p.value.asRef(ref)) {
                const Structure* target = doc.resolve(*ref, s);
                check(!target || target->offset < size);
            }
        }
        if (s->primitive) {
            const PrimitiveData& d = s->data;
            check(s->children.empty() && s->properties.empty());
            size_t es = elementSize(d.type);
            if (es) check(d.bytes.size() % es == 0);
            size_t n = d.elementCount();
            if (d.arraySize) check(n % d.arraySize == 0);
            for (const auto& state : d.states) check(state.first < d.subarrayCount());
            if (d.type == DataType::Bool)
                for (uint8_t b : d.bytes) check(b <= 1);
            for (const Reference& r : d.refs) {
                const Structure* target = doc.resolve(r, s);
                check(!target || target->offset < size);
                check(!r.toString().empty());
            }
        }
        for (const Structure* c : s->children) {
            check(c->parent == s && c->offset > s->offset && c->endOffset < s->endOffset);
            stack.push_back(c);
        }
    }
    check(visited == doc.structureCount());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(data, data + size);

    esv::ddl::Document doc;
    esv::ddl::ParseError error;
    const bool parsed = doc.parse(bytes, error);
    if (parsed) {
        checkDocument(doc, size);
    } else {
        check(error.offset <= size && error.line >= 1 && error.column >= 1 && !error.message.empty());
        check(doc.roots().empty());
    }

    // The same text with its numeric arrays converted on a second thread, read element by element
    // without the block scanner, with the scanner's baseline vector build (SSE2) and with its plain
    // C++ build: the same document or the same first error.
    for (int variant = 0; variant < 4; ++variant) {
        esv::ddl::ThreadWorker thread;  // lent to the parse for the second-thread variant
        esv::ddl::ParseOptions otherOptions;
        if (variant == 0) {
            otherOptions.parallelBytes = 0;
            otherOptions.deferBytes = 8;
            otherOptions.worker = &thread;
        } else {
            otherOptions.parallelBytes = SIZE_MAX;
            otherOptions.blockScan = variant >= 2;
            otherOptions.blockScanAvx2 = false;
            otherOptions.blockScanVector = variant == 2;
        }
        esv::ddl::Document other;
        esv::ddl::ParseError otherError;
        const bool ok = other.parse(bytes, otherError, otherOptions);
        check(ok == parsed);
        if (ok) {
            check(other.structureCount() == doc.structureCount());
            std::vector<const esv::ddl::Structure*> a(doc.roots().begin(), doc.roots().end());
            std::vector<const esv::ddl::Structure*> b(other.roots().begin(), other.roots().end());
            check(a.size() == b.size());
            while (!a.empty()) {
                const esv::ddl::Structure* x = a.back();
                const esv::ddl::Structure* y = b.back();
                a.pop_back();
                b.pop_back();
                check(x->offset == y->offset && x->endOffset == y->endOffset && x->children.size() == y->children.size());
                check(x->data.bytes == y->data.bytes && x->data.states == y->data.states);
                a.insert(a.end(), x->children.begin(), x->children.end());
                b.insert(b.end(), y->children.begin(), y->children.end());
            }
        } else {
            check(otherError.offset == error.offset && otherError.message == error.message);
        }
    }

    esv::fuzz::loadInBothModes(bytes, "fuzz.ogex", [](const esv::LoadResult& r) {
        if (r.scene) esv::fuzz::touchViews(*r.scene);
    });
    return 0;
}
