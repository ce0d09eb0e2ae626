#!/usr/bin/env python3
"""Writes glyphs.js: the outlines of the characters the board draws (pieces and river), so the
page looks the same with no Chinese font installed. Outlines from Noto Serif CJK TC Bold (SIL
Open Font License 1.1, see OFL.txt beside this file); Debian's fonts-noto-cjk, pip's fonttools:

    python3 src/serve/assets/make_glyphs.py /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc

Each outline is centred on (0, 0), 1 unit = 1/1000 em scaled to SIZE, y down as in SVG."""
import sys
from fontTools.ttLib import TTCollection
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen

CHARS = "帥仕相傌俥炮兵將士象馬車砲卒楚河漢界"
SIZE = 1000 // 20  # the outline of a 1000-unit em becomes 50 board units wide


def main(path):
    fonts = TTCollection(path).fonts
    font = next(f for f in fonts if "TC" in f["name"].getDebugName(1))
    glyphs = font.getGlyphSet()
    cmap = font.getBestCmap()
    scale = SIZE / 1000
    lines = []
    for ch in CHARS:
        name = cmap[ord(ch)]
        pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:.1f}".rstrip("0").rstrip("."))
        # Em box -120..880 vertically, 0..1000 across: centre (500, 380), flip y.
        glyphs[name].draw(TransformPen(pen, (scale, 0, 0, -scale, -500 * scale, 380 * scale)))
        lines.append(f'  "{ch}": "{pen.getCommands()}",')
    with open(__file__.replace("make_glyphs.py", "glyphs.js"), "w") as out:
        out.write("// Made by make_glyphs.py from Noto Serif CJK TC Bold (SIL OFL 1.1, OFL.txt): the\n")
        out.write("// outlines of the board's characters, centred on (0, 0), 50 units to the em.\n")
        out.write('"use strict";\nconst GLYPHS = {\n' + "\n".join(lines) + "\n};\n")


main(sys.argv[1])
