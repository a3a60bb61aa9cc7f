#!/usr/bin/env python3
"""Writes `presets.xml` from ECMA-376 Part 1's `presetShapeDefinitions.xml`.

Usage: python3 compact_presets.py presetShapeDefinitions.xml > presets.xml

The output keeps every element and attribute the renderer reads (`avLst`, `gdLst`,
`rect` and `pathLst` with their guides and path commands) in document order, one preset
per line, and drops what it does not read: indentation, the namespace declarations, the
adjust handles (`ahLst`) and the connection sites (`cxnLst`). Nothing is renamed or
re-ordered, so each line can be checked against the standard's file by eye.
"""

import sys
import xml.etree.ElementTree as ET
from xml.sax.saxutils import quoteattr

DROPPED = {"ahLst", "cxnLst"}


def local(tag):
    return tag.rsplit("}", 1)[-1]


def write(el, out):
    name = local(el.tag)
    if name in DROPPED:
        return
    out.append("<" + name)
    for key, value in el.attrib.items():
        out.append(" %s=%s" % (local(key), quoteattr(value)))
    children = list(el)
    if not children:
        out.append("/>")
        return
    out.append(">")
    for child in children:
        write(child, out)
    out.append("</%s>" % name)


def main(path):
    root = ET.parse(path).getroot()
    print("<presets>")
    for preset in root:
        out = []
        write(preset, out)
        print("".join(out))
    print("</presets>")


if __name__ == "__main__":
    main(sys.argv[1])
