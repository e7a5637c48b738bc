#!/usr/bin/env python3
"""Checks that the fact tables hard-coded in the sample tests are what their independent decoders
(tests/<format>/samples_expected.py) compute from the shared sample models today.

    python3 check_fact_tables.py [--models DIR] [--require-models]

DIR defaults to ../../shared/models beside the repository. Each table is found in its C++ file by
name (the line declaring it ends with "= {", the table ends at the next "};") and compared line by
line with the script's output, after stripping leading and trailing whitespace and leaving out
blank lines and comment-only lines ("// ...": the OpenGEX table explains one row in a comment the
script does not print). The C++ tables are indented deeper than the scripts print them (the POF
one sits inside a function), which the stripping absorbs. On a mismatch it prints the first
differing line of each table that differs and exits 1.

A missing models folder skips its tables (exit 77, ctest's SKIP_RETURN_CODE, once the others
pass), or fails with --require-models (ESVIEW_REQUIRE_SHARED builds). The scripts need only
the Python standard library.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SKIP = 77

# (models sub-folder, script, option, C++ file, table name); paths relative to the repository.
TABLES = [
    ("awd", "tests/awd/samples_expected.py", "--cpp", "tests/awd/awd_samples_test.cpp", "kFacts"),
    ("awd", "tests/awd/samples_expected.py", "--cpp-anim", "tests/awd/awd_samples_test.cpp", "kAnimFacts"),
    ("ogex", "tests/opengex/samples_expected.py", "--cpp", "tests/opengex/opengex_samples_test.cpp", "kFacts"),
    ("pof", "tests/pof/samples_expected.py", "--cpp", "tests/pof/pof_sample_facts.h", "kFacts"),
    ("pod", "tests/pod/samples_expected.py", "--cpp", "tests/pod/pod_samples_test.cpp", "kFacts"),
    ("pod", "tests/pod/samples_expected.py", "--cpp-bounds", "tests/pod/pod_samples_test.cpp", "kBounds"),
]


def significant(lines):
    """(1-based line number, stripped text) of the lines that are neither blank nor comments."""
    out = []
    for number, line in lines:
        text = line.strip()
        if text and not text.startswith("//"):
            out.append((number, text))
    return out


def cpp_table(path, name):
    """The rows of table `name` in the C++ file, or None when it is not there."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        text = line.strip()
        words = text.replace("[", " ").replace("=", " ").split()
        if name in words and text.endswith("= {") and "(" not in text:
            rows = []
            for j in range(i + 1, len(lines)):
                if lines[j].strip() == "};":
                    return significant(rows)
                rows.append((j + 1, lines[j]))
            return None
    return None


def check(models, sub, script, option, cpp, name):
    """An error message, or None when the table matches."""
    label = "%s %s (%s in %s)" % (script, option, name, cpp)
    run = subprocess.run([sys.executable, os.path.join(ROOT, script), option, os.path.join(models, sub)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return "%s: the script failed (exit %d):\n%s" % (label, run.returncode, run.stderr.strip())
    expected = significant(enumerate(run.stdout.splitlines(), 1))
    found = cpp_table(os.path.join(ROOT, cpp), name)
    if found is None:
        return "%s: no table %s (a line ending in '= {' up to '};') in %s" % (label, name, cpp)
    for k in range(max(len(expected), len(found))):
        want = expected[k][1] if k < len(expected) else None
        have = found[k][1] if k < len(found) else None
        if want != have:
            where = "%s:%d" % (cpp, found[k][0]) if k < len(found) else "%s, after its last row" % cpp
            return ("%s: differs at table line %d (%s; script output line %s; %d lines expected, %d found)\n"
                    "  script: %s\n  C++:    %s" % (label, k + 1, where, expected[k][0] if k < len(expected) else "-",
                                                    len(expected), len(found), want if want is not None else "(none)",
                                                    have if have is not None else "(none)"))
    return None


def main():
    args = sys.argv[1:]
    require = "--require-models" in args
    args = [a for a in args if a != "--require-models"]
    models = os.path.join(ROOT, "..", "shared", "models")
    if len(args) == 2 and args[0] == "--models":
        models = args[1]
    elif args:
        print("usage: check_fact_tables.py [--models DIR] [--require-models]", file=sys.stderr)
        return 2
    failures = []
    missing = []
    checked = 0
    for sub, script, option, cpp, name in TABLES:
        if not os.path.isdir(os.path.join(models, sub)):
            missing.append(os.path.join(models, sub))
            continue
        error = check(models, sub, script, option, cpp, name)
        checked += 1
        if error:
            failures.append(error)
            print("MISMATCH " + error)
        else:
            print("ok       %s %s matches %s in %s" % (script, option, name, cpp))
    for path in sorted(set(missing)):
        print("%s sample models not found at %s" % ("MISSING " if require else "skipped ", path))
    if failures:
        print("%d of %d tables differ from what their scripts compute; rerun the script with the option "
              "shown and update the table (or find out which one is wrong)" % (len(failures), checked))
        return 1
    if missing:
        if require:
            print("the shared models are required here (ESVIEW_REQUIRE_SHARED)")
            return 1
        return SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main())
