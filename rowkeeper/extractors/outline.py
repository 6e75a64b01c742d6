"""The PDF's outline (bookmarks): where the author says each section starts.

Read with PyMuPDF's `get_toc`; the entries feed `transforms.sections.section_index`, which
prefers them to headings guessed from font size. A missing, broken or external-link outline
reads as no outline: the section path then comes from typography alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.extractors.page_model import DocumentModel, document_of
from rowkeeper.models import DocumentInput, OutlineEntry


def outline_of(toc: Sequence[Sequence[object]], page_count: int) -> tuple[OutlineEntry, ...]:
    """Entries of `get_toc(simple=False)` that point into the document, levels made contiguous."""
    out: list[OutlineEntry] = []
    depth: list[int] = []  # raw levels of the open ancestors, to repair skipped levels
    for item in toc:
        if len(item) < 3:
            continue
        level, title, page = item[0], str(item[1] or "").strip(), item[2]
        if not isinstance(level, int) or not isinstance(page, int) or not 1 <= page <= page_count:
            continue
        if not title:
            continue
        dest = item[3] if len(item) > 3 and isinstance(item[3], dict) else {}
        point = dest.get("to")
        top = float(getattr(point, "y", 0.0) or 0.0) if point is not None else 0.0
        while depth and depth[-1] >= level:
            depth.pop()
        depth.append(level)
        out.append(OutlineEntry(level=len(depth), title=" ".join(title.split()), page=page,
                                top=max(top, 0.0)))
    return tuple(out)


def read_outline(doc: DocumentInput, passwords: Sequence[str] = (),
                 model: DocumentModel | None = None) -> tuple[OutlineEntry, ...]:
    """The document's outline entries in order (empty when it has none or it cannot be read);
    read from `model` when the document is open."""
    with document_of(doc, model, passwords) as m:
        pdf = m.pdf
        try:
            toc = pdf.get_toc(simple=False)
        except (RuntimeError, ValueError, IndexError, KeyError):
            return ()
        return outline_of(toc, pdf.page_count)
