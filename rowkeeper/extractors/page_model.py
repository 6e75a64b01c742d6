"""One PDF opened once, its pages read once: the page model every text-layer reader shares.

`open_document` opens a PDF (password tried once) and hands out `PageModel`s; each page reads
its objects on first use and caches them, and derived views (text lines, features, the
upright rotation) are computed once from those objects. Modelled on pdfplumber's `Page`
(objects read once, derived views cached) and Docling's page backend (the reader kept apart
from the rules that use it). No record holds a model: it lives for one document's processing.
"""

from __future__ import annotations

import dataclasses
import re
import statistics
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from typing import Any

import pymupdf

from rowkeeper.extractors.column_edges import ColumnEdges, part_at_edges
from rowkeeper.extractors.finder.boxed_cells import BoxGrid, box_grids
from rowkeeper.extractors.finder.filled_cells import fill_grids
from rowkeeper.extractors.finder.tick_boxes import Segments
from rowkeeper.extractors.page_features import PageFeatures, page_features, read_drawings, tinted
from rowkeeper.extractors.spaced_letters import join_narrow_spacing, join_spaced_letters
from rowkeeper.extractors.tagged_objects import is_tagged, structure_dict
from rowkeeper.extractors.tagged_tables import declares_table
from rowkeeper.extractors.text_layer import (
    RAW_FLAGS,
    HiddenSpan,
    fast_lines,
    kept_ligatures_page,
    lines_of_dict,
    open_authenticated,
    raw_dict,
    shown_words,
    unpainted,
    white,
)
from rowkeeper.extractors.upright import map_bbox, upright_copy, upright_rotation
from rowkeeper.glyphs import WIDE
from rowkeeper.models import BBox, DocumentInput, TextLine
from rowkeeper.page_columns import PageColumns, text_columns


class PageModel:
    """One page: its text, words, rulings and images read on first use, then cached."""

    def __init__(self, page: pymupdf.Page, pno: int) -> None:
        self.page = page
        self.pno = pno
        """1-based page number (that of the original page, also for an upright copy)."""

    @property
    def rotation(self) -> int:
        """The page's /Rotate in degrees."""
        return self.page.rotation

    @cached_property
    def rect(self) -> pymupdf.Rect:
        """The page's box as shown."""
        return self.page.rect

    @property
    def plain_text(self) -> str:
        """The text as get_text("text") gives it (ligatures and unknown codes kept: what
        classification counts; a text page of its own, since its flags differ from `textpage`)."""
        return self._text_and_images[0]

    @property
    def image_info(self) -> tuple[dict[str, Any], ...]:
        """Every image placement, as get_image_info() gives it (unclipped boxes)."""
        return self._text_and_images[1]

    @cached_property
    def _text_and_images(self) -> tuple[str, tuple[dict[str, Any], ...]]:
        # One MuPDF text page serves both (a text page costs about one get_text): images kept
        # in it change neither the characters nor their order, only where blocks break, which
        # the plain text shows as whitespace alone. But its clip flag cuts an image's box to the
        # page and to the clip path, which get_image_info does not: a box that is not its
        # placement's whole square was cut, and the page's images are then read unclipped
        # (prose pages have no image; "number", the block index, counts this page's blocks).
        tp = self._text_textpage
        text, infos = tp.extractText(), tp.extractIMGINFO()
        if infos:  # its lines are read from their own text page: not kept (it holds the images)
            del self.__dict__["_text_textpage"]
        if any(_cut(info) for info in infos):
            infos = self.page.get_image_info()
        return text, tuple(infos)

    @cached_property
    def _text_textpage(self) -> pymupdf.TextPage:
        """The text page `plain_text` and `image_info` are read from; `lines` reads it too, if
        it can (`text_layer.kept_ligatures_page`), and drops it (a page with images drops it at
        once: its lines need their own, and it would hold the images until then)."""
        return self.page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT | pymupdf.TEXT_PRESERVE_IMAGES)

    @cached_property
    def textpage(self) -> pymupdf.TextPage:
        """The text layer as every text line and cell is read (whitespace kept, ligatures split)."""
        return self.page.get_textpage(flags=RAW_FLAGS)

    @cached_property
    def structure(self) -> dict[str, Any]:
        """The text dict with the structure of its marked content (a tagged PDF's elements,
        each a block around its text: `tagged_tables`); read only for a tagged document."""
        return structure_dict(self.page)

    @property
    def declares_table(self) -> bool:
        """Whether the page's structure holds a Table element with glyphs on it (a page MuPDF
        cannot read the structure of declares none: the layers judge it as any page)."""
        try:
            return declares_table(self.structure)
        except (RuntimeError, ValueError, KeyError):
            return False

    @cached_property
    def raw(self) -> dict[str, Any]:
        """The text dict with each span's char boxes ("chars") beside its "text" (`page_dict`)."""
        return raw_dict(self.textpage, self.page)

    @cached_property
    def lines(self) -> tuple[TextLine, ...]:
        """The page's text lines in reading order (the one line-grouping rule: MuPDF's lines)."""
        if "raw" not in self.__dict__:
            # the char-box read costs 2-3 get_text calls: a page not read for tables goes without
            lines = self._lines_of_text_textpage()
            if lines is None:
                lines = fast_lines(self.pno, self.page, self.textpage, hidden=self._noted)
            if lines is not None:
                return tuple(lines)
        return tuple(lines_of_dict(self.pno, self.raw, self._noted))

    def hidden(self, span: dict[str, Any]) -> bool:
        """Whether a reader cannot see the span: printed white with no tinted fill or image
        under its middle, white on the page's white (a hanging indent typed as invisible text,
        `Table 4.—` repeated before each wrapped line of a caption, a keyword hidden in a cell);
        or drawn with no ink (render mode 3) where no image is under it. White on a dark band or
        a picture is seen; inkless text over an image is the image's OCR layer, its text."""
        if unpainted(span):
            return not _under(span, [tuple(i["bbox"]) for i in self.image_info])
        return white(span) and not _under(span, self.backdrops)

    def _noted(self, span: dict[str, Any]) -> bool:
        """`hidden`, each hidden span kept for `hidden_spans` as the lines are read."""
        if not self.hidden(span):
            return False
        self._hidden_seen.setdefault((tuple(span["bbox"]), span["text"]), None)
        return True

    @cached_property
    def _hidden_seen(self) -> dict[HiddenSpan, None]:
        return {}

    @property
    def hidden_spans(self) -> tuple[HiddenSpan, ...]:
        """(box, text) of each span a reader cannot see (`hidden`), noted as the page's lines
        were read (no read of its own): what the word and char readers of cells leave out."""
        _ = self.lines
        return tuple(self._hidden_seen)

    @cached_property
    def backdrops(self) -> tuple[BBox, ...]:
        """Boxes of what white text can show on: shapes filled with a tint, and images (read
        only for a page with white text)."""
        shapes = [tuple(p["rect"]) for p in self.page.get_cdrawings() if tinted(p)]
        return tuple(shapes) + tuple(tuple(i["bbox"]) for i in self.image_info)

    def _lines_of_text_textpage(self) -> list[TextLine] | None:
        """The lines read from the text page classification made, when it was made and can be
        read as `textpage` would be (a text page costs about one get_text: a page without a
        table candidate then makes one, not two); it is dropped after."""
        tp = self.__dict__.pop("_text_textpage", None)
        if tp is None or self.image_info:  # images kept in it move where its blocks break
            return None
        ligatures = kept_ligatures_page(self.plain_text)
        return None if ligatures is None else fast_lines(self.pno, self.page, tp, ligatures, self._noted)

    @cached_property
    def drawings(self) -> tuple[list[BBox], list[BBox], list[BBox], Segments, list[BBox]]:
        """Ruling segments, horizontal and vertical, tinted filled rectangles, short segments and
        plotted lines' boxes, from one read of the page's drawings (`page_features.read_drawings`)."""
        return read_drawings(self.page)

    @cached_property
    def rules(self) -> tuple[list[BBox], list[BBox]]:
        """Horizontal and vertical ruling segments (of `drawings`)."""
        return self.drawings[0], self.drawings[1]

    @property
    def fills(self) -> list[BBox]:
        """Tinted filled rectangles (a cell's or a band's colour; white ones left out)."""
        return self.drawings[2]

    @property
    def short_segments(self) -> Segments:
        """Horizontal and vertical segments of a tick box's side, shorter than the rules keep
        (`finder.tick_boxes`: read by every borderless region of the page from here)."""
        return self.drawings[3]

    @property
    def plots(self) -> list[BBox]:
        """The boxes of the page's plotted lines, a chart's (`finder.plots`)."""
        return self.drawings[4]

    @cached_property
    def grids(self) -> tuple[BoxGrid, ...]:
        """Grids of separately drawn cell boxes among the rules (`finder.boxed_cells`): read by
        the features and by the table finder alike."""
        return tuple(box_grids(*self.rules))

    @cached_property
    def tinted(self) -> tuple[BoxGrid, ...]:
        """Grids of tinted cells among the fills (`finder.filled_cells`; fewer than four fills
        make none): read by the features and by the table finder alike."""
        return tuple(fill_grids(self.fills, [ln.bbox for ln in self.lines])) if len(self.fills) >= 4 else ()

    @cached_property
    def columns(self) -> PageColumns:
        """The page's text columns: gutters found once from all its text lines, and the column
        boxes in reading order (`rowkeeper.page_columns`), as the transforms place headings by."""
        return text_columns(self.lines)

    @cached_property
    def features(self) -> PageFeatures:
        """Rulings and aligned text columns: whether the page may hold a table. A page shown
        turned (/Rotate) whose text reads sideways in its unrotated space is looked at upright,
        as its tables are read (`upright_features`): its sideways lines make no rows."""
        if self.rotation % 360 and self.upright:
            return upright_features(self.page, self.pno, self.upright)
        return page_features(self.page, self.pno, self.lines, rules=self.rules, image_info=self.image_info,
                             fills=self.fills, grids=self.grids, tinted=self.tinted, plots=self.plots)

    @cached_property
    def upright(self) -> int | None:
        """The /Rotate that shows the page's text upright, None when it reads upright as is."""
        return upright_rotation(self.raw, self.rotation)

    def words(self, clip: Any = None) -> list[Any]:
        """Words inside `clip` (the whole page when None), zero-width glyphs handled, those a
        reader cannot see left out."""
        return words_in(self.page, clip if clip is not None else self.page.rect, self.hidden_spans)


def upright_features(page: pymupdf.Page, pno: int, rotation: int) -> PageFeatures:
    """The features of `page` read on its upright copy (`upright.upright_copy`), the regions
    mapped back to the page's unrotated coordinates, those its tables' boxes come back in."""
    with upright_copy(page.parent, page.number + 1, rotation) as (upright, back):
        feats = PageModel(upright, pno).features
    return dataclasses.replace(feats, ruled_regions=tuple(map_bbox(r, back) for r in feats.ruled_regions),
                               aligned_regions=tuple(map_bbox(r, back) for r in feats.aligned_regions))


class DocumentModel:
    """An open PDF and the models of its pages; `doc` carries the password that opened it."""

    def __init__(self, doc: DocumentInput, pdf: pymupdf.Document) -> None:
        self.doc = doc
        self.pdf = pdf
        self._pages: dict[int, PageModel] = {}

    @cached_property
    def tagged(self) -> bool:
        """Whether the PDF is tagged (a structure tree, content marked): one catalog read."""
        return is_tagged(self.pdf)

    @property
    def page_count(self) -> int:
        """Number of pages."""
        return self.pdf.page_count

    def page(self, pno: int) -> PageModel:
        """The model of page `pno` (1-based), made on first use."""
        if pno not in self._pages:
            self._pages[pno] = PageModel(self.pdf[pno - 1], pno)
        return self._pages[pno]

    def pages(self, pnos: Sequence[int] | None = None) -> Iterator[PageModel]:
        """Models of `pnos` (all pages when None), in that order."""
        for p in pnos if pnos is not None else range(1, self.page_count + 1):
            yield self.page(p)

    def close(self) -> None:
        """Drop the page models and close the PDF."""
        self._pages.clear()
        self.pdf.close()


@contextmanager
def open_document(doc: DocumentInput, passwords: Sequence[str] = ()) -> Iterator[DocumentModel]:
    """The document model of `doc`, opened once (BadInput when it cannot be), closed after."""
    pdf, password = open_authenticated(doc, passwords)
    if password and password != doc.password:
        doc = doc.model_copy(update={"password": password})
    model = DocumentModel(doc, pdf)
    try:
        yield model
    finally:
        model.close()


@contextmanager
def document_of(doc: DocumentInput, model: DocumentModel | None,
                passwords: Sequence[str] = ()) -> Iterator[DocumentModel]:
    """`model` when the caller has one open (left open), else `doc` opened for this block."""
    if model is not None:
        yield model
        return
    with open_document(doc, passwords) as opened:
        yield opened


def _cut(info: dict[str, Any], tol: float = 1e-6) -> bool:
    """Whether an image's box may be less than the unit square its transform places (clipped);
    float rounding alone may say so too, which costs only the unclipped read."""
    a, b, c, d, e, f = info["transform"]
    xs, ys = (e, a + e, c + e, a + c + e), (f, b + f, d + f, b + d + f)
    whole = (min(xs), min(ys), max(xs), max(ys))
    return any(abs(u - v) > tol for u, v in zip(info["bbox"], whole, strict=True))


def _under(span: dict[str, Any], boxes: Sequence[Sequence[float]]) -> bool:
    """Whether the middle of the span's box lies in one of `boxes`."""
    x0, y0, x1, y1 = span["bbox"]
    x, y = (x0 + x1) / 2, (y0 + y1) / 2
    return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)


def words_in(page: pymupdf.Page, clip: Any, hidden: Sequence[HiddenSpan] = ()) -> list[Any]:
    """Words inside `clip` as (x0, y0, x1, y1, text, block, line, word), their boxes cut to
    the glyphs that have a width, and cut in two where their glyphs stand a gap apart.

    Zero-width glyphs (dot leaders some producers collapse onto the figure that follows, or a
    label's dots drawn at no advance) widen a word's box to their own extent: the box then runs
    under the label's dots and closes the gap between the label and figure columns. And MuPDF
    makes one word of glyphs with no space character between them even across a gap (a CJK
    key and its value a column apart, `顧客名福岡`): `_split_at_gaps` parts them. The words of
    `hidden` spans (the page model's `hidden_spans`) are left out."""
    tp = page.get_textpage(clip=pymupdf.Rect(clip), flags=pymupdf.TEXTFLAGS_WORDS)
    words = shown_words(tp.extractWORDS(), hidden)
    # a letter-spaced label run into the next is parted where a column under it ends or starts
    edges, by_mid = ColumnEdges(words), None
    if any(len(w[4]) >= 2 and edges.inside(w) for w in words):
        by_mid = _glyphs_by_mid(tp)
        words = part_at_edges(words, edges, lambda w: _own_glyphs(w, by_mid or {}))
    words = join_narrow_spacing(join_spaced_letters(words, edges.parted))
    # Only a word wider than its characters would set gives them away (a glyph is ~0.5 of the
    # line height, a wide capital ~0.8; a CJK glyph is a whole em, so a CJK word of two glyphs
    # or more is looked at): most pages stop here, without the costlier char read.
    # A capital or a figure after a small letter inside a word (`chỉVũng`: a key in one span,
    # its value in the next, no space between) is looked at too.
    if not any(len(w[4]) >= 3 and w[2] - w[0] > 0.8 * len(w[4]) * (w[3] - w[1])
               or len(w[4]) >= 2 and WIDE.search(w[4]) or _case_turn(w[4]) for w in words):
        return words
    by_mid = by_mid if by_mid is not None else _glyphs_by_mid(tp)
    return [part for w in words for part in _glyph_box(w, by_mid)]


class _Glyphs(dict[int, list[Any]]):
    """Glyphs by the height of their middle; each such row's horizontal middles sorted on
    first use, so that a word's glyphs are found by bisection instead of a scan of its row."""

    def row(self, k: int) -> tuple[list[float], list[int]]:
        """Row `k`'s glyph middles, sorted, and the glyphs' places in the row in that order."""
        rows = self.__dict__.setdefault("_rows", {})
        if k not in rows:
            mids = [(c["bbox"][0] + c["bbox"][2]) / 2 for c in self.get(k, ())]
            order = sorted(range(len(mids)), key=mids.__getitem__)
            rows[k] = ([mids[i] for i in order], order)
        return rows[k]


def _glyphs_by_mid(tp: pymupdf.TextPage) -> _Glyphs:
    """The glyphs (not spaces) by the height of their middle (the words' line numbers skip
    lines the char read leaves out, so they cannot be matched by number)."""
    by_mid = _Glyphs()
    for b in tp.extractRAWDICT()["blocks"]:
        for line in b.get("lines", ()):
            for s in line["spans"]:
                for c in s["chars"]:
                    if not c["c"].isspace():
                        box = c["bbox"]
                        k = round((box[1] + box[3]) / 2)
                        row = by_mid.get(k)
                        if row is None:
                            by_mid[k] = [c]
                        else:
                            row.append(c)
    return by_mid


def _inside(w: Any, by_mid: dict[int, list[Any]]) -> list[Any]:
    """The glyphs whose middle lies inside word `w`, left to right (rows above, at and below
    its middle, each in its order, then sorted by left edge: a stable sort keeps that order
    for glyphs starting at one x)."""
    mid = round((w[1] + w[3]) / 2)
    lo, hi = w[0] - 0.01, w[2] + 0.01
    keys = (mid - 1, mid, mid + 1)
    if not isinstance(by_mid, _Glyphs):
        inside = [c for k in keys for c in by_mid.get(k, ()) if lo <= (c["bbox"][0] + c["bbox"][2]) / 2 <= hi]
        return sorted(inside, key=lambda c: c["bbox"][0])
    places = []
    for rank, k in enumerate(keys):
        if k in by_mid:
            xs, order = by_mid.row(k)
            places += [(rank, order[j]) for j in range(bisect_left(xs, lo), bisect_right(xs, hi))]
    places.sort()
    return sorted((by_mid[keys[rank]][i] for rank, i in places), key=lambda c: c["bbox"][0])


def _own_glyphs(w: Any, by_mid: dict[int, list[Any]]) -> list[Any]:
    """The glyphs of word `w` that have a width."""
    return [c for c in _inside(w, by_mid) if c["bbox"][2] - c["bbox"][0] > 0.01]


def _glyph_box(w: Any, by_mid: dict[int, list[Any]]) -> list[Any]:
    """Word `w` with its x extent cut to its glyphs with a width, when those are its own, and
    cut at a wide gap between them (`_split_at_gaps`)."""
    inside = _inside(w, by_mid)
    seen = [c for c in inside if c["bbox"][2] - c["bbox"][0] > 0.01]
    text = "".join(c["c"] for c in seen)
    if text == w[4] and len(seen) >= 2:
        return _split_at_gaps(w, seen)
    # the glyphs with a width must be the word's, in order, less zero-width ones, to trust them
    rest = iter(w[4])
    if seen and all(ch in rest for ch in text) and len(w[4]) - len(text) <= len(inside) - len(seen):
        return [(min(c["bbox"][0] for c in seen), w[1], max(c["bbox"][2] for c in seen), *w[3:])]
    return [w]


GLUED_FIGURE = re.compile(r"\d(?:\d|[.,/:-]\d)+")
"""A figure of two digits or more, maybe with separators (`179-2061`, `09/12/2022`)."""


def _case_turn(text: str) -> bool:
    """A small letter then a capital, or a figure of three characters or more, inside one
    word: two words glued where no space was printed (`chỉVũng`, a key and its value
    `hệ179-2061`, `hệ09/12/2022`). A unit's exponent (`m2`) or a version (`x86`) is shorter."""
    return any(a.islower() and (b.isupper() or b.isdigit() and len(_figure_at(text, i + 1)) >= 3)
               for i, (a, b) in enumerate(zip(text, text[1:], strict=False)))


def _figure_at(text: str, i: int) -> str:
    m = GLUED_FIGURE.match(text, i)
    return m.group() if m else ""


GAP_EM = 0.25
"""A gap between two glyphs of one word at least this share of their height may part the word
(a word's glyphs touch: their boxes are their advances, kerning moves them by hundredths)."""


SPACED_GAP_EM = 0.15
"""How much further than its letter spacing two glyphs of a letter-spaced word stand where one
label ends and the next begins (letter spacing is one Tc for every glyph: `単 価` `構 成 比`)."""


def _split_at_gaps(w: Any, glyphs: list[dict[str, Any]]) -> list[Any]:
    """Word `w` (its glyphs `glyphs`, all with a width, in order) cut where two glyphs stand at
    least `GAP_EM` of their height apart and more than twice the word's median gap, or
    `SPACED_GAP_EM` of an em beyond it (letter spacing spreads every glyph alike: `施 設 種 類` stays one word,
    and is read as one label; two letter-spaced labels set a little further apart, `単 価` and
    `構 成 比`, are two words)."""
    gaps = [b["bbox"][0] - a["bbox"][2] for a, b in zip(glyphs, glyphs[1:], strict=False)]
    height = max(c["bbox"][3] - c["bbox"][1] for c in glyphs)
    if not any(g >= GAP_EM * height for g in gaps):  # no gap reaches the least cut (below): one part
        return [(glyphs[0]["bbox"][0], w[1], glyphs[-1]["bbox"][2], w[3], "".join(c["c"] for c in glyphs), *w[5:])]
    median = statistics.median(gaps)
    # a full-width glyph's advance is an em; a font's box height may be half as much again
    wide = [c["bbox"][2] - c["bbox"][0] for c in glyphs if WIDE.match(c["c"])]
    em = statistics.median(wide) if wide else height
    least = max(GAP_EM * height, min(2 * median + 0.02 * height, median + SPACED_GAP_EM * em))
    cuts = [0, *(i + 1 for i, g in enumerate(gaps) if g >= least), len(glyphs)]
    return [(glyphs[a]["bbox"][0], w[1], glyphs[b - 1]["bbox"][2], w[3], "".join(c["c"] for c in glyphs[a:b]), *w[5:])
            for a, b in zip(cuts, cuts[1:], strict=False)]
