// Written by esview_desktop_files (tools/desktop_files.cpp) from the format table,
// loaders/format_table.cpp: edit the table, then `cmake --build build --target
// esview_update_android` writes this file again. tests/desktop_files checks that it is current.
package org.esview.viewer;

/** The model files the viewer opens, as the format table lists them. */
final class ModelFormats {
    /** Every format's extensions, lower case with the dot. */
    static final String[] EXTENSIONS = {".pod", ".ogex", ".oddl", ".awd", ".pof", ".glb", ".gltf"};

    private ModelFormats() {}
}
