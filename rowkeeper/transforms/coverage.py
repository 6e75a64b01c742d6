"""Did every page's text reach some output? Pages with readable text but no chunk or table are
reported (a warning in documents.jsonl, counted in the report), so nothing is dropped silently.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rowkeeper.models import Chunk, PageInfo, Table, TextLine
from rowkeeper.transforms.table_text import clean

# A page number alone ("12", "- 3 -", "Page 2 of 9") is the one text a page may lose unsaid.
_PAGE_NO = re.compile(r"^[-–—\s]*(page\s*)?\d+(\s*(/|of)\s*\d+)?[-–—\s]*$", re.IGNORECASE)


def _content_pages(lines: Sequence[TextLine]) -> set[int]:
    return {ln.page for ln in lines if (t := clean(ln.text)) and not _PAGE_NO.match(t)}


def uncovered_pages(pages: Sequence[PageInfo], lines: Sequence[TextLine], tables: Sequence[Table],
                    chunks: Sequence[Chunk]) -> tuple[str, ...]:
    """One warning per page whose text reached no chunk and no table, and per scanned page
    where no layer read any text."""
    covered = {p for t in tables for p in t.pages}
    for c in chunks:
        covered.update(int(p) for p in c.metadata.get("pages") or ())
    with_text = _content_pages(lines)
    out = []
    for info in pages:
        if info.page in covered:
            continue
        if info.page in with_text:
            out.append(f"page {info.page}: has text but produced no chunk or table")
        elif info.kind == "scanned" and (info.image_coverage > 0 or info.chars > 0):
            # an image, or a text layer too garbled to use (page_kind): either way, content lost
            out.append(f"page {info.page}: scanned page, no layer read any text")
    return tuple(out)
