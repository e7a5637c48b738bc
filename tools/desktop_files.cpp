#include "tools/desktop_files.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace esv {
namespace {

// Text for an XML attribute or element.
std::string xmlEscape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

// Bytes as the value of a shared-mime-info string match, which reads C escapes: printable ASCII as
// it is (a backslash doubled), every other byte as \xNN.
std::string matchValue(const std::string& bytes) {
    std::string out;
    for (unsigned char c : bytes) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c >= 0x20 && c < 0x7f) {
            out += char(c);
        } else {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        }
    }
    return xmlEscape(out);
}

void appendMimeType(std::ostringstream& out, const DesktopType& t) {
    const MimeInfo& m = t.mime;
    out << "  <mime-type type=\"" << xmlEscape(m.type) << "\">\n";
    out << "    <comment>" << xmlEscape(m.comment) << "</comment>\n";
    if (!m.acronym.empty()) {
        out << "    <acronym>" << xmlEscape(m.acronym) << "</acronym>\n";
        out << "    <expanded-acronym>" << xmlEscape(m.expandedAcronym) << "</expanded-acronym>\n";
    }
    if (!m.subClassOf.empty()) out << "    <sub-class-of type=\"" << xmlEscape(m.subClassOf) << "\"/>\n";
    if (!m.genericIcon.empty()) out << "    <generic-icon name=\"" << xmlEscape(m.genericIcon) << "\"/>\n";
    if (!t.magic.empty()) {
        out << "    <magic priority=\"" << m.magicPriority << "\">\n";
        for (const std::string& bytes : t.magic)
            out << "      <match type=\"string\" offset=\"0\" value=\"" << matchValue(bytes) << "\"/>\n";
        out << "    </magic>\n";
    }
    for (const std::string& ext : t.extensions) out << "    <glob pattern=\"*." << xmlEscape(ext) << "\"/>\n";
    out << "  </mime-type>\n";
}

// The words of `text` separated by spaces.
std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

void replaceAll(std::string& text, const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

std::string formatNames(const std::vector<DesktopType>& types) {
    std::vector<std::string> names;
    for (const DesktopType& t : types) {
        if (t.container) continue;
        std::string name = t.mime.comment;
        const std::string suffix = " model";
        if (name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            name.resize(name.size() - suffix.size());
        names.push_back(name);
    }
    std::string sentence;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) sentence += i + 1 == names.size() ? " and " : ", ";
        sentence += names[i];
    }
    return sentence;
}

std::string formatKeywords(const std::vector<DesktopType>& types) {
    std::vector<std::string> keywords;
    auto add = [&keywords](const std::string& word) {
        if (word.empty() || word == "model") return;
        for (const std::string& k : keywords)
            if (k == word) return;
        keywords.push_back(word);
    };
    for (const DesktopType& t : types) {
        if (t.container) continue;
        add(t.name);
        for (const std::string& w : words(t.mime.comment)) add(w);
    }
    std::string list;
    for (const std::string& k : keywords) list += k + ";";
    return list;
}

}  // namespace

std::vector<DesktopType> desktopTypes() {
    std::vector<DesktopType> types;
    for (const FormatInfo& f : formats()) {
        // A text form (glTF's .gltf) is a type of its own: its extensions leave the binary type's globs.
        std::vector<std::string> binary;
        for (const std::string& e : f.extensions)
            if (std::find(f.textExtensions.begin(), f.textExtensions.end(), e) == f.textExtensions.end())
                binary.push_back(e);
        types.push_back({f.name, f.mime, binary, f.magic, false});
        if (!f.textExtensions.empty()) types.push_back({f.name, f.textMime, f.textExtensions, {}, false});
    }
    for (const ContainerInfo& c : containers()) types.push_back({"", c.mime, c.extensions, c.magic, true});
    return types;
}

std::string mimePackageXml(const std::vector<DesktopType>& types) {
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<!-- The model formats esview reads and the archives holding them, for shared-mime-info\n"
           "     (installed to share/mime/packages). Written by the build (tools/desktop_files.cpp) from\n"
           "     the format table, loaders/format_table.cpp: edit the table, not this file. A glob is an\n"
           "     extension of a row, the magic its first bytes; globs are matched in any case. -->\n"
           "<mime-info xmlns=\"http://www.freedesktop.org/standards/shared-mime-info\">\n";
    for (const DesktopType& t : types) appendMimeType(out, t);
    out << "</mime-info>\n";
    return out.str();
}

std::string mimeTypeList(const std::vector<DesktopType>& types, bool withContainers) {
    std::string list;
    for (const DesktopType& t : types)
        if (withContainers || !t.container) list += t.mime.type + ";";
    return list;
}

std::string fillDesktopTemplate(const std::string& text, const std::vector<DesktopType>& types,
                                bool withContainers) {
    std::string out = text;
    replaceAll(out, "@ESVIEW_MIME_TYPES@", mimeTypeList(types, withContainers));
    replaceAll(out, "@ESVIEW_FORMAT_NAMES@", formatNames(types));
    replaceAll(out, "@ESVIEW_FORMAT_KEYWORDS@", formatKeywords(types));
    return out;
}

std::string androidModelFormatsJava(const std::vector<DesktopType>& types) {
    std::string extensions;
    for (const DesktopType& t : types) {
        if (t.container) continue;
        for (const std::string& ext : t.extensions)
            extensions += std::string(extensions.empty() ? "" : ", ") + "\"." + ext + "\"";
    }
    return "// Written by esview_desktop_files (tools/desktop_files.cpp) from the format table,\n"
           "// loaders/format_table.cpp: edit the table, then `cmake --build build --target\n"
           "// esview_update_android` writes this file again. tests/desktop_files checks that it is "
           "current.\n"
           "package org.esview.viewer;\n"
           "\n"
           "/** The model files the viewer opens, as the format table lists them. */\n"
           "final class ModelFormats {\n"
           "    /** Every format's extensions, lower case with the dot. */\n"
           "    static final String[] EXTENSIONS = {" +
           extensions +
           "};\n"
           "\n"
           "    private ModelFormats() {}\n"
           "}\n";
}

bool updateAndroidManifest(std::string& manifest, const std::vector<DesktopType>& types) {
    const size_t beginAt = manifest.find(kAndroidBeginMarker);
    if (beginAt == std::string::npos) return false;
    const size_t firstLine = manifest.find('\n', beginAt);
    const size_t endAt = manifest.find(kAndroidEndMarker, beginAt);
    if (firstLine == std::string::npos || endAt == std::string::npos || endAt < firstLine) return false;
    const size_t lineStart = manifest.rfind('\n', beginAt);
    const size_t indentFrom = lineStart == std::string::npos ? 0 : lineStart + 1;
    const std::string indent = manifest.substr(indentFrom, beginAt - indentFrom);
    std::string lines;
    for (const DesktopType& t : types)
        if (!t.container) lines += indent + "<data android:mimeType=\"" + xmlEscape(t.mime.type) + "\" />\n";
    // From the line after the begin marker to the end of the line before the end marker.
    const size_t lastLine = manifest.rfind('\n', endAt);
    manifest.replace(firstLine + 1, lastLine - firstLine, lines);
    return true;
}

}  // namespace esv
