// OpenDDL parser: the second thread. Long numeric arrays of a large text are converted on a
// thread the caller lends (ParseOptions::worker) while the parse reads on; should anything fail
// there, Document::parse reads the text again on one thread, so that documents and errors are
// exactly those of a one-thread parse. The parser starts no thread of its own; ThreadWorker is a
// worker with a thread for its owner to hand in.
#include "loaders/opengex/openddl/openddl_internal.h"

#include <string>
#include <system_error>

namespace esv::ddl {

// ---------------------------------------------------------------------------------------------
// ThreadWorker

ThreadWorker::~ThreadWorker() {
    if (m_thread.joinable()) m_thread.join();
}

bool ThreadWorker::run(std::function<void()> job) {
    // The previous job returned before its parse did (or returns at once): this joins promptly.
    if (m_thread.joinable()) m_thread.join();
    try {
        m_thread = std::thread(std::move(job));
    } catch (const std::system_error&) {
        return false;  // no thread to be had: the parse converts everything on its own thread
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// ConversionPool

ConversionPool::ConversionPool(Document& doc, const char* begin, const char* end, const ParseOptions& options)
    : m_doc(doc), m_begin(begin), m_end(end), m_options(options), m_parseThread(std::this_thread::get_id()) {}

void ConversionPool::push(const DeferredData& job) {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_queue.push_back(job);
        ++m_pushed;
    }
    if (!m_lent) {
        try {
            m_lent = m_options.worker->run([pool = shared_from_this()] { pool->work(); });
        } catch (const std::system_error&) {
            // Refused: asked again at the next array; finish() converts what is left meanwhile.
        }
    }
    m_wake.notify_one();
}

bool ConversionPool::finish() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_closed = true;
    }
    m_wake.notify_all();
    drain();
    waitForWorker();
    if (m_exception) std::rethrow_exception(m_exception);
    return !m_failed;
}

void ConversionPool::abandon() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_finished) return;
        m_closed = true;
        m_failed = true;  // unfinished: whatever is left is not converted
        m_queue.clear();
    }
    m_wake.notify_all();
    waitForWorker();
}

void ConversionPool::waitForWorker() {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_wake.wait(lock, [this] { return !m_working; });
    m_finished = true;
}

bool ConversionPool::take(DeferredData& job, bool wait) {
    std::unique_lock<std::mutex> lock(m_mutex);
    if (wait) m_wake.wait(lock, [this] { return m_closed || !m_queue.empty(); });
    if (m_queue.empty()) return false;
    job = m_queue.front();
    m_queue.pop_front();
    return true;
}

void ConversionPool::run(const DeferredData& job, bool worker) {
    bool ok = false;
    try {
        Parser parser(m_doc, m_begin, m_end, m_options);
        ok = parser.convert(job);
        m_blockScanned += parser.blockScanned();
        if (ok) {
            ++m_converted;
            if (worker) ++m_convertedOnWorker;
        }
    } catch (...) {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_exception) m_exception = std::current_exception();
    }
    if (!ok) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_failed = true;
    }
}

void ConversionPool::work() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        // Begun after the parse was done with the pool (the document may be gone), or on the
        // parsing thread itself (a worker that runs jobs inline, where waiting for the queue to
        // close would never end): the parsing thread converts the arrays.
        if (m_finished || std::this_thread::get_id() == m_parseThread) return;
        m_working = true;
    }
    DeferredData job{};
    while (take(job, true)) run(job, true);
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_working = false;
    }
    m_wake.notify_all();
}

void ConversionPool::drain() {
    DeferredData job{};
    while (take(job, false)) run(job, false);
}

// ---------------------------------------------------------------------------------------------
// Document::parse

bool Document::parse(std::shared_ptr<const std::vector<uint8_t>> source, ParseError& error,
                     const ParseOptions& options) {
    std::string_view text;
    if (source && !source->empty())
        text = std::string_view(reinterpret_cast<const char*>(source->data()), source->size());
    return parse(std::shared_ptr<const void>(std::move(source)), text, error, options);
}

bool Document::parse(std::shared_ptr<const void> owner, std::string_view text, ParseError& error,
                     const ParseOptions& options) {
    m_owner = std::move(owner);
    m_text = text;
    m_arena.clear();
    m_roots.clear();
    m_globals.clear();
    m_lineStarts.clear();
    m_blockScanned = m_deferredLists = m_secondThreadLists = 0;
    m_reparsed = false;
    const char* begin = "";
    const char* end = begin;
    if (!m_text.empty()) {
        begin = m_text.data();
        end = begin + m_text.size();
    }
    Offset offset = 0;
    std::string message;
    // Large files convert their long arrays on the caller's worker. Should anything fail with it,
    // the text is parsed again on this thread alone, which finds the first error in the file.
    if (options.worker && size_t(end - begin) >= options.parallelBytes) {
        bool used = false;
        {
            auto pool = std::make_shared<ConversionPool>(*this, begin, end, options);
            // However the parse ends (an exception included), the worker's job is done with the
            // document before anything else touches it.
            struct Abandon {
                ConversionPool& pool;
                ~Abandon() { pool.abandon(); }
            } abandon{*pool};
            Parser parser(*this, begin, end, options);
            if (parser.run(offset, message, pool.get())) return true;
            used = pool->used();
        }
        if (used) {
            m_reparsed = true;
            m_deferredLists = m_secondThreadLists = 0;
            m_arena.clear();
            m_roots.clear();
            m_globals.clear();
            m_lineStarts.clear();
            offset = 0;
            message.clear();
            Parser parser(*this, begin, end, options);
            if (parser.run(offset, message)) return true;
        }
    } else {
        Parser parser(*this, begin, end, options);
        if (parser.run(offset, message)) return true;
    }
    error.offset = offset;
    error.message = std::move(message);
    locate(offset, error.line, error.column);
    m_arena.clear();
    m_roots.clear();
    m_globals.clear();
    return false;
}

}  // namespace esv::ddl
