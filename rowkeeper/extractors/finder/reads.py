"""Reads the own finder's strategies share: find_tables on a page with its drawn paths read
once (`find_on`), the page model's words in a clip, and box arithmetic."""

from __future__ import annotations

from typing import Any

import pymupdf

from rowkeeper.extractors.finder.ruled_grid import drawn_paths
from rowkeeper.extractors.page_model import words_in
from rowkeeper.extractors.pymupdf_tables import find, hidden_spans, per_page
from rowkeeper.models import DocumentInput

TEXT = {"vertical_strategy": "text", "horizontal_strategy": "text"}
TEXT_COLUMNS = {"vertical_strategy": "text", "horizontal_strategy": "lines"}


def words_at(page: pymupdf.Page, clip: Any) -> list[Any]:
    """Words inside `clip`, zero-width glyphs handled, those a reader cannot see left out (the
    page's hidden spans, `pymupdf_tables.hide`): the page model's one word reader."""
    return words_in(page, clip, hidden_spans(page))


def find_on(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any]) -> list[Any]:
    """PyMuPDF's tables of `page` for `kwargs`, the page's drawn paths read once for a
    `lines` strategy."""
    # (find_tables reads a /Rotate'd page de-rotated: paths read here would be misplaced there)
    if "lines" in (kwargs.get("vertical_strategy"), kwargs.get("horizontal_strategy")) and not page.rotation:
        kwargs = {**kwargs, "paths": per_page(page, "paths", drawn_paths)}
    return find(doc, page, pno, kwargs)


