// The readers' shared diagnostics (loaders/diagnostics.h): fatal errors, violations in load and
// check mode, warnings, the caps on problems, warnings and information lines, and the text of a
// place (byte offset or line).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loaders/diagnostics.h"

using namespace esv;

namespace {

LoadOptions checkMode() {
    LoadOptions o;
    o.collectAll = true;
    return o;
}

// The report lines of one severity, in order.
std::vector<std::string> lines(const Scene& scene, Severity severity) {
    std::vector<std::string> out;
    for (const ReportLine& line : scene.report)
        if (line.severity == severity) out.push_back(line.text);
    return out;
}

}  // namespace

TEST(Diagnostics, OffsetAndLineTexts) {
    EXPECT_EQ(offsetText(0), "offset 0x0");
    EXPECT_EQ(offsetText(0x1A4), "offset 0x1A4");
    EXPECT_EQ(offsetText(0xFFFFFFFFull + 1), "offset 0x100000000");
    EXPECT_EQ(lineText(12), "line 12");
}

TEST(Diagnostics, LocatedTextWithAnOffset) {
    EXPECT_EQ(
        locatedText(FilePlace::atOffset(0x1A4), "mesh 2 / normal list", "stride 8 is smaller than 3 floats"),
        "offset 0x1A4: mesh 2 / normal list: stride 8 is smaller than 3 floats");
    EXPECT_EQ(locatedText(FilePlace::atOffset(0), "", "bad magic"), "offset 0x0: bad magic");
}

TEST(Diagnostics, LocatedTextWithALine) {
    // Report lines name the line only; the column stays in the problem.
    EXPECT_EQ(locatedText(FilePlace::atLine(7, 3), "GeometryNode $node1 / ObjectRef", "no such object"),
              "line 7: GeometryNode $node1 / ObjectRef: no such object");
    EXPECT_EQ(locatedText(FilePlace::atLine(1), "", "a message"), "line 1: a message");
}

TEST(Diagnostics, LocatedTextWithNoPlace) {
    EXPECT_EQ(locatedText(FilePlace{}, "", "3 x unknown block"), "3 x unknown block");
    EXPECT_EQ(locatedText(FilePlace{}, "scene", "no nodes"), "scene: no nodes");
}

TEST(Diagnostics, FatalIsAProblemInBothModes) {
    for (bool check : {false, true}) {
        SCOPED_TRACE(check ? "check mode" : "load mode");
        Scene scene;
        std::vector<Problem> problems;
        LoadOptions options;
        options.collectAll = check;
        Diagnostics diag("a.pod", options, scene, problems);
        EXPECT_FALSE(diag.failed());
        diag.fatal(0x20, "scene / mesh 0", "the block ends early");
        ASSERT_EQ(problems.size(), 1u);
        EXPECT_EQ(problems[0].format(), "a.pod: offset 0x20: scene / mesh 0: the block ends early");
        EXPECT_EQ(problems[0].offset, 0x20);
        EXPECT_EQ(problems[0].line, 0);
        EXPECT_TRUE(diag.failed());
        EXPECT_EQ(diag.collectAll(), check);
        // Loading stops at a fatal error; check mode reads on to list more.
        EXPECT_EQ(diag.stopped(), !check);
        EXPECT_TRUE(scene.report.empty());
    }
}

TEST(Diagnostics, ViolationIsAWarningInTheImportReportWhenLoading) {
    Scene scene;
    std::vector<Problem> problems;
    Diagnostics diag("a.awd", LoadOptions{}, scene, problems);
    diag.violation(0x1A4, "block 3 (Material 'wood')", "2 bytes after the block's fields are ignored");
    EXPECT_TRUE(problems.empty());
    EXPECT_FALSE(diag.failed());
    EXPECT_FALSE(diag.stopped());
    EXPECT_EQ(lines(scene, Severity::Warning),
              std::vector<std::string>{
                  "offset 0x1A4: block 3 (Material 'wood'): 2 bytes after the block's fields are ignored"});
}

TEST(Diagnostics, ViolationIsAProblemInCheckMode) {
    Scene scene;
    std::vector<Problem> problems;
    Diagnostics diag("a.awd", checkMode(), scene, problems);
    diag.violation(0x1A4, "block 3 (Material 'wood')", "2 bytes after the block's fields are ignored");
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].format(),
              "a.awd: offset 0x1A4: block 3 (Material 'wood'): 2 bytes after the block's fields are ignored");
    EXPECT_TRUE(scene.report.empty());
    // A violation is no failure: the file still loads (check mode only lists it).
    EXPECT_FALSE(diag.failed());
    EXPECT_FALSE(diag.stopped());
}

TEST(Diagnostics, ViolationAtALineKeepsTheColumnInTheProblem) {
    Scene scene;
    std::vector<Problem> problems;
    Diagnostics check("a.ogex", checkMode(), scene, problems);
    check.violation(FilePlace::atLine(3, 5), "Metric", "a Metric must precede all other structures");
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].offset, -1);
    EXPECT_EQ(problems[0].line, 3);
    EXPECT_EQ(problems[0].column, 5);
    EXPECT_EQ(problems[0].format(),
              "a.ogex: line 3, column 5: Metric: a Metric must precede all other structures");

    Diagnostics load("a.ogex", LoadOptions{}, scene, problems);
    load.violation(FilePlace::atLine(3, 5), "Metric", "a Metric must precede all other structures");
    EXPECT_EQ(lines(scene, Severity::Warning),
              std::vector<std::string>{"line 3: Metric: a Metric must precede all other structures"});
}

TEST(Diagnostics, WarningsGoToTheReportInBothModes) {
    for (bool check : {false, true}) {
        Scene scene;
        std::vector<Problem> problems;
        LoadOptions options;
        options.collectAll = check;
        Diagnostics diag("a.pof", options, scene, problems);
        diag.warn(0x10, "chunk TXTR", "texture 2 is unnamed");
        diag.warn("LOD0 names no subobject: nothing is drawn");
        diag.info("POF version 2117");
        EXPECT_TRUE(problems.empty());
        EXPECT_FALSE(diag.failed());
        EXPECT_EQ(lines(scene, Severity::Warning),
                  (std::vector<std::string>{"offset 0x10: chunk TXTR: texture 2 is unnamed",
                                            "LOD0 names no subobject: nothing is drawn"}));
        EXPECT_EQ(lines(scene, Severity::Info), std::vector<std::string>{"POF version 2117"});
    }
}

TEST(Diagnostics, ProblemsStopAtTheCapWithOneLine) {
    Scene scene;
    std::vector<Problem> problems;
    Diagnostics diag("a.pod", checkMode(), scene, problems);
    // Fatal errors and violations share the cap.
    for (uint64_t i = 0; i < 150; ++i) diag.fatal(i * 4, "scene", "problem " + std::to_string(i));
    for (uint64_t i = 150; i < 500; ++i) diag.violation(i * 4, "scene", "problem " + std::to_string(i));
    ASSERT_EQ(problems.size(), Diagnostics::kMaxProblems + 1);
    ASSERT_EQ(Diagnostics::kMaxProblems, 200u);
    EXPECT_EQ(problems[199].format(), "a.pod: offset 0x31C: scene: problem 199");
    const Problem& last = problems.back();
    EXPECT_EQ(last.format(), "a.pod: further problems are not listed");
    EXPECT_EQ(last.offset, -1);
    EXPECT_EQ(last.line, 0);
    EXPECT_TRUE(last.where.empty());
    // Past the cap nothing is added, and a fatal error still fails the load.
    diag.fatal(0, "", "one more");
    EXPECT_EQ(problems.size(), Diagnostics::kMaxProblems + 1);
    EXPECT_TRUE(diag.failed());
    EXPECT_TRUE(scene.report.empty());
}

TEST(Diagnostics, ExactlyTheCapListsEveryProblem) {
    Scene scene;
    std::vector<Problem> problems;
    Diagnostics diag("a.ogex", checkMode(), scene, problems);
    for (int i = 1; i <= 200; ++i) diag.violation(FilePlace::atLine(i), "Mesh", "m");
    ASSERT_EQ(problems.size(), 200u);
    EXPECT_EQ(problems.back().line, 200);
    diag.violation(FilePlace::atLine(201), "Mesh", "m");
    ASSERT_EQ(problems.size(), 201u);
    EXPECT_EQ(problems.back().message, "further problems are not listed");
}

TEST(Diagnostics, WarningsStopAtTheCapWithOneLine) {
    Scene scene;
    std::vector<Problem> problems;
    Diagnostics diag("a.pof", LoadOptions{}, scene, problems);
    // Violations read around when loading and plain warnings share the cap.
    for (uint64_t i = 0; i < 100; ++i) diag.violation(i, "chunk PATH", "v");
    for (uint64_t i = 100; i < 300; ++i) diag.warn(i, "chunk PATH", "w");
    diag.warn("a summary");
    const std::vector<std::string> warnings = lines(scene, Severity::Warning);
    ASSERT_EQ(warnings.size(), Diagnostics::kMaxWarnings + 1);
    ASSERT_EQ(Diagnostics::kMaxWarnings, 200u);
    EXPECT_EQ(warnings[0], "offset 0x0: chunk PATH: v");
    EXPECT_EQ(warnings[199], "offset 0xC7: chunk PATH: w");
    EXPECT_EQ(warnings[200], "further warnings are not listed");
    EXPECT_TRUE(problems.empty());
}

TEST(Diagnostics, InformationLinesPastTheCapAreCountedAtTheEnd) {
    Scene scene;
    std::vector<Problem> problems;
    Diagnostics diag("a.awd", LoadOptions{}, scene, problems);
    for (int i = 0; i < 450; ++i) diag.info("note " + std::to_string(i));
    diag.warn("a warning is not an information line");
    diag.finish();
    const std::vector<std::string> infos = lines(scene, Severity::Info);
    ASSERT_EQ(infos.size(), Diagnostics::kMaxInfoLines + 1);
    EXPECT_EQ(infos[399], "note 399");
    EXPECT_EQ(infos.back(), "50 further information lines are not listed");
    EXPECT_EQ(lines(scene, Severity::Warning).size(), 1u);
    // A second finish() adds nothing.
    diag.finish();
    EXPECT_EQ(lines(scene, Severity::Info).size(), Diagnostics::kMaxInfoLines + 1);
}

TEST(Diagnostics, FinishAddsNothingUnderTheCap) {
    Scene scene;
    std::vector<Problem> problems;
    Diagnostics diag("a.pod", LoadOptions{}, scene, problems);
    for (int i = 0; i < 400; ++i) diag.info("note");
    diag.finish();
    EXPECT_EQ(scene.report.size(), 400u);
}
