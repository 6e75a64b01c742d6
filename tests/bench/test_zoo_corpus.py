"""The layout zoo's generator: its size and splits, determinism, and truth that is on the page."""

from __future__ import annotations

import re
from collections import Counter

import pymupdf
import pytest

from bench.zoo.content import LANGS
from bench.zoo.corpus import TUNE_ONLY, build, plan
from bench.zoo.families import FAMILIES


def test_plan_has_300_documents_15_families_5_languages_in_even_splits():
    docs = plan()
    assert len(docs) >= 300
    assert len({d.family for d in docs}) >= 15
    assert {d.lang for d in docs} == {"en", "de", "hu", "vi", "ja"}
    splits = Counter((d.family, d.split) for d in docs)
    assert all(splits[(f, "dev")] == splits[(f, "test")] for f in FAMILIES)
    for split in ("dev", "test"):  # every language in every split
        assert {d.lang for d in docs if d.split == split} == {"en", "de", "hu", "vi", "ja"}


def test_the_second_seed_range_adds_dev2_and_holdout_and_leaves_dev_and_test_alone():
    base, every = plan(), plan(extra=True)
    assert [d for d in every if d.split in ("dev", "test")] == base
    fresh = [d for d in every if d.split in ("dev2", "holdout")]
    assert len(fresh) == len(base)
    assert not {d.doc for d in fresh} & {d.doc for d in base}
    assert not {d.seed for d in fresh} & {d.seed for d in base}
    splits = Counter((d.family, d.split) for d in fresh)
    assert all(splits[(f, "dev2")] == splits[(f, "holdout")] for f in FAMILIES)


def test_dev3_is_a_third_seed_range_twice_dev_and_changes_no_other_split():
    every, with_dev3 = plan(extra=True), plan(extra=True, tune_only=("dev3",))
    assert [d for d in with_dev3 if d.split != "dev3"] == every
    dev3 = [d for d in with_dev3 if d.split == "dev3"]
    assert len(dev3) == 2 * sum(d.split == "dev" for d in every)
    assert not {d.seed for d in dev3} & {d.seed for d in every}
    assert {(d.family, d.lang) for d in dev3} == {(f, lang) for f in FAMILIES for lang in LANGS}


def test_a_seed_gives_the_same_pdf_and_truth():
    d1, d2 = plan()[5], plan()[5]
    assert build(d1) == build(d2)
    assert d1.to_json() == d2.to_json()


def _squash(s: str) -> str:
    return re.sub(r"\s+", "", s)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_truth_cell_column_and_caption_is_printed(family):
    """The truth is what the page shows: each non-empty cell, column name and caption occurs
    in the page text of the table's pages (spaces aside)."""
    truth = next(d for d in plan() if d.family == family)
    pdf = pymupdf.open(stream=build(truth))
    assert len(pdf) == truth.pages and truth.tables
    for t in truth.tables:
        text = _squash("".join(pdf[p - 1].get_text() for p in t.pages))
        # a folded name's parts are printed on different header rows
        cells = [c for r in t.rows for c in r if c] + [w for c in t.columns for w in c.split()]
        missing = [c for c in cells if _squash(c) not in text]
        assert not missing, f"{t.table}: {missing[:5]}"
        assert _squash(t.caption) in text
        assert len(t.columns) == len(t.column_types) and all(len(r) == len(t.columns) for r in t.rows)


def test_spanner_columns_are_folded_and_headerless_tables_have_empty_names():
    spanner = next(d for d in plan() if d.family == "spanner")
    build(spanner)
    cols = spanner.tables[0].columns
    assert cols[0] and all(" " in c for c in cols[1:])  # "BLEU EN-DE", "Revenue 2024"
    kv = next(d for d in plan() if d.family == "headerless_kv")
    build(kv)
    assert set(kv.tables[0].columns) == {""} and kv.tables[0].header_rows == 0


def test_long_tables_span_pages_and_rotated_pages_carry_rotate():
    long = next(d for d in plan() if d.family == "long_repeated_header")
    build(long)
    assert len(long.tables[0].pages) >= 2
    rotated = next(d for d in plan() if d.family == "rotated_page")
    page = pymupdf.open(stream=build(rotated))[0]
    assert page.rotation in (90, 270)


def test_letter_spacing_stays_on_its_own_line():
    """A letter-spaced CJK header must not space out the lines drawn after it."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from bench.zoo.fonts import Face, register
    from bench.zoo.layout import Flow, PageSetup

    buf = io.BytesIO()
    face = Face(register("IPAGothic"), register("IPAGothic"), 10)
    flow = Flow(Canvas(buf, invariant=1), PageSetup(page_numbers=False), face)
    flow.text(60, 100, "施設種類", face.regular, 10, char_space=6)
    flow.text(60, 130, "札幌倉庫", face.regular, 10)
    flow.canvas.showPage()
    flow.canvas.save()
    words = [w[4] for w in pymupdf.open(stream=buf.getvalue())[0].get_text("words")]
    assert "札幌倉庫" in words


def test_some_captions_wrap_and_none_runs_past_its_column():
    """Captions are set over several lines in some documents (the truth is the whole caption),
    and never run past their text column into the next one."""
    wrapped = 0
    for truth in [d for d in plan() if d.family in ("two_column", "stacked")][:30]:
        pdf = pymupdf.open(stream=build(truth))
        for t in truth.tables:
            if not t.caption:
                continue
            page = pdf[t.pages[0] - 1]
            lines = [ln for b in page.get_text("dict")["blocks"] for ln in b.get("lines", ())]
            texts = ["".join(s["text"] for s in ln["spans"]) for ln in lines]
            # the longest line the caption starts with (a page number "1" starts "1. táblázat" too)
            first = max((ln for ln, x in zip(lines, texts, strict=True) if x.strip() and t.caption.startswith(x.strip())),
                        key=lambda ln: len("".join(s["text"] for s in ln["spans"])))
            wrapped += _squash(t.caption) != _squash("".join(s["text"] for s in first["spans"]))
            if truth.family == "two_column":  # within its column: left of the page's middle, or right of it
                mid = page.rect.width / 2
                assert first["bbox"][2] <= mid + 1 or first["bbox"][0] >= mid - 1
    assert wrapped >= 3


def test_dev4_is_a_fourth_seed_range_apart_from_every_other():
    every, tuned = plan(extra=True), plan(extra=True, tune_only=("dev3", "dev4"))
    assert [d for d in tuned if d.split not in ("dev3", "dev4")] == every
    dev3 = {d.seed for d in tuned if d.split == "dev3"}
    dev4 = [d for d in tuned if d.split == "dev4"]
    assert len(dev4) == len(dev3)
    assert not {d.seed for d in dev4} & (dev3 | {d.seed for d in every})
    assert {(d.family, d.lang) for d in dev4} == {(f, lang) for f in FAMILIES for lang in LANGS}


@pytest.mark.parametrize("split", TUNE_ONLY[2:])
def test_each_later_draw_is_a_seed_range_apart_from_every_other(split: str):
    everything = plan(extra=True, tune_only=TUNE_ONLY)
    earlier = {d.seed for d in everything if d.split != split}
    draw = [d for d in everything if d.split == split]
    assert len(draw) == 2 * len(FAMILIES) * 9
    assert not {d.seed for d in draw} & earlier
    assert {(d.family, d.lang) for d in draw} == {(f, lang) for f in FAMILIES for lang in LANGS}


def test_no_word_of_a_prose_beside_table_document_runs_off_the_page():
    """A caption over a table set beside prose wraps inside the margin: the truth names text the
    page shows (v9 set a long caption over a right-hand table in one line, off the page edge)."""
    docs = [d for d in plan(extra=True, tune_only=TUNE_ONLY) if d.family == "borderless_prose"]
    off = []
    for truth in docs:
        for page in pymupdf.open(stream=build(truth)):
            off += [(truth.doc, w[4]) for w in page.get_text("words") if w[2] > page.rect.x1 or w[0] < 0]
    assert len(docs) >= 200 and not off
