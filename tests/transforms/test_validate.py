"""Table validation and the cascade's `validate` callback (issue 3 item 6)."""

from __future__ import annotations

from rowkeeper.config import TransformConfig
from rowkeeper.transforms.assemble import assemble_tables
from rowkeeper.transforms.validate import validate_pieces
from tests.transforms.builders import pages, raw_table

GOOD = [["Item", "Price"], ["A", "1,200"], ["B", "900"], ["C", "1,050"]]


def test_clean_piece_and_note_row_are_adequate() -> None:
    assert validate_pieces([raw_table(GOOD)]) == ()
    assert validate_pieces([raw_table([*GOOD, ["Note", "see text"]])]) == ()


def test_packed_rows_make_a_layer_inadequate() -> None:
    packed = [["Item", "Price"], ["A B C", "1,200 900 1,050"]]
    (problem,) = validate_pieces([raw_table(packed)])
    assert "hold several values" in problem and "1,200 900 1,050" in problem


def test_a_sentence_citing_figures_is_no_packed_row() -> None:
    """An assumptions table's cell names three figures in a sentence; a label with its row's
    figures packed in one cell is still packed."""
    sentences = [["Variable", "Assumption"],
                 ["Disposable income", "Annual changes range between -1.9% and 2.2% with a growth rate of 1.4%"]]
    assert validate_pieces([raw_table(sentences)]) == ()
    for packed in ("Total 1,200 900 1,050", "Vocational further education and training, not apprenticeship 79 935 55"):
        (problem,) = validate_pieces([raw_table([["Item", "Price"], ["Total", packed]])])
        assert "several values" in problem


def test_table_checks_list_failing_cells() -> None:
    grid = [["Item", "Price"], *[[f"r{i}", str(100 + i)] for i in range(8)], ["x", "n/v"], ["y", "abc"]]
    (t,) = assemble_tables("d" * 64, "x.pdf", [raw_table(grid)], [], pages(1), TransformConfig())
    checks = {c.name: c for c in t.validation.checks}
    assert t.column_types == ("text", "integer")
    assert not checks["type_conformity"].passed
    assert checks["type_conformity"].failures == ("r8c1='n/v' not integer", "r9c1='abc' not integer")
    assert checks["row_width"].passed and checks["header_present"].passed
    assert checks["merged_row_count"].passed


def test_a_grid_with_no_text_is_no_table() -> None:
    """A layer's empty reading of a drawing (kept as a page's best reject) emits nothing; the
    page's real table beside it is kept."""
    empty = raw_table([["", ""], ["", ""], ["", ""]], top=400.0, n=2)
    tables = assemble_tables("d" * 64, "x.pdf", [raw_table(GOOD), empty], [], pages(1), TransformConfig())
    assert [t.columns for t in tables] == [("Item", "Price")]
    assert len(tables[0].rows) == 3
