"""The cascade: the pure verdict on hand-built tables, and the runner on generated PDFs."""

from __future__ import annotations

from pathlib import Path

from rowkeeper.config import ClassifyConfig, ExtractConfig
from rowkeeper.extractors.adequacy import CascadeChecks, assess, region_coverage
from rowkeeper.extractors.cascade import run_cascade
from rowkeeper.extractors.classify import classify_document
from rowkeeper.extractors.page_features import PageFeatures
from rowkeeper.models import Cell, RawTable, TextLine
from samples.pdfgen import DocSpec, Paragraph, build_pdf
from tests.extractors.helpers import doc_for

CHECKS = CascadeChecks()
GRID = PageFeatures(page=1, h_rules=8, v_rules=8, ruled_regions=((50, 100, 500, 300),))


def _table(grid: list[list[str]], bbox=(50.0, 100.0, 500.0, 300.0), **metrics: float) -> RawTable:
    cells = tuple(Cell(row=r, col=c, text=t) for r, row in enumerate(grid) for c, t in enumerate(row))
    return RawTable(piece_id="x:p1.1", doc_id="x", page=1, bbox=bbox, n_rows=len(grid),
                    n_cols=len(grid[0]), cells=cells, extractor="t", extractor_version="0",
                    metrics=metrics)


GOOD = [["Name", "Q1"], ["North", "1,200"], ["South", "2,340"]]


def test_good_table_on_its_grid_is_accepted() -> None:
    assert assess([_table(GOOD)], GRID, CHECKS).accepted


def test_grid_without_table_escalates() -> None:
    v = assess([], GRID, CHECKS)
    assert not v.accepted and "ruling grid" in v.reason


def test_quiet_page_without_table_is_fine() -> None:
    assert assess([], PageFeatures(page=1), CHECKS).accepted


def test_table_missing_the_grid_region_escalates() -> None:
    v = assess([_table(GOOD, bbox=(50, 600, 500, 700))], GRID, CHECKS)
    assert not v.accepted and "not covered" in v.reason


def test_sparse_and_ragged_tables_escalate() -> None:
    sparse = [["a", "", "", ""], ["", "", "", ""], ["", "", "b", ""]]
    assert "sparse" in assess([_table(sparse)], GRID, CHECKS).reason
    ragged = _table(GOOD).model_copy(update={"n_cols": 3})
    assert "inconsistent row widths" in assess([ragged], GRID, CHECKS).reason


def test_prose_in_a_box_escalates() -> None:
    prose = [["This is a sentence", ""], ["and another one", ""], ["and more", ""], ["x", "y"]]
    assert "text in a box" in assess([_table(prose)], None, CHECKS).reason


def test_a_region_read_twice_ranks_below_the_same_reading_once() -> None:
    """A totals block found alone and again inside the table around it: the same words in two
    tables is a flaw, so another layer's output without it ranks higher; a small table beside
    the big one, or inside it with words of its own, is none."""
    items = [["Item", "Amount"], ["Web design", "$85.00"], ["Sub Total", "$85.00"], ["Tax", "$8.50"]]
    big = _table(items)
    totals = _table([["Sub Total", "$85.00"], ["Tax", "$8.50"]], bbox=(250.0, 230.0, 500.0, 290.0))
    twice = assess([big, totals], GRID, CHECKS)
    assert not twice.accepted and "table 2: read again inside table 1" in twice.reason
    assert twice.score < assess([big], GRID, CHECKS).score
    beside = _table([["Sub Total", "$85.00"], ["Tax", "$8.50"]], bbox=(250.0, 320.0, 500.0, 380.0))
    assert "read again" not in assess([big, beside], GRID, CHECKS).reason
    own = _table([["Rate", "10%"], ["Tax", "$8.50"]], bbox=(250.0, 230.0, 500.0, 290.0))
    assert "read again" not in assess([big, own], GRID, CHECKS).reason


def test_camelot_metrics_count() -> None:
    v = assess([_table(GOOD, accuracy=60.0, whitespace=10.0)], GRID, CHECKS)
    assert not v.accepted and "accuracy" in v.reason


def _run(path: Path, validate=None, **cfg):
    doc = doc_for(path)
    pages = classify_document(doc, ClassifyConfig())
    return run_cascade(doc, pages, ExtractConfig(**cfg), validate)


def test_ruled_table_accepted_from_first_layer(pdf_dir: Path) -> None:
    result = _run(pdf_dir / "ruled.pdf")
    assert [(a.extractor, a.accepted) for a in result.attempts] == [("pymupdf", True)]
    assert result.tables[0].grid()[1][0] == "01-001"
    assert any(ln.text == "Table 1 Equipment prices" for ln in result.lines)


def test_failing_validation_escalates_and_is_recorded(pdf_dir: Path) -> None:
    def only_pdfplumber(tables):
        return [] if tables[0].extractor == "pdfplumber" else ["numeric column 3 does not parse"]

    result = _run(pdf_dir / "ruled.pdf", validate=only_pdfplumber)
    first, second = result.attempts[:2]
    assert (first.extractor, first.accepted) == ("pymupdf", False)
    assert "numeric column 3" in first.reason
    assert (second.extractor, second.accepted) == ("pdfplumber", True)
    assert result.tables[0].extractor == "pdfplumber"


def test_missing_layer_is_skipped_with_reason(pdf_dir: Path) -> None:
    result = _run(pdf_dir / "ruled.pdf", text_layers=("nosuch.module:Nope", "pymupdf"))
    assert result.attempts[0].reason.startswith("skipped:")
    assert result.attempts[1].accepted and result.tables


def test_page_without_candidate_skips_extractors(tmp_path: Path) -> None:
    path = tmp_path / "prose.pdf"
    path.write_bytes(build_pdf(DocSpec(blocks=[Paragraph("Plain words in a sentence. " * 40)])))
    result = _run(path)
    assert [a.extractor for a in result.attempts] == ["features"]
    assert result.tables == () and result.lines


def test_scanned_pages_go_to_scanned_layers(pdf_dir: Path) -> None:
    result = _run(pdf_dir / "ruled_scanned.pdf", scanned_layers=("nosuch.module:Ocr",))
    assert [(a.extractor, a.accepted) for a in result.attempts] == [("nosuch.module:Ocr", False)]
    assert result.tables == ()


def test_encrypted_with_config_password(pdf_dir: Path) -> None:
    doc = doc_for(pdf_dir / "ruled_encrypted.pdf")
    pages = classify_document(doc, ClassifyConfig(), ("secret",))
    result = run_cascade(doc, pages, ExtractConfig(passwords=("secret",)))
    assert result.tables[0].grid()[2][1] == "Office chair"


def test_a_framed_box_is_not_a_ruling_grid() -> None:
    from rowkeeper.extractors.page_features import ruled_regions

    box_h = [(50, 100, 300, 100), (50, 120, 300, 120)]
    box_v = [(50, 100, 50, 120), (300, 100, 300, 120)]
    assert ruled_regions(box_h, box_v) == []  # one framed line of text
    grid_h = box_h + [(50, 140, 300, 140)]
    grid_v = [(50, 100, 50, 140), (150, 100, 150, 140), (300, 100, 300, 140)]
    assert ruled_regions(grid_h, grid_v) == [(50, 100, 300, 140)]


def _line(x0: float, y0: float, text: str) -> TextLine:
    return TextLine(page=1, bbox=(x0, y0, x0 + 6 * len(text), y0 + 10), text=text)


def test_region_coverage_counts_the_regions_text_not_its_area() -> None:
    """Two blocks of fields far apart: one aligned region, mostly white space between them.
    Tables holding every line cover it; a table holding one block of the two does not."""
    region = (50.0, 100.0, 550.0, 160.0)
    feats = PageFeatures(page=1, aligned_rows=4, aligned_regions=(region,))
    lines = [_line(50, 100 + 15 * i, "Key value") for i in range(4)] + \
            [_line(430, 100 + 15 * i, "Key: longer value") for i in range(4)]
    left = _table(GOOD, bbox=(50.0, 100.0, 110.0, 160.0))
    right = _table(GOOD, bbox=(430.0, 100.0, 550.0, 160.0))
    assert region_coverage(region, [left, right]) < CHECKS.min_region_coverage  # by area
    assert assess([left, right], feats, CHECKS, lines).accepted
    v = assess([left], feats, CHECKS, lines)
    assert not v.accepted and "not covered" in v.reason


def test_blocks_of_fields_apart_are_read_by_the_first_layer(tmp_path: Path) -> None:
    """A form's two blocks of fields at the page's two edges: the own finder reads two tables
    and the cascade accepts them (by area they covered under half their aligned region)."""
    import pymupdf

    from tests.extractors.finder.layout import new_page, put

    left = [("Kunde", "Hans Meier"), ("Adresse", "Hauptstr. 5"), ("Telefon", "030 123456"), ("Kunden-Nr.", "K-2231")]
    right = [("Angebot-Nr.", "A-2026-118"), ("Datum", "01.12.2026"), ("Gültig bis", "31.12.2026"),
             ("Bearbeiter", "S. Wolf")]
    doc = pymupdf.open()
    page = new_page(doc)
    for i, ((k1, v1), (k2, v2)) in enumerate(zip(left, right, strict=True)):
        put(page, 60, 120 + 15 * i, k1, face="bold")
        put(page, 120, 120 + 15 * i, v1)
        put(page, 400, 120 + 15 * i, k2, face="bold")
        put(page, 470, 120 + 15 * i, v2)
    path = tmp_path / "fields.pdf"
    doc.save(path)
    result = _run(path)
    assert [a.extractor for a in result.attempts if a.accepted] == ["pymupdf"]
    assert [[tuple(r) for r in t.grid()] for t in result.tables] == [left, right]


def test_a_table_that_leaves_its_label_column_out_does_not_cover_its_region() -> None:
    """The figures hold most of the region's characters, but a column of labels lies outside
    the table: counted by text it is most of the region, not nearly all of it."""
    region = (50.0, 100.0, 550.0, 190.0)
    feats = PageFeatures(page=1, aligned_rows=6, aligned_regions=(region,))
    lines = [ln for i in range(6) for ln in (_line(50, 100 + 15 * i, "Staff travel"),
                                              _line(300, 100 + 15 * i, "1,314,000"),
                                              _line(420, 100 + 15 * i, "373,250"))]
    figures = _table(GOOD, bbox=(300.0, 100.0, 520.0, 190.0))
    v = assess([figures], feats, CHECKS, lines)
    assert not v.accepted and "not covered" in v.reason
