"""PyMuPDF's `find_tables` as rowkeeper calls it: many times per page, for the grid only.

The PyMuPDF extractor calls `find_tables` several times on one page (the candidate regions,
then re-reads of a table or region with other strategies and rules). Two parts of each call
are work rowkeeper never uses, and they were half of its time on the peer corpus:

* every Table looks for an external header above itself (`Table.header`: two pixmaps
  rendered, the page's text read twice, and one full-page text read per column name);
  rowkeeper's header rows come from its own transforms, so inside `reading()` that search
  is skipped (`header` is None);
* every call reads the chars of its clip into Python dicts (`make_chars`), and re-reads of a
  table use the same clip; inside `reading()` the chars of a (page, clip) are read once.

Both apply only inside `with reading():` (a context variable: other threads and any other
caller of `find_tables` in the process get PyMuPDF's own behaviour, header included). The
char dicts are shared, not copied: nothing in PyMuPDF's table code writes to them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import pymupdf
from pymupdf import table as _table

from rowkeeper.errors import BadInput
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
    chars = getattr(_table, "CHARS", None)
    if header is None or make_chars is None or chars is None or getattr(make_chars, "_rowkeeper", False):
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
            textpage = make_chars(page, clip=clip)
            cache[key] = (list(chars), textpage)
        else:
            chars.extend(cache[key][0])
        return cache[key][1]

    _make_chars._rowkeeper = True  # type: ignore[attr-defined]
    table_cls._get_header = _get_header
    _table.make_chars = _make_chars


_install()
