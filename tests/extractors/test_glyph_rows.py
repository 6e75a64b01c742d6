"""A word's glyphs found by bisection in the rows of `page_model._glyphs_by_mid` (issue 13,
throughput) are those the scan of its rows found, in the same order: the old rule is written
out here and compared on generated glyphs and words on a quarter-point grid (middles on a
word's edge, glyphs starting at one x, rows above and below the word's middle); and the
words of a generated PDF, read through it, keep their exact text."""

from __future__ import annotations

from pathlib import Path

import pymupdf
from hypothesis import given, settings
from hypothesis import strategies as st

from rowkeeper.extractors.page_model import _Glyphs, _inside, words_in


def _inside_before(w, by_mid):
    mid = round((w[1] + w[3]) / 2)
    inside = [c for k in (mid - 1, mid, mid + 1) for c in by_mid.get(k, ())
              if w[0] - 0.01 <= (c["bbox"][0] + c["bbox"][2]) / 2 <= w[2] + 0.01]
    return sorted(inside, key=lambda c: c["bbox"][0])


_q = st.integers(0, 120).map(lambda n: n / 4)


@st.composite
def _glyph(draw):
    x0, y0 = draw(_q), draw(st.integers(0, 24).map(lambda n: n / 4))
    return {"c": draw(st.sampled_from("ab1.")), "bbox": (x0, y0, x0 + draw(_q), y0 + draw(st.sampled_from([0.5, 1.0, 2.25])))}


@settings(max_examples=500, deadline=None)
@given(st.lists(_glyph(), max_size=40), st.lists(st.tuples(_q, _q, st.integers(0, 24).map(lambda n: n / 4)), max_size=8))
def test_a_words_glyphs_as_the_scan(glyphs, words) -> None:
    by_mid, plain = _Glyphs(), {}
    for c in glyphs:
        for d in (by_mid, plain):
            d.setdefault(round((c["bbox"][1] + c["bbox"][3]) / 2), []).append(c)
    for x0, width, y in words:
        w = (x0, y, x0 + width, y + 1.0, "ab", 0, 0, 0)
        found = _inside(w, by_mid)
        assert found == _inside_before(w, plain) and all(a is b for a, b in zip(found, _inside_before(w, plain), strict=True))
        assert _inside(w, plain) == found


def test_words_read_through_the_glyph_rows_keep_their_boxes(tmp_path: Path) -> None:
    # CJK words (read glyph by glyph, a full-width glyph being wide) and a word glued at a
    # case turn (`KundeNr17`, a key and its value in two spans, no space): both take the glyph
    # read, and each word keeps its exact box and text
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "顧客名", fontsize=10, fontname="japan")
    page.insert_text((142, 100), "福岡", fontsize=10, fontname="japan")
    page.insert_text((72, 130), "Kunde", fontsize=10, fontname="helv")
    page.insert_text((72 + pymupdf.get_text_length("Kunde", "helv", 10), 130), "Nr17", fontsize=10, fontname="helv")
    path = tmp_path / "glyphs.pdf"
    doc.save(path)
    with pymupdf.open(path) as pdf:
        words = [(round(w[0], 2), round(w[2], 2), w[4]) for w in words_in(pdf[0], pdf[0].rect)]
    assert words == [(72.0, 102.0, "顧客名"), (142.0, 162.0, "福岡"), (72.0, 122.58, "KundeNr17")]
