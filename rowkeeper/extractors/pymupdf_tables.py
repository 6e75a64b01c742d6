"""PyMuPDF's `find_tables` as rowkeeper calls it: many times per page, for the grid only.

The PyMuPDF extractor calls `find_tables` several times on one page (the candidate regions,
then re-reads of a table or region with other strategies and rules). Two parts of each call
are work rowkeeper never uses, and they were half of its time on the peer corpus:

* every Table looks for an external header above itself (`Table.header`: two pixmaps
  rendered, the page's text read twice, and one full-page text read per column name);
  rowkeeper's header rows come from its own transforms, so inside `reading()` that search
  is skipped (`header` is None);
* every call reads the chars of its clip into Python dicts (`make_chars`), and re-reads of a
  table use the same clip; inside `reading()` the chars of a (page, clip) are read once;
* every joined rectangle of rulings is kept only if a char lies inside it (`chars_in_rect`, a
  scan of all the clip's char dicts per rectangle); inside `reading()` the char boxes are put
  in arrays once per (page, clip) and each rectangle is one vectorised test;
* `Table.extract` tests every char of the page against each row's box (and the row's chars
  against each cell's); inside `reading()` the chars' middles are put in arrays once per
  call's char list and each box is one vectorised test (the same float tests, same order).

Both apply only inside `with reading():` (a context variable: other threads and any other
caller of `find_tables` in the process get PyMuPDF's own behaviour, header included). The
char dicts are shared, not copied: nothing in PyMuPDF's table code writes to them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np
import pymupdf
from pymupdf import table as _table

from rowkeeper.errors import BadInput
from rowkeeper.extractors.note_marks import note_mark, raised_after_figure
from rowkeeper.extractors.text_layer import HiddenSpan
from rowkeeper.models import DocumentInput

_READING: ContextVar[dict[tuple[Any, ...], Any] | None] = ContextVar("rowkeeper_find_tables", default=None)
"""The current `reading()` block's cache ((page, clip) -> (chars, text page), per-page reads);
None outside one."""


@contextmanager
def reading() -> Iterator[None]:
    """A block of `find` calls on one page: header search off, chars read once per clip."""
    token = _READING.set({})
    try:
        yield
    finally:
        _READING.reset(token)


def per_page(page: pymupdf.Page, name: str, read: Callable[[pymupdf.Page], Any]) -> Any:
    """`read(page)`, computed once per page inside a `reading()` block (each call outside)."""
    cache = _READING.get()
    if cache is None:
        return read(page)
    key = (name, id(page))
    if key not in cache:
        cache[key] = read(page)
    return cache[key]


def hide(page: pymupdf.Page, hidden: Callable[[dict[str, Any]], bool], spans: Sequence[HiddenSpan]) -> None:
    """Inside a `reading()` block: what the page model says a reader cannot see on `page`
    (`hidden`, a span predicate, and `spans`, the hidden spans' boxes and texts) is left out
    of find_tables' chars and of the finder's words (`hidden_spans`); a no-op outside one."""
    cache = _READING.get()
    if cache is not None:
        cache[("hidden", id(page))] = hidden
        cache[("hidden_spans", id(page))] = tuple(spans)


def hidden_spans(page: pymupdf.Page) -> tuple[HiddenSpan, ...]:
    """The hidden spans `hide` noted for `page` in this `reading()` block; () when none were."""
    cache = _READING.get()
    return () if cache is None else cache.get(("hidden_spans", id(page)), ())


def find(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any]) -> list[Any]:
    """The tables `page.find_tables(**kwargs)` finds; BadInput when PyMuPDF fails."""
    try:
        return list(page.find_tables(**kwargs).tables)
    except (RuntimeError, ValueError) as e:
        raise BadInput(f"{doc.source} page {pno}: PyMuPDF find_tables failed ({e})") from e


def _install() -> None:
    """Wrap PyMuPDF's header search and char reader once (no-op where its internals differ)."""
    table_cls = getattr(_table, "Table", None)
    header, make_chars = getattr(table_cls, "_get_header", None), getattr(_table, "make_chars", None)
    extract = getattr(table_cls, "extract", None)
    chars, in_rect = getattr(_table, "CHARS", None), getattr(_table, "chars_in_rect", None)
    if (header is None or make_chars is None or chars is None or in_rect is None or extract is None
            or not hasattr(chars, "_list") or getattr(make_chars, "_rowkeeper", False)):
        return

    def _get_header(self: Any, *args: Any, **kwargs: Any) -> Any:
        if _READING.get() is not None:
            return None
        return header(self, *args, **kwargs)

    def _make_chars(page: Any, clip: Any = None) -> Any:
        cache = _READING.get()
        if cache is None:
            return make_chars(page, clip=clip)
        # the page object itself (an upright copy is another page), as find_tables passes it
        key = (id(page), page.rotation, None if clip is None else tuple(pymupdf.Rect(clip)))
        if key not in cache:
            hidden = cache.get(("hidden", id(page)))
            textpage = _read_chars(page, clip, chars, hidden) or make_chars(page, clip=clip)
            cache[key] = (list(chars), textpage)
        else:
            chars.extend(cache[key][0])
        cache[_FILLED] = (chars._list(), key)
        return cache[key][1]

    def _chars_in_rect(chars_now: Any, rect: Any) -> bool:
        cache = _READING.get()
        filled = None if cache is None else cache.get(_FILLED)
        listed = getattr(chars_now, "_list", None)
        if filled is None or listed is None or listed() is not filled[0] or len(filled[0]) != len(cache[filled[1]][0]):
            return bool(in_rect(chars_now, rect))
        if ("boxes", filled[1]) not in cache:
            cache[("boxes", filled[1])] = _char_boxes(filled[0])
        boxes = cache[("boxes", filled[1])]
        return bool(in_rect(chars_now, rect)) if boxes is None else in_boxes(boxes, rect)

    def _extract(self: Any, **kwargs: Any) -> list[list[str | None]]:
        cache, listed = _READING.get(), self._chars
        if cache is None or listed is None or not all(_plain(b) for r in self.rows for b in (r.bbox, *r.cells) if b):
            return extract(self, **kwargs)
        if ("mids", id(listed)) not in cache:  # the list is held by the entry: its id stays its own
            cache[("mids", id(listed))] = (listed, _char_mids(listed))
        mids = cache[("mids", id(listed))][1]
        if mids is None:
            return extract(self, **kwargs)
        return _cell_texts(self.rows, listed, mids, kwargs)

    _make_chars._rowkeeper = True  # type: ignore[attr-defined]
    table_cls._get_header = _get_header
    table_cls.extract = _extract
    _table.make_chars = _make_chars
    _table.chars_in_rect = _chars_in_rect


_FILLED = ("filled",)
"""Cache key of the char list the current `find_tables` call filled, and its (page, clip) key."""


def _char_boxes(chars: Sequence[dict[str, Any]]) -> np.ndarray | None:
    """x0, x1, y0, y1 of every char dict as rows of a float64 array (None when a value is not
    a Python float or int: then float64 would not compare as the dict's value does)."""
    columns = [[c[k] for c in chars] for k in ("x0", "x1", "y0", "y1")]
    if not all(set(map(type, col)) <= {float, int} for col in columns):
        return None
    return np.array(columns, dtype=np.float64).reshape(4, len(chars))


def _plain(box: Sequence[Any]) -> bool:
    """Whether a box's four values are Python floats (a numpy float32 would compare in float32)."""
    return len(box) == 4 and all(type(v) is float for v in box)


def _char_mids(chars: Sequence[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray] | None:
    """The horizontal and vertical middle of each char, as `Table.extract` computes them
    ((x0 + x1) / 2, (top + bottom) / 2: one IEEE double sum and halving, as Python's), None
    when a value is not a Python float."""
    columns = [[c[k] for c in chars] for k in ("x0", "x1", "top", "bottom")]
    if not all(set(map(type, col)) <= {float} for col in columns):
        return None
    x0, x1, top, bottom = (np.array(col, dtype=np.float64) for col in columns)
    return (x0 + x1) / 2, (top + bottom) / 2


def _cell_texts(rows: Sequence[Any], chars: Sequence[dict[str, Any]], mids: tuple[np.ndarray, np.ndarray],
                kwargs: dict[str, Any]) -> list[list[str | None]]:
    """PyMuPDF's `Table.extract` body with its char-in-box filters vectorised: a char is in a
    box when its middle is (left and top edges in, right and bottom out); a row's chars, then
    a cell's among them, in the chars' order; `kwargs` updated per cell as it does."""
    h, v = mids
    texts = []
    for row in rows:
        in_row = np.flatnonzero(_mid_in(h, v, row.bbox))
        rh, rv = h[in_row], v[in_row]
        arr: list[str | None] = []
        for cell in row.cells:
            if cell is None:
                arr.append(None)
                continue
            inside = in_row[_mid_in(rh, rv, cell)]
            if not len(inside):
                arr.append("")
                continue
            kwargs["x_shift"] = cell[0]
            kwargs["y_shift"] = cell[1]
            if "layout" in kwargs:
                kwargs["layout_width"] = cell[2] - cell[0]
                kwargs["layout_height"] = cell[3] - cell[1]
            arr.append(_table.extract_text([chars[i] for i in inside], **kwargs))
        texts.append(arr)
    return texts


def _mid_in(h: np.ndarray, v: np.ndarray, box: Sequence[float]) -> np.ndarray:
    """Which middles lie in `box`, as `Table.extract`'s char_in_bbox tests it."""
    x0, top, x1, bottom = box
    return (h >= x0) & (h < x1) & (v >= top) & (v < bottom)


def in_boxes(boxes: np.ndarray, rect: Any) -> bool:
    """PyMuPDF's `chars_in_rect` on the char boxes `_char_boxes` made: whether a char lies
    inside `rect` (its edges included)."""
    x0, y0, x1, y1 = rect[0], rect[1], rect[2], rect[3]
    return bool(((x0 <= boxes[0]) & (boxes[1] <= x1) & (y0 <= boxes[2]) & (y1 >= boxes[3])).any())


def _read_chars(page: Any, clip: Any, chars: Any, hidden: Callable[[dict[str, Any]], bool] | None = None) -> Any:
    """PyMuPDF's `make_chars`, the same char dicts in the same order, with the page transform
    applied to all chars at once (MuPDF transforms in single precision: so does this) instead of
    through four geometry objects per char, less the chars of spans `hidden` says a reader
    cannot see (white on white, no ink); None (nothing read) for a rotating or skewing
    transform, which `make_chars` handles itself."""
    ctm = page.transformation_matrix
    if abs(ctm.b) > 1e-6 or abs(ctm.c) > 1e-6:
        return None
    textpage = page.get_textpage(clip=clip, flags=_table.FLAGS)
    blocks = page.get_text("rawdict", textpage=textpage)["blocks"]
    runs = []  # (line matrix, upright, span font/size/bold/colour, chars in x order)
    for block in blocks:
        for line in block["lines"]:
            ldir = (round(line["dir"][0], 4), round(line["dir"][1], 4))
            head = tuple(pymupdf.Matrix(ldir[0], -ldir[1], ldir[1], ldir[0], 0, 0))[:4]
            spans = sorted(line["spans"], key=lambda s: s["bbox"][0])
            if hidden is not None:
                spans = [s for s in spans if not hidden(s)]
            for before, span in zip([None, *spans], spans, strict=False):
                bold = bool(span["flags"] & pymupdf.TEXT_FONT_BOLD or span["char_flags"] & 8)
                glyphs = sorted(span["chars"], key=lambda c: c["bbox"][0])
                runs.append((head, ldir[1] == 0, span["font"], span["size"], bold,
                             pymupdf.sRGB_to_pdf(span["color"]),
                             note_mark(glyphs) if raised_after_figure(before, span) else glyphs))
    flat = [c for run in runs for c in run[6]]
    if not flat:
        return textpage
    boxes = _on_baselines(flat, [run[1] for run in runs for _ in run[6]])
    y0s, y1s, oxs, oys = _transformed(ctm, boxes, [c["origin"] for c in flat])
    base = page.rect.height * page.number
    number = page.number + 1
    i = 0
    for head, upright, font, size, bold, color, run in runs:
        for char in run:
            x0, y0, x1, y1 = boxes[i]
            chars.append({
                "adv": x1 - x0 if upright else y1 - y0, "bottom": y1, "doctop": y0 + base,
                "fontname": font, "height": y1 - y0, "matrix": (*head, oxs[i], oys[i]),
                "ncs": "DeviceRGB", "non_stroking_color": color, "non_stroking_pattern": None,
                "object_type": "char", "page_number": number, "size": size if upright else y1 - y0,
                "stroking_color": color, "stroking_pattern": None, "bold": bold, "text": char["c"],
                "top": y0, "upright": upright, "width": x1 - x0, "x0": x0, "x1": x1,
                "y0": y0s[i], "y1": y1s[i]})
            i += 1
    return textpage


def _on_baselines(chars: list[dict[str, Any]], upright: list[bool]) -> list[tuple[float, ...]]:
    """Each char's box; a glyph drawn mostly under its baseline (a low line `_` in `2012_2`,
    whose exact box MuPDF gives below the digits') takes the vertical extent of the glyphs
    standing on its baseline, so that find_tables' line clustering keeps it inside its word
    instead of putting it on a line of its own under the cell (`2012 2` / `_`). A glyph with
    no such mate keeps its box."""
    boxes = [tuple(c["bbox"]) for c in chars]
    under = [up and c["bbox"][1] + c["bbox"][3] > 2 * c["origin"][1] for c, up in zip(chars, upright, strict=True)]
    if not any(under):
        return boxes
    mates: dict[float, list[tuple[float, float]]] = {}
    for c, low, up in zip(chars, under, upright, strict=True):
        if up and not low and c["c"].strip():
            mates.setdefault(round(c["origin"][1], 1), []).append((c["bbox"][1], c["bbox"][3]))
    for i in (k for k, low in enumerate(under) if low):
        line = mates.get(round(chars[i]["origin"][1], 1))
        if line:
            x0, _, x1, _ = boxes[i]
            boxes[i] = (x0, min(t for t, _ in line), x1, max(b for _, b in line))
    return boxes


def _transformed(ctm: Any, boxes: list[tuple[float, ...]], origins: list[Any]) -> tuple[list[float], ...]:
    """y0 and y1 of each char box and x, y of each origin under `ctm` (no rotation or skew),
    in float32 as MuPDF's fz_transform_rect / fz_transform_point compute them."""
    f32 = np.float32
    a, b, c, d, e, f = (f32(v) for v in (ctm.a, ctm.b, ctm.c, ctm.d, ctm.e, ctm.f))
    box = np.array(boxes, dtype=f32)
    org = np.array(origins, dtype=f32)
    # fz_transform_rect swaps the corners for a mirroring axis, then maps the two corners
    left, right = (box[:, 2], box[:, 0]) if a < 0 else (box[:, 0], box[:, 2])
    top, bottom = (box[:, 3], box[:, 1]) if d < 0 else (box[:, 1], box[:, 3])
    y0 = (left * b + top * d) + f
    y1 = (right * b + bottom * d) + f
    ox = (org[:, 0] * a + org[:, 1] * c) + e
    oy = (org[:, 0] * b + org[:, 1] * d) + f
    return y0.tolist(), y1.tolist(), ox.tolist(), oy.tolist()


_install()
