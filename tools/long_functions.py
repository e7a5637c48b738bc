#!/usr/bin/env python3
"""Lists the functions of C++ sources that are longer than a limit, longest first.

    tools/long_functions.py [--limit 150] [--most N] DIR_OR_FILE...
    tools/long_functions.py --self-test

A function's length is the lines from the start of its signature to its closing brace. The scan
strips comments, strings and character literals, then follows braces: a brace opened at file,
namespace or class level after a header with a parameter list (not a control statement, not an
initialiser after '=') opens a function body; bodies nested in a function (lambdas, local classes)
count toward that function. Templates, constructors with initialiser lists, operators and
out-of-class member definitions are all seen as functions.

Exit status 1 when more than --most functions (default: no bound) are over the limit, so a test can
hold the count where it is and a refactor can only lower it.
"""
import argparse
import os
import re
import sys

SOURCE_EXTENSIONS = (".cpp", ".cc", ".h", ".hpp", ".inl")
CONTROL = re.compile(r"^(if|for|while|switch|catch|do|else|return|try)\b")
TYPE_KEYWORD = re.compile(r"\b(class|struct|union|enum)\b[^()]*$")


def strip(text):
    """Comments, strings and character literals blanked out, newlines kept (so lines still count)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            open_paren = text.find("(", i + 2)
            delimiter = text[i + 2:open_paren]
            close = text.find(")" + delimiter + '"', open_paren)
            j = n if close < 0 else close + len(delimiter) + 2
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def drop_directives(text):
    """Preprocessor lines (and their continuations) blanked out, newlines kept."""
    lines = text.split("\n")
    continued = False
    for k, l in enumerate(lines):
        if continued or l.lstrip().startswith("#"):
            continued = l.endswith("\\")
            lines[k] = ""
    return "\n".join(lines)


def functions(path):
    """(name, first line, last line) of each function body at file, namespace or class level."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = drop_directives(strip(f.read()))
    found = []
    stack = []  # kinds of the open braces: "scope" (namespace, class) or "body" or "other"
    header_start = 0  # offset where the current statement's text began
    line = 1
    header_line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
            continue
        in_scope = all(kind == "scope" for kind in stack)
        if stack and stack[-1] == "init" and c != "}":
            continue
        if c in ";}" and in_scope:
            if c == "}" and stack:
                stack.pop()
            header_start = i + 1
            header_line = line
            continue
        if c == "{":
            if not in_scope:
                stack.append("other")
                continue
            header = text[header_start:i].strip()
            # The header starts at its first non-blank line.
            lead = text[header_start:i]
            start_line = header_line + lead[: len(lead) - len(lead.lstrip())].count("\n")
            header = re.sub(r"\s+", " ", header)
            header = re.sub(r"^(public|private|protected)\s*:\s*", "", header)
            if re.search(r"\)\s*(noexcept\s*)?:[^:]", header) and re.search(r"[\w>]\s*$", header) \
                    and "body" not in stack:
                stack.append("init")  # a member initialiser's braces in a constructor's list: b_{2}
                continue
            if header.startswith("namespace") or header.startswith("extern") or TYPE_KEYWORD.search(header) \
                    or "(" not in header or header.endswith("=") or CONTROL.match(header) or header.endswith(")="):
                stack.append("scope" if (header.startswith(("namespace", "extern")) or TYPE_KEYWORD.search(header))
                             else "other")
            else:
                stack.append("body")
                name_match = re.search(r"([\w:~]*operator\s*(?:\(\)|[^\s(]+))\s*\(", header) or \
                    re.search(r"([\w:~]+)\s*\(", header)
                name = name_match.group(1) if name_match else header[:40]
                found.append([name, start_line, None, len(stack)])
            header_start = i + 1
            header_line = line
            continue
        if c == "}":
            kind = stack.pop() if stack else None
            if kind == "init":
                continue  # the constructor's header goes on
            if kind == "body" and found and found[-1][2] is None and found[-1][3] == len(stack) + 1:
                found[-1][2] = line
            if all(k == "scope" for k in stack):
                header_start = i + 1
                header_line = line
    return [(name, first, last) for name, first, last, _ in found if last is not None]


def sources(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, _, files in os.walk(p):
            for name in sorted(files):
                if name.endswith(SOURCE_EXTENSIONS):
                    yield os.path.join(root, name)


SELF_TEST = r"""
#include <x>
#define LONG(a) \
    { a; }
namespace esv {
namespace {
struct Holder {
    int inline_member(int a) const {
        return a;
    }
};
}  // namespace
// A comment with a brace { and a string "}".
template <typename T>
Holder::Result Holder::outOfClass(const T& t,
                                  int b) {
    auto lambda = [&](int c) {
        if (c) { return "}"; }
        return "{";
    };
    const int table[] = {1, 2};
    return lambda(b);
}
Widget::Widget() : a_(1), b_{2} {
    char c = '{';
}
int values[] = {1,
                2};
bool operator==(const A& a, const B& b) { return a.x == b.x; }
}  // namespace esv
"""


def self_test():
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as f:
        f.write(SELF_TEST)
    try:
        got = [(name, last - first + 1) for name, first, last in functions(f.name)]
    finally:
        os.unlink(f.name)
    want = [("inline_member", 3), ("Holder::outOfClass", 10), ("Widget::Widget", 3), ("operator==", 1)]
    if got != want:
        print(f"self-test: got {got}, want {want}", file=sys.stderr)
        return 1
    print("self-test: 4 functions measured as expected")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=150, help="lines a function may have")
    parser.add_argument("--most", type=int, default=None, help="functions over the limit allowed")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    long = []
    for path in sources(args.paths):
        for name, first, last in functions(path):
            length = last - first + 1
            if length > args.limit:
                long.append((length, path, first, name))
    long.sort(key=lambda f: (-f[0], f[1], f[2]))
    for length, path, first, name in long:
        print(f"{length:5d}  {path}:{first}  {name}")
    print(f"{len(long)} functions over {args.limit} lines")
    if args.most is not None and len(long) > args.most:
        print(f"more than the {args.most} allowed: split the new ones", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
