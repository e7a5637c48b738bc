#include "loaders/diagnostics.h"

#include <utility>

#include "loaders/byte_reader.h"

namespace esv {

std::string offsetText(uint64_t offset) {
    return "offset " + hexNumber(offset);
}

std::string lineText(int line) {
    return "line " + std::to_string(line);
}

std::string locatedText(const FilePlace& place, const std::string& where, const std::string& message) {
    std::string out;
    if (place.offset >= 0)
        out = offsetText(static_cast<uint64_t>(place.offset)) + ": ";
    else if (place.line > 0)
        out = lineText(place.line) + ": ";
    if (!where.empty()) out += where + ": ";
    return out + message;
}

Diagnostics::Diagnostics(std::string file, const LoadOptions& options, Scene& scene,
                         std::vector<Problem>& problems)
    : m_file(std::move(file)), m_collectAll(options.collectAll), m_scene(scene), m_problems(problems) {}

void Diagnostics::addProblem(const FilePlace& place, const std::string& where, const std::string& message) {
    if (m_problemCount > kMaxProblems) return;
    Problem p;
    p.file = m_file;
    if (m_problemCount++ == kMaxProblems) {
        p.message = "further problems are not listed";
    } else {
        p.offset = place.offset;
        p.line = place.line;
        p.column = place.column;
        p.where = where;
        p.message = message;
    }
    m_problems.push_back(std::move(p));
}

void Diagnostics::fatal(const FilePlace& place, const std::string& where, const std::string& message) {
    m_failed = true;
    addProblem(place, where, message);
}

void Diagnostics::violation(const FilePlace& place, const std::string& where, const std::string& message) {
    if (m_collectAll)
        addProblem(place, where, message);
    else
        warn(place, where, message);
}

void Diagnostics::warn(const FilePlace& place, const std::string& where, const std::string& message) {
    if (m_warningCount > kMaxWarnings) return;
    if (m_warningCount++ == kMaxWarnings)
        m_scene.warn("further warnings are not listed");
    else
        m_scene.warn(locatedText(place, where, message));
}

void Diagnostics::info(const std::string& text) {
    if (m_infoCount++ < kMaxInfoLines) m_scene.info(text);
}

void Diagnostics::finish() {
    if (m_infoCount > kMaxInfoLines) {
        m_scene.info(std::to_string(m_infoCount - kMaxInfoLines) +
                     " further information lines are not listed");
        m_infoCount = kMaxInfoLines;  // a second call adds nothing
    }
}

}  // namespace esv
