"""Text chunks: paragraphs under their section path, never a table row, never two sections."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rowkeeper.config import ChunkConfig
from rowkeeper.models import Region, Table, TextLine
from rowkeeper.transforms.text_chunks import chunk_text

TABLE = Table(doc_id="t" * 64, source="t.pdf", table_id="tttttttttttt:t1", pages=(1,),
              regions=(Region(page=1, bbox=(50, 300, 545, 400)),), caption="Table 1 Fees",
              header_rows=1, columns=("Fee", "Amount"), rows=(("Entry", "10"),))


def _line(page: int, top: float, text: str, size: float = 10, bold: bool = False) -> TextLine:
    return TextLine(page=page, bbox=(50, top, 50 + 5 * len(text), top + size * 1.2), text=text,
                    font_size=size, bold=bold)


def _doc() -> list[TextLine]:
    return [
        _line(1, 60, "1. Fees", 14, True),
        _line(1, 90, "Fees are charged monthly."),
        _line(1, 105, "They are due on the first day."),
        _line(1, 285, "Table 1 Fees", 10, True),
        _line(1, 320, "Entry"), _line(1, 340, "10"),  # table cells: inside the region
        _line(1, 420, "Late payment adds a surcharge."),
        _line(1, 460, "2. Deposits", 14, True),
        _line(1, 490, "Deposits are refunded at the end."),
        _line(1, 810, "- 1 -", 8), _line(2, 810, "- 2 -", 8),
    ]


def test_paragraphs_carry_their_section_and_stop_at_the_table() -> None:
    chunks = chunk_text("t" * 64, "t.pdf", _doc(), [TABLE], ChunkConfig())
    assert [c.text for c in chunks] == [
        "1. Fees\nFees are charged monthly. They are due on the first day.",
        "1. Fees\nLate payment adds a surcharge.",
        "2. Deposits\nDeposits are refunded at the end.",
    ]
    assert chunks[0].metadata["section_path"] == ["1. Fees"] and chunks[0].table_id is None
    assert chunks[0].chunk_id == "tttttttttttt:x1" and chunks[0].metadata["pages"] == [1]


def test_a_long_paragraph_is_cut_at_sentences_within_the_budget() -> None:
    lines = [_line(1, 60, "1. Terms", 14, True)] + [
        _line(1, 80 + 14 * i, f"Sentence number {i} is here.") for i in range(30)]
    chunks = chunk_text("t" * 64, "t.pdf", lines, [], ChunkConfig(text_max_chars=120))
    assert len(chunks) > 5 and all(len(c.text) <= 120 for c in chunks)
    assert all(c.text.startswith("1. Terms\n") for c in chunks)
    assert "Sentence number 29 is here." in chunks[-1].text


_words = st.lists(st.sampled_from(["alpha", "beta", "gamma", "delta", "ep", "zeta."]), min_size=1,
                  max_size=8).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 1), _words), min_size=1, max_size=30),
       st.integers(30, 400))
def test_no_chunk_holds_a_table_line_or_mixes_sections(spec: list[tuple[bool, int, str]],
                                                       budget: int) -> None:
    lines, top = [], 40.0
    for n, (heading, in_table, words) in enumerate(spec):
        text = f"H{n}" if heading else (f"CELL{n}" if in_table else words)
        if in_table:
            lines.append(TextLine(page=1, bbox=(60, 330, 120, 340), text=text, font_size=10))
            continue
        lines.append(_line(1, top if top < 290 or top > 410 else 420, text, 14 if heading else 10,
                           heading))
        top += 16
    chunks = chunk_text("t" * 64, "t.pdf", lines, [TABLE], ChunkConfig(text_max_chars=budget))
    # A page of headings only keeps them as text (no page loses all its text to the rule)
    only_headings = all(heading for heading, in_table, _ in spec if not in_table)
    for c in chunks:
        assert "CELL" not in c.text
        body = c.text.split("\n", 1)[-1] if c.metadata["section_path"] else c.text
        assert only_headings or not any(w.startswith("H") and w[1:].isdigit() for w in body.split())


@given(st.text(alphabet=st.sampled_from(" \t\n\r\x0b\x0c\x1c\x85\xa0\u2003\u3000\u200bab一"), max_size=40))
def test_clean_joins_every_run_of_blanks_as_the_regex_did(text: str) -> None:
    """clean() (str.split) gives what `re.sub(r"\\s+", " ", text).strip()` gave, for every
    kind of Unicode blank (no-break, ideographic, em space; a zero-width space is no blank)."""
    import re

    from rowkeeper.transforms.table_text import clean

    assert clean(text) == re.sub(r"\s+", " ", text).strip()
