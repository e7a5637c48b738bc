#include "app/cli/convert_notes.h"

#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <utility>

namespace esv {
namespace {

struct Subject {
    std::string kind;  // "mesh", "node", ...
    std::string name;  // "mesh 3 'Body'"
    std::string text;  // what follows ": "
};

// "KIND N", "KIND N 'NAME'" or "KIND 'NAME'" before the first ": " (a name may hold ": ").
bool parseSubject(const std::string& note, Subject& out) {
    static const char* const kinds[] = {"mesh", "node", "material", "light", "camera", "skin", "texture", "clip"};
    for (const char* kind : kinds) {
        const std::string k = std::string(kind) + " ";
        if (note.compare(0, k.size(), k) != 0) continue;
        size_t at = k.size();
        bool any = false;
        while (at < note.size() && std::isdigit(static_cast<unsigned char>(note[at]))) ++at, any = true;
        if (any && at < note.size() && note[at] == ' ') ++at;
        if (at < note.size() && (note[at] == '\'' || note[at] == '"')) {
            const char quote = note[at];
            const size_t close = note.find(std::string(1, quote) + ": ", at + 1);
            if (close == std::string::npos) return false;
            at = close + 1;
            any = true;
        }
        if (!any || note.compare(at, 2, ": ") != 0) return false;
        out.kind = kind;
        out.name = note.substr(0, at);
        out.text = note.substr(at + 2);
        return !out.text.empty();
    }
    return false;
}

std::string plural(const std::string& kind, size_t count) {
    if (count == 1) return kind;
    return kind == "mesh" ? "meshes" : kind + "s";
}

}  // namespace

void appendf(std::string& to, const char* format, ...) {
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    const int size = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    if (size > 0) {
        const size_t at = to.size();
        to.resize(at + size_t(size) + 1);
        std::vsnprintf(&to[at], size_t(size) + 1, format, args);
        to.resize(at + size_t(size));
    }
    va_end(args);
}

std::vector<std::string> summarizeNotes(const std::vector<std::string>& notes, size_t names) {
    struct Group {
        std::string kind, text;
        std::vector<std::string> subjects;
        std::string original;
    };
    std::vector<Group> groups;
    std::vector<std::pair<bool, size_t>> order;  // (grouped, index into groups or notes)
    std::map<std::pair<std::string, std::string>, size_t> index;
    for (size_t i = 0; i < notes.size(); ++i) {
        Subject s;
        if (!parseSubject(notes[i], s)) {
            order.push_back({false, i});
            continue;
        }
        const auto key = std::make_pair(s.kind, s.text);
        auto found = index.find(key);
        if (found == index.end()) {
            found = index.emplace(key, groups.size()).first;
            groups.push_back({s.kind, s.text, {}, notes[i]});
            order.push_back({true, found->second});
        }
        groups[found->second].subjects.push_back(s.name);
    }
    std::vector<std::string> out;
    for (const auto& [grouped, i] : order) {
        if (!grouped) {
            out.push_back(notes[i]);
            continue;
        }
        const Group& g = groups[i];
        if (g.subjects.size() == 1) {
            out.push_back(g.original);
            continue;
        }
        std::string line = std::to_string(g.subjects.size()) + " " + plural(g.kind, g.subjects.size()) + ": " + g.text + " (";
        for (size_t k = 0; k < g.subjects.size() && k < names; ++k) line += (k ? ", " : "") + g.subjects[k];
        if (g.subjects.size() > names) line += ", ...";
        out.push_back(line + ")");
    }
    return out;
}

}  // namespace esv
