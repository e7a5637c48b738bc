// What a format reader reports, and how much: one policy for the POD, OpenGEX, AWD and POF readers.
//
// A reader meets three kinds of trouble:
// - a fatal error makes the file unusable: it is always a problem, and the load fails;
// - a violation of the format is something the reader can read around: a warning in the import
//   report when loading, a problem in check mode (LoadOptions::collectAll), which lists every one;
// - a warning goes to the import report in both modes (and is not a problem in either).
// Each names its place in the file (a byte offset for binary formats, a line for text formats), a
// context path ("mesh 2 / normal list") and one sentence. The readers keep their own wording; this
// module only files what they say.
//
// Caps keep a corrupt file from flooding the output: 200 problems, then one "further problems are
// not listed" line; 200 warnings, then "further warnings are not listed"; 400 information lines,
// then finish() adds how many were left out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "loaders/load.h"
#include "scene/scene.h"

namespace esv {

// A place in a file: a byte offset, a line (and column), or neither.
struct FilePlace {
    int64_t offset = -1;  // -1 = none
    int line = 0;         // 0 = none
    int column = 0;       // 0 = none; problems carry it, report lines name the line only

    static FilePlace atOffset(uint64_t offset) {
        FilePlace p;
        p.offset = static_cast<int64_t>(offset);
        return p;
    }
    static FilePlace atLine(int line, int column = 0) {
        FilePlace p;
        p.line = line;
        p.column = column;
        return p;
    }
};

// "offset 0x1A4": a byte offset as messages print it.
std::string offsetText(uint64_t offset);
// "line 12"
std::string lineText(int line);
// One report line: "offset 0x1A4: mesh 2 / normal list: <message>" or "line 12: Mesh $m: <message>".
// The place and the context path are left out where there is none; a column is never printed.
std::string locatedText(const FilePlace& place, const std::string& where, const std::string& message);

class Diagnostics {
public:
    static constexpr size_t kMaxProblems = 200;
    static constexpr size_t kMaxWarnings = 200;
    static constexpr size_t kMaxInfoLines = 400;

    // `file` names the source in every problem. Problems are appended to `problems`, report lines to
    // `scene`'s report; both must outlive this object.
    Diagnostics(std::string file, const LoadOptions& options, Scene& scene, std::vector<Problem>& problems);

    // Makes the file unusable: always a problem; failed() from now on.
    void fatal(const FilePlace& place, const std::string& where, const std::string& message);
    // A violation the reader reads around: a problem in check mode, a warning when loading.
    void violation(const FilePlace& place, const std::string& where, const std::string& message);
    // A line of the import report with its place, in both modes.
    void warn(const FilePlace& place, const std::string& where, const std::string& message);

    // The same at a byte offset.
    void fatal(uint64_t offset, const std::string& where, const std::string& message) {
        fatal(FilePlace::atOffset(offset), where, message);
    }
    void violation(uint64_t offset, const std::string& where, const std::string& message) {
        violation(FilePlace::atOffset(offset), where, message);
    }
    void warn(uint64_t offset, const std::string& where, const std::string& message) {
        warn(FilePlace::atOffset(offset), where, message);
    }

    // A warning about the file as a whole (a summary): no place, no context path.
    void warn(const std::string& text) { warn(FilePlace{}, "", text); }
    // An information line for the import report.
    void info(const std::string& text);
    // Ends the report: one line that counts the information lines the cap left out, if any.
    void finish();

    bool failed() const { return m_failed; }
    bool collectAll() const { return m_collectAll; }
    // A fatal error when loading: the reader can stop (check mode reads on to list more).
    bool stopped() const { return m_failed && !m_collectAll; }

private:
    void addProblem(const FilePlace& place, const std::string& where, const std::string& message);

    std::string m_file;
    bool m_collectAll;
    Scene& m_scene;
    std::vector<Problem>& m_problems;
    size_t m_problemCount = 0;
    size_t m_warningCount = 0;
    size_t m_infoCount = 0;
    bool m_failed = false;
};

}  // namespace esv
