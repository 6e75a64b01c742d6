"""A letter-spaced Japanese header whose labels run into each other on one printed line
(`取 引 先 人 数 ( 人 )`): the finder's column edge falls between `(` and `人`, where MuPDF
ends a word (issue 13, zoo dev14 booktabs-248-ja). A cut that leaves a bracket open in one
label and closes it in the next breaks a label: the names are cut again by the columns' ink,
never inside a bracket (`取引先` | `人数(人)`)."""

from __future__ import annotations

import random
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

import rowkeeper

IPA = "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"
SIZE, SPACE = 8.5, 5.0
SITES = ["大阪事務所 882", "松山工場 373", "鹿児島工場 1383", "札幌倉庫 4957", "熊本倉庫 7408"]
PARTNERS = ["事務所", "センター", "支店", "工場", "倉庫"]


def _text(c: canvas.Canvas, x: float, top: float, s: str, space: float = 0.0, right: bool = False) -> None:
    w = pdfmetrics.stringWidth(s, "IPAGothic", SIZE) + space * len(s)
    t = c.beginText(x - (w if right else 0), 842 - top - SIZE)
    t.setFont("IPAGothic", SIZE)
    t.setCharSpace(space)
    t.textOut(s)
    c.drawText(t)


def _page(path: Path) -> list[list[str]]:
    """Sites, partners, head counts and costs under rules at the top, under the header and at
    the foot (booktabs); the header letter-spaced 5 pt, the counts' label set flush right and
    reaching left to the partners' label, one letter space apart."""
    pdfmetrics.registerFont(TTFont("IPAGothic", IPA))
    rnd = random.Random(248)
    c = canvas.Canvas(str(path), pagesize=(595, 842))
    _text(c, 60, 180, "表1エネルギー消費量")
    c.line(60, 842 - 210, 340, 842 - 210)
    _text(c, 62.5, 213, "施設", SPACE)
    _text(c, 131.2, 213, "取引先", SPACE)
    _text(c, 230.8, 213, "人数(人)", SPACE, right=True)
    _text(c, 303.2, 213, "費用(千円)", SPACE, right=True)
    c.line(60, 842 - 227, 340, 842 - 227)
    rows = []
    for i, (site, partner) in enumerate(zip(SITES, PARTNERS, strict=True)):
        top = 229 + 15.7 * i
        row = [site, partner, f"{rnd.randint(100, 999)},{rnd.randint(100, 999)}",
               f"{rnd.randint(10, 99)},{rnd.randint(100, 999)}.{rnd.randint(10, 99)}"]
        _text(c, 62.5, top, row[0])
        _text(c, 131.2, top, row[1])
        _text(c, 225.8, top, row[2], right=True)
        _text(c, 298.2, top, row[3], right=True)
        rows.append(row)
    c.line(60, 842 - (229 + 15.7 * len(SITES) + 2), 340, 842 - (229 + 15.7 * len(SITES) + 2))
    c.save()
    return rows


def test_labels_run_together_are_not_cut_inside_a_bracket(tmp_path: Path) -> None:
    rows = _page(tmp_path / "ja.pdf")
    (table,) = rowkeeper.extract(str(tmp_path / "ja.pdf")).tables
    assert table.columns == ("施設", "取引先", "人数(人)", "費用(千円)")
    assert [list(r) for r in table.rows] == rows

