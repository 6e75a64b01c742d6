"""The exporter bench's HTML documents and their truth: the table as its markup declares it
(no browser needed: the truth is read from the markup, not from a PDF)."""

from __future__ import annotations

import random
from collections import Counter

from bench.exporters.corpus import plan
from bench.exporters.html_doc import HCell, HTable, lines_cell, plain, table_html, truth
from bench.exporters.shapes import SHAPES
from bench.zoo.content import LANGUAGES


def test_plan_splits_every_shape_evenly_over_dev_and_test_in_every_language() -> None:
    docs = plan()
    per = Counter((d["shape"], d["split"]) for d in docs)
    assert all(per[(s, "dev")] == per[(s, "test")] == 5 for s in SHAPES)
    assert {d["lang"] for d in docs if d["split"] == "dev"} == {"en", "de", "hu", "vi", "ja"}
    assert plan() == docs  # seeded


def test_two_header_levels_fold_and_spans_repeat_their_text() -> None:
    head = [[plain("Site", True, rowspan=2), plain("2024", True, colspan=2)],
            [plain("Q1", True), plain("Q2", True)]]
    body = [[plain("North", rowspan=2), plain("1"), plain("2")], [plain("3"), plain("4")],
            [plain("South"), plain("n/a", colspan=2)]]
    t = truth(HTable(head, body, ["text", "integer", "integer"], caption="Table 1: Sales"))
    assert t["columns"] == ["Site", "2024 Q1", "2024 Q2"]
    assert t["rows"] == [["North", "1", "2"], ["North", "3", "4"], ["South", "n/a", "n/a"]]
    assert t["caption"] == "Table 1: Sales" and t["header_rows"] == 2


def test_a_cells_lines_join_with_a_space_but_not_inside_japanese() -> None:
    assert lines_cell(["Lakeside", "Redwood"], "").text == "Lakeside Redwood"
    assert lines_cell(["金沢", "高松"], "").text == "金沢高松"
    assert lines_cell(["容積", "(m3)"], "").text == "容積(m3)"
    assert lines_cell(["札幌倉庫 52", "金沢"], "").text == "札幌倉庫 52 金沢"


def test_every_shape_writes_a_table_whose_truth_has_a_name_per_column() -> None:
    for name, shape in SHAPES.items():
        doc = shape(LANGUAGES["de"], random.Random(7))
        tables = [b for b in doc.blocks if isinstance(b, HTable)]
        assert tables, name
        for t in tables:
            tr = truth(t)
            assert all(len(r) == len(tr["columns"]) for r in tr["rows"]), name
            assert "<table" in table_html(t) and isinstance(t.body[0][0], HCell)
