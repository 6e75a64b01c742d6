"""Header labels set close over a scanned table's columns: a run read over several columns is
cut at them, also where the recogniser dropped the space at the column gap (run_cuts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.run_cuts import cut_at_columns, parted
from rowkeeper.ids import sha256_file
from rowkeeper.models import DocumentInput


def _run(text: str, words: list[tuple[str, float, float]]) -> OcrBox:
    return OcrBox(text, (words[0][1] - 4, 100.0, words[-1][2] + 4, 140.0), 0.9, tuple(words))


def test_two_labels_read_as_one_word_are_parted_at_the_column_gap() -> None:
    """"(EUR)Leistung" over the gap between two figure columns: parted after the bracket, each
    label's half in the column it stands over."""
    cols = [(619.0, 732.0), (858.0, 971.0), (1079.0, 1218.0)]
    run = _run("Budget (EUR)Leistung (kW)Menge (Stück)",
               [("Budget", 517, 628), ("(EUR)Leistung", 640, 885), ("(kW)Menge", 897, 1093), ("(Stück)", 1106, 1217)])
    assert [p.text for p in cut_at_columns(run, cols)] == ["Budget (EUR)", "Leistung (kW)", "Menge (Stück)"]


def test_a_word_without_a_join_at_the_gap_stays_whole() -> None:
    """A word inside one column, and two figures read as one word that part as figures only
    far from the gap, are not parted; two figures that part at the gap are
    (`fused_figures.fused_at`)."""
    cols = [(100.0, 300.0), (400.0, 600.0)]
    fused = OcrBox("8.819.62822.485", (90, 0, 610, 40), 0.9, (("8.819.62822.485", 100, 600),))
    assert [w.text for w in parted(fused, cols)] == ["8.819.628", "22.485"]
    assert [w.text for w in parted(fused, [(100.0, 150.0), (200.0, 600.0)])] == ["8.819.62822.485"]
    inside = OcrBox("(EUR)Budget", (90, 0, 300, 40), 0.9, (("(EUR)Budget", 100, 290),))
    assert [w.text for w in parted(inside, cols)] == ["(EUR)Budget"]


def test_close_header_labels_of_a_scanned_zoo_table_head_their_own_columns(tmp_path: Path) -> None:
    """The first page of a long table whose bold header labels, wider than the figures under
    them, stand one space apart: the recogniser reads "(EUR)Leistung" and "(kW)Menge" as
    words, and each label still heads the column it stands over (the zoo's dev11
    long_repeated_header-185-de, its scanned twin's first page)."""
    pytest.importorskip("rapidocr")
    from bench.zoo.corpus import build, plan
    from bench.zoo.scan import twin
    from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions

    d = next(d for d in plan(tune_only=("dev11",)) if d.doc == "long_repeated_header-185-de")
    path = tmp_path / "scan.pdf"
    path.write_bytes(twin(build(d), d.seed))
    doc = DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path))
    tables = OcrExtractor(OcrOptions()).extract(doc, [1]).tables
    assert [t.grid()[0] for t in tables] == [["Standort", "Budget (EUR)", "Leistung (kW)", "Menge (Stück)", "Umsatz (EUR)"]]


def test_a_cjk_word_over_two_columns_is_parted_at_the_gap() -> None:
    """Two CJK labels read as one word over two columns ("人数日付" over a figure column and a
    date column) part where the gap stands; a CJK word inside one column stays whole."""
    cols = [(1089.0, 1148.0), (1250.0, 1380.0), (1440.0, 1620.0)]
    glued = OcrBox("人数日付", (1236, 195, 1385 + 200, 233), 1.0, (("人数日付", 1250, 1550),))
    assert [p.text for p in cut_at_columns(glued, cols)] == ["人数", "日付"]
    one = OcrBox("名古屋工場", (1236, 195, 1385, 233), 1.0, (("名古屋工場", 1250, 1377),))
    assert [p.text for p in cut_at_columns(one, cols)] == ["名古屋工場"]


def test_a_word_over_a_gap_goes_with_the_label_it_stands_nearer() -> None:
    """Two labels wider than their right-aligned figure columns, one word space inside each and
    a wider blank between them ("Số lượng  Tỷ trọng"): "Tỷ", over the gap, stands on no
    footprint and goes with "trọng", the word it stands nearer, not with the label before it."""
    cols = [(1147.0, 1248.0), (1321.0, 1390.0)]
    run = _run("Số lượng Tỷ trọng", [("Số", 1128, 1161), ("lượng", 1172, 1248), ("Tỷ", 1271, 1305), ("trọng", 1314, 1390)])
    assert [p.text for p in cut_at_columns(run, cols)] == ["Số lượng", "Tỷ trọng"]
