// The desktop integration's files, made from the format table (loaders/format_table.h) so that a
// format's row is all there is to change: shared-mime-info's package, the MimeType, Comment and
// Keywords lines of the .desktop and .thumbnailer files (platforms/linux), and the Android app's
// list of model extensions and its "Open with" MIME types (platforms/android). Pure functions of a
// list of types, so that tests can give them a table of their own; desktop_files_main.cpp writes
// the files at build time.
#pragma once

#include <string>
#include <vector>

#include "loaders/format_table.h"

namespace esv {

// One file type of the desktop files: a format of the table, or a container.
struct DesktopType {
    std::string name;  // "POD": the row's name; empty for a container
    MimeInfo mime;
    std::vector<std::string> extensions;  // lower case, no dot
    std::vector<std::string> magic;       // a file's first bytes; none: known by its globs only
    bool container = false;               // a file holding models (the viewer browses it)
};

// The formats of formats(), then the containers of containers(), in their tables' order.
std::vector<DesktopType> desktopTypes();

// The shared-mime-info package (share/mime/packages/esview-mime.xml): every type with its
// comment, acronym, parent type and icon, one match at offset 0 per magic byte string (printable
// bytes as they are, the others as \xNN escapes) and one glob per extension.
std::string mimePackageXml(const std::vector<DesktopType>& types);

// The MIME types for a MimeType= line, each followed by ';': the models only (the .desktop file:
// the viewer opens them), or the containers too (the thumbnailer draws a VP archive's first model).
std::string mimeTypeList(const std::vector<DesktopType>& types, bool withContainers);

// `text` (a .desktop or .thumbnailer template) with @ESVIEW_MIME_TYPES@ (mimeTypeList),
// @ESVIEW_FORMAT_NAMES@ ("PowerVR POD, OpenGEX, Away3D AWD and FreeSpace POF": the models'
// comments less " model") and @ESVIEW_FORMAT_KEYWORDS@ ("POD;PowerVR;OpenGEX;...": each model's
// name and the other words of its comment) replaced. Other @NAME@ (the binary's path, known at
// install time) are left as they are.
std::string fillDesktopTemplate(const std::string& text, const std::vector<DesktopType>& types,
                                bool withContainers);

// The Android app's ModelFormats.java: the models' extensions (lower case, with the dot) by which
// EsviewActivity tells a model among shared files.
std::string androidModelFormatsJava(const std::vector<DesktopType>& types);

// The markers around the generated lines of AndroidManifest.xml (each on a line of its own).
constexpr char kAndroidBeginMarker[] = "<!-- Generated from the format table";
constexpr char kAndroidEndMarker[] = "<!-- End of the generated lines -->";

// `manifest` (AndroidManifest.xml's text) with the lines between its markers replaced by one
// <data android:mimeType> line per model type (the "Open with" filter), indented as the begin
// marker is. False when a marker is missing; then `manifest` is left alone.
bool updateAndroidManifest(std::string& manifest, const std::vector<DesktopType>& types);

}  // namespace esv
