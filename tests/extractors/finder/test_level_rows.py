"""The aligned-runs pass skipped where no subset of a page's lines can make three rows of two
segments (finder/level_rows.py): the skip never changes what the pass finds."""

from __future__ import annotations

from pathlib import Path

import pymupdf
from hypothesis import given, settings
from hypothesis import strategies as st

from rowkeeper.config import load_config
from rowkeeper.extractors.finder.level_rows import _segments_at_most, joiners, no_aligned_rows
from rowkeeper.extractors.finder.text_runs import aligned_regions
from rowkeeper.extractors.page_model import PageModel
from rowkeeper.flows.pipeline import load_document, process_document
from rowkeeper.models import TextLine
from tests.extractors.finder.layout import new_page, put

PROSE = ("The tenant pays the service charge for the building every quarter in advance, "
         "and the owner keeps a reserve for repairs of the roof and the facade.")


def _lines(path: Path) -> tuple[TextLine, ...]:
    with pymupdf.open(path) as pdf:
        return PageModel(pdf[0], 1).lines


def _prose_page(path: Path) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 60, "Handbook", 9)
    put(page, 480, 60, "Page 3", 9)  # a running head beside the title: one level pair
    put(page, 72, 90, "3. Service charges", 14, "bold")
    for i in range(20):
        put(page, 72, 120 + 14 * i, PROSE[:88] if i % 2 else PROSE[88:] + " The committee meets.")
    doc.save(path)
    return path


def _table_page(path: Path) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 90, "Table 1 Fees per property", 11, "bold")
    rows = [("Property", "Fee", "Reserve"), ("Sun Heights", "13,000", "11,500"),
            ("Oak Court", "9,200", "8,100"), ("Lake View", "7,400", "6,900"), ("Hill Park", "5,100", "4,300")]
    for i, (name, fee, reserve) in enumerate(rows):
        put(page, 72, 120 + 15 * i, name)
        put(page, 300, 120 + 15 * i, fee, align="right")
        put(page, 420, 120 + 15 * i, reserve, align="right")
    doc.save(path)
    return path


def test_a_prose_page_skips_the_pass_and_still_has_no_table(tmp_path: Path) -> None:
    path = _prose_page(tmp_path / "prose.pdf")
    lines = _lines(path)
    assert no_aligned_rows(lines)
    assert aligned_regions(lines) == ([], 0, 0)
    result = process_document(load_document(str(path)), load_config())
    assert result.tables == ()
    assert [a.extractor for a in result.document.attempts] == ["features"]  # no layer ran
    assert any("service charge for the building" in c.text for c in result.chunks)


def test_a_borderless_table_page_runs_the_pass_and_finds_its_table(tmp_path: Path) -> None:
    path = _table_page(tmp_path / "table.pdf")
    assert not no_aligned_rows(_lines(path))
    (table,) = process_document(load_document(str(path)), load_config()).tables
    assert table.columns == ("Property", "Fee", "Reserve")
    assert table.rows[0] == ("Sun Heights", "13,000", "11,500")


def test_a_line_with_a_wide_gap_counts_as_many_segments() -> None:
    line = TextLine(page=1, bbox=(72.0, 100.0, 400.0, 110.0), text="Net sales    1,200    1,150")
    assert joiners([line]) >= 3  # the pass splits it in three: never skipped on a bound too low


def test_figures_in_full_width_digits_count_as_their_segments() -> None:
    """Figures set a word apart in any digits split like ASCII ones (close_figures), so the
    bound counts them: full-width "１２.５ ３４.０" is two segments, not one."""
    for text in ("１２.５ ３４.０", "٣٤.٥ ٥٦.٧", "(1,200) 3,400"):
        line = TextLine(page=1, bbox=(72.0, 100.0, 160.0, 110.0), text=text)
        assert _segments_at_most(line) >= 2, text


_words = st.sampled_from(["Fee", "Total", "1,200", "(3,400)", "12.5%", "rent", "the owner pays",
                          "Net  sales", "4 973 160", "1,127,814 (240,082)", "Notes....... 12",
                          "１２.５ ３４.０", "٣٤.٥ ٥٦.٧"])


@st.composite
def _layouts(draw: st.DrawFn) -> list[TextLine]:
    out = []
    for _ in range(draw(st.integers(0, 14))):
        x = draw(st.floats(40, 500))
        y = draw(st.sampled_from([100.0, 103.0, 104.5, 112.0, 114.0, 126.0, 140.0, 141.0, 155.0]))
        h = draw(st.sampled_from([1.0, 6.0, 9.0, 12.0]))
        text = draw(_words)
        out.append(TextLine(page=1, bbox=(x, y, x + 6 * len(text), y + h), text=text, font_size=9.0))
    return out


@settings(max_examples=300, deadline=None)
@given(_layouts())
def test_whenever_the_bound_skips_the_pass_the_pass_finds_nothing(lines: list[TextLine]) -> None:
    if no_aligned_rows(lines):
        assert aligned_regions(lines) == ([], 0, 0)
