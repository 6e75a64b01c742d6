"""A record's key run up to its wrapped description (finder/field_lines.py, `_wrapped_under`):
a borderless price list whose descriptions wrap over two or three long lines (longer than a
field), its longest key set less than a column gap from the description column. MuPDF prints
that record's first line as one line, key and description's first line together, longer than
a block of fields' line; the line under it starts in the description column, and the line is
cut there all the same. Before, the run of rows broke at that line and the table was not
found at all (issue 13, zoo dev22 wrapped_body-394-en, page 1)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

EN = (("Item", "Details", "Share (%)", "Cost (USD)"),
      [("4417 Harbour View depot", ["Annual inspection of ventilation filters, with",
                                    "disposal of old parts, as agreed in the", "framework contract"],
        ("29.9%", "869,457")),
       ("7977 Bay Point line", ["Supply and installation of the loading dock",
                                "gate, outside opening hours"], ("13.0%", "142,588")),
       ("1157 Summit depot", ["Cleaning of the passenger lift, within five",
                              "working days, including parts and labour"], ("27.0%", "149,474")),
       ("980 Glenwood plant", ["Delivery of the loading dock gate, as agreed",
                               "in the framework contract"], ("75.6%", "937,321"))])
DE = (("Standort", "Leistung", "Anteil", "Kosten [EUR]"),
      [("2210 Westhafen Lagerhalle", ["Jährliche Prüfung der Lüftungsfilter mit",
                                      "Entsorgung der Altteile, wie im Rahmenvertrag",
                                      "vereinbart"], ("12,5 %", "48.210")),
       ("3187 Nordring Werk", ["Lieferung und Einbau des Rolltors an der",
                               "Laderampe, außerhalb der Öffnungszeiten"], ("31,0 %", "97.845")),
       ("845 Südpark Büro", ["Reinigung des Personenaufzugs innerhalb von",
                             "fünf Werktagen, einschließlich Material"], ("8,2 %", "15.330"))])
HU = (("Telephely", "Szolgáltatás leírása", "Arány", "Költség [Ft]"),
      [("6021 Nyugati kapu raktár", ["A szellőzőszűrők éves ellenőrzése a régi",
                                     "alkatrészek elszállításával, a keretszerződés",
                                     "szerint"], ("44,9%", "603 684")),
       ("1432 Déli ipartelep", ["A rakodókapu szállítása és beépítése a",
                                "nyitvatartási időn kívül"], ("13,3%", "881 367")),
       ("5590 Öböl üzem", ["A személyfelvonó tisztítása öt munkanapon",
                           "belül, az anyagköltséggel együtt"], ("26,0%", "475 780"))])


def _price_list(path: Path, table, size: float, figures: str, zebra: bool) -> Path:
    """A heading, a line of prose, a caption, and the list: keys at the left, descriptions a
    little more than a word space right of the longest key, the share and the cost right-aligned
    on the record's middle line (`figures` "middle": level between the two lines of a record of
    two) or on its last ("last"); every other record on a tint when `zebra`."""
    header, records = table
    doc = pymupdf.open()
    page = new_page(doc)
    left, lead = 60.0, 1.25 * size
    desc = left + max(width(k, size) for k, _, _ in records) + 0.55 * size
    share = desc + max(width(ln, size) for _, lines, _ in records for ln in lines) + 8 * size
    ends = (share, share + 9 * size)
    put(page, left, 60, "Maintenance 2024", 14, "bold")
    put(page, left, 84, "The figures below cover the reporting period and were checked in full.", 9)
    y = 120.0
    put(page, left, y, header[0], size, "bold")
    put(page, desc, y, header[1], size, "bold")
    for x, h in zip(ends, header[2:], strict=True):
        put(page, x, y, h, size, "bold", align="right")
    y += 2.2 * size
    for i, (key, lines, amounts) in enumerate(records):
        if zebra and i % 2 == 0:
            page.draw_rect(pymupdf.Rect(left - 3, y - size - 3, ends[1] + 3, y + (len(lines) - 1) * lead + 4),
                           color=None, fill=(0.92, 0.92, 0.92))
        put(page, left, y, key, size)
        for k, line in enumerate(lines):
            put(page, desc, y + k * lead, line, size)
        at = (len(lines) - 1) / 2 if figures == "middle" else len(lines) - 1.0
        for x, a in zip(ends, amounts, strict=True):
            put(page, x, y + at * lead, a, size, align="right")
        y += len(lines) * lead + 1.2 * size
    put(page, left, y + 20, "Sites opened during the year are included from their first full month.", 9)
    doc.save(path)
    return path


@pytest.mark.parametrize(("table", "size"), [(EN, 9.5), (DE, 8.5), (HU, 10.0)], ids=["en", "de", "hu"])
@pytest.mark.parametrize("figures", ["middle", "last"])
@pytest.mark.parametrize("zebra", [False, True], ids=["plain", "zebra"])
def test_a_key_run_up_to_its_wrapped_description_keeps_the_table(tmp_path: Path, table, size: float,
                                                                  figures: str, zebra: bool) -> None:
    """The list is one table, a row per record, the longest key and its description apart."""
    header, records = table
    (t,) = tables_of(_price_list(tmp_path / "list.pdf", table, size, figures, zebra))
    assert t.columns == header
    assert [tuple(r) for r in t.rows] == [(k, " ".join(lines), *amounts) for k, lines, amounts in records]
