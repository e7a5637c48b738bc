#!/usr/bin/env python3
"""Prints what a shared-mime-info package file defines, one fact a line, for thumbnail_install_test:
`type TYPE`, `glob TYPE PATTERN`, `magic TYPE OFFSET HEX` (the bytes a match looks for) and
`sub-class-of TYPE PARENT`. Exits 1 with the parser's message when the file is not well-formed XML
or not a mime-info document."""
import struct
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
PACK = {"little32": "<I", "big32": ">I", "little16": "<H", "big16": ">H", "byte": "B"}


def match_bytes(match):
    kind, value = match.get("type"), match.get("value")
    if kind == "string":
        return value.encode("latin-1").decode("unicode_escape").encode("latin-1")
    if kind in PACK:
        return struct.pack(PACK[kind], int(value, 0))
    raise ValueError("match type %s is not one this check knows" % kind)


def main():
    try:
        root = ET.parse(sys.argv[1]).getroot()
    except (ET.ParseError, OSError) as e:
        print(e, file=sys.stderr)
        return 1
    if root.tag != NS + "mime-info":
        print("the root element is %s, not mime-info" % root.tag, file=sys.stderr)
        return 1
    for mime in root.findall(NS + "mime-type"):
        name = mime.get("type")
        print("type", name)
        for glob in mime.findall(NS + "glob"):
            print("glob", name, glob.get("pattern"))
        for parent in mime.findall(NS + "sub-class-of"):
            print("sub-class-of", name, parent.get("type"))
        for magic in mime.findall(NS + "magic"):
            for match in magic.iter(NS + "match"):
                print("magic", name, int(match.get("offset"), 0), match_bytes(match).hex())
    return 0


if __name__ == "__main__":
    sys.exit(main())
