"""The zoo families after generator v10 (merged cells, wrapped body cells, group label rows):
their truth follows the CONTRACT and the page, and no document of an older family changed."""

from __future__ import annotations

import hashlib
import json
import random

import pymupdf
import pytest

from bench.zoo.cell_families import _wrapped_rows
from bench.zoo.corpus import build, plan
from bench.zoo.doc import Builder, TruthDoc
from bench.zoo.families import FAMILIES
from bench.zoo.fonts import pick_face
from bench.zoo.layout import PageSetup
from bench.zoo.table import HeaderCell

NEW = ("merged_cells", "wrapped_body", "group_rows")


def _builder(lang: str, seed: int = 7) -> Builder:
    rng = random.Random(seed)
    truth = TruthDoc(doc=f"t-{lang}", family="test", lang=lang, split="dev", seed=seed)
    return Builder(truth, rng, PageSetup(page_numbers=False), pick_face(lang, rng, (9.0,)))


def test_a_merged_cell_is_drawn_once_and_its_truth_repeated_into_every_row_and_column():
    b = _builder("en")
    body = [["Hospitalisation", "per day", "$120", "10.0%"],
            ["Hospitalisation", "surgery", "$5,000", "20.0%"],
            ["Hospitalisation", "outpatient", "included", "included"],
            ["Dental", "fillings", "$300", "30.0%"]]
    spec = b.spec([[HeaderCell(n) for n in ("Benefit", "Item", "Limit", "Co-payment")]], body,
                  ["l", "l", "r", "r"], style="grid", spans={(0, 0): (3, 1), (2, 2): (1, 2)},
                  span_middle=True, size=9.0, pad_y=3.0)
    t = b.table(spec, ["text", "text", "currency", "percent"], caption=None)
    page = pymupdf.open(stream=b.finish())[0]
    assert [r[0] for r in t.rows] == ["Hospitalisation"] * 3 + ["Dental"]
    assert t.rows[2][2:] == ["included", "included"]
    words = [w[4] for w in page.get_text("words")]
    assert words.count("Hospitalisation") == 1 and words.count("included") == 1
    # centred in its three rows, between "surgery"'s top and bottom; no rule crosses it
    label = page.search_for("Hospitalisation")[0]
    rows = [page.search_for(x)[0] for x in ("per day", "surgery", "outpatient")]
    assert rows[0].y1 < label.y0 and label.y1 < rows[2].y0
    across = [d for d in page.get_drawings() for it in d["items"] if it[0] == "l"
              and abs(it[1].y - it[2].y) < 0.1 and it[1].x <= label.x0 < it[2].x
              and rows[0].y0 < it[1].y < rows[2].y1]
    assert not across


def test_the_merged_cells_family_repeats_a_category_over_its_items():
    docs = [d for d in plan() if d.family == "merged_cells" and d.split == "dev"]
    repeated = 0
    for d in docs:
        pdf = pymupdf.open(stream=build(d))
        for t in d.tables:
            text = "".join(pdf[g["page"] - 1].get_text(clip=g["bbox"]) for g in t.regions)
            firsts = [r[0] for r in t.rows]
            for a, z in zip(firsts, firsts[1:], strict=False):
                if a == z:  # the label shows once on the page for the run of rows it covers
                    repeated += 1
            for label in set(firsts):
                assert text.count(label) < firsts.count(label) or firsts.count(label) == 1
    assert repeated >= 20


@pytest.mark.parametrize("lang", ["en", "ja", "vi"])
def test_a_wrapped_cell_is_one_string_joined_as_the_zoo_joins_lines(lang):
    b = _builder(lang)
    body = [[f"K{i}", "", "1,000"] for i in range(4)]
    spec = b.spec([[HeaderCell(n) for n in ("Item", "Description", "Price")]], body,
                  ["l", "l", "r"], style="rows", valign="bottom", valign_cols=frozenset({2}))
    _wrapped_rows(b, spec, 1, 4)
    drawn = [row[1].split("\n") for row in spec.body]
    t = b.table(spec, ["text", "text", "integer"], caption=None)
    page = pymupdf.open(stream=b.finish())[0]
    assert sum(2 <= len(lines) <= 4 for lines in drawn) >= 3
    sep = "" if lang == "ja" else " "
    floor = 0.0  # rows top-down: each line is the first match under the line before it
    for lines, row in zip(drawn, t.rows, strict=True):
        assert "\n" not in row[1] and row[1] == sep.join(lines)
        tops = []
        for line in lines:
            floor = min(r.y0 for r in page.search_for(line) if r.y0 > floor + 1)
            tops.append(floor)
        # the amount sits on the last line of the row (valign bottom)
        price = page.search_for("1,000")
        assert any(abs(p.y0 - tops[-1]) < 1 for p in price) or len(lines) == 1


def test_group_label_rows_are_the_label_and_empty_cells():
    docs = [d for d in plan() if d.family == "group_rows" and d.split == "dev"]
    for d in docs:
        build(d)
        t = d.tables[0]
        labels = [r for r in t.rows if r[0] and not any(r[1:])]
        assert len(labels) >= 2 and t.rows[0] in labels


def test_new_families_are_appended_and_draw_every_language_in_dev():
    assert tuple(FAMILIES)[-3:] == NEW
    for family in NEW:
        dev = [d for d in plan() if d.family == family and d.split == "dev"]
        assert len(dev) == 9 and {d.lang for d in dev} == {"en", "de", "hu", "vi", "ja"}


# (name, sha256 of the PDF, of its truth JSON) as generator v10 at e0f15df wrote them, before
# the families above were appended; bench/zoo_unchanged.py compares every document the same way
BASE = (("ruled_grid-04-en", "0515b34e20572dd2651130bac2438368b58ccfa1265655f94fc8454551a74b2f",
         "891e24fd65d038abd844d78145568507f4b0be9cead5cad7eaf13fb7e29b422d"),
        ("slide-17-de", "606b2ad243bd6865bda697ce92800ceaed3d04afc416ccc9d1fa4ca899fde0dd",
         "44d8b6016649a9fe1ea11aa73b3db6a7d4a9b3a28b865be96f6af0ee2446030b"),
        ("form-290-ja", "4174c5f7e1bb535f4d4d5522ea600bc6bb448e9f01986010129c016d7f392d01",
         "2cb0d70748aa71faa84456ae1b7019c0b720e8f911b3ee260ebc37bf09d2a598"))


@pytest.mark.parametrize(("name", "pdf_sha", "truth_sha"), BASE)
def test_an_older_familys_document_is_byte_identical_to_the_base(name, pdf_sha, truth_sha):
    d = next(d for d in plan(extra=True, tune_only=("dev17",)) if d.doc == name)
    pdf = build(d)
    assert hashlib.sha256(pdf).hexdigest() == pdf_sha
    truth = json.dumps(d.to_json(), ensure_ascii=False).encode()
    assert hashlib.sha256(truth).hexdigest() == truth_sha


def test_each_caption_is_on_its_tables_page_and_no_word_runs_off_it():
    """Wrapped rows are taller than a caption's room reckons: the table still starts on the
    page of its caption above (dev11 wrapped_body-191-en left its caption alone at a page foot)."""
    for d in [d for d in plan(tune_only=("dev11",)) if d.family in NEW]:
        pdf = pymupdf.open(stream=build(d))
        for t in d.tables:
            text = "".join(pdf[p - 1].get_text() for p in t.pages)
            assert "".join(t.caption.split()) in "".join(text.split()), t.table
        for page in pdf:
            assert all(0 <= w[0] and w[2] <= page.rect.x1 for w in page.get_text("words"))
