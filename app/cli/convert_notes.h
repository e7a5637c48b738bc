// The notes `esview convert` prints, summarised: a file of 65 meshes gets one line saying that 65
// meshes had their triangles expanded, not 65 lines.
#pragma once

#include <string>
#include <vector>

namespace esv {

// What one conversion says: its stdout and stderr lines, kept apart so that a batch can convert
// files on several threads and print each file's lines together, or as JSON.
struct ConvertLog {
    std::string out, err;
};

// printf into `to`.
void appendf(std::string& to, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Notes of the form "SUBJECT: TEXT", where SUBJECT names one object ("mesh 3 'Body'", "node 2",
// "material 0 'Skin'", "light 1", "camera 0", "skin 0 'Rig'", "texture 4", "clip 'Run'"), that share
// KIND and TEXT become one line: "65 meshes: TEXT (mesh 0 'A', mesh 1 'B', mesh 2 'C', ...)" with the
// first `names` subjects, at the place of the first of them. Other notes, and a subject alone with its
// text, are kept as they are. Order is otherwise kept.
std::vector<std::string> summarizeNotes(const std::vector<std::string>& notes, size_t names = 3);

}  // namespace esv
