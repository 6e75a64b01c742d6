"""Very long documents in page ranges: each range extracted in the isolated worker on its own
deadline, then the pieces assembled and chunked as one document.

A 5,000-page manual must not need a 5,000-page timeout or hold every page's parse at once:
past `extract.max_pages` pages, the worker classifies and runs the cascade on `page_batch`
pages at a time (`extract_pages`), and only the small raw pieces come back; `combine` then
merges tables across range boundaries exactly as for a short document, since assembly sees
all pieces together.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rowkeeper.config import Config, ExtractConfig, env_passwords
from rowkeeper.models import (
    Attempt,
    DocumentInput,
    DocumentRecord,
    DocumentResult,
    PageInfo,
    RawTable,
    Record,
    TextLine,
)


class PagesPart(Record):
    """What one page range yielded: page classes, raw table pieces, text lines, attempts."""

    pages: tuple[PageInfo, ...]
    tables: tuple[RawTable, ...] = ()
    lines: tuple[TextLine, ...] = ()
    attempts: tuple[Attempt, ...] = ()


def page_ranges(n_pages: int, extract: ExtractConfig) -> list[tuple[int, int]]:
    """1-based inclusive ranges of `page_batch` pages, or one range when the document is short."""
    if n_pages <= extract.max_pages:
        return [(1, n_pages)]
    step = max(1, extract.page_batch)
    return [(a, min(a + step - 1, n_pages)) for a in range(1, n_pages + 1, step)]


def page_count(doc: DocumentInput, config: Config) -> int:
    """Pages in `doc` (0 when it cannot be opened: the full pipeline then reports why)."""
    from rowkeeper.errors import BadInput
    from rowkeeper.extractors.text_layer import open_pdf

    try:
        with open_pdf(doc, (*config.extract.passwords, *env_passwords())) as pdf:
            return pdf.page_count
    except BadInput:
        return 0


def extract_pages(doc: DocumentInput, config: Config, first: int, last: int) -> PagesPart:
    """Classify pages first..last and run the cascade on them (in the worker)."""
    from rowkeeper.extractors.cascade import run_cascade
    from rowkeeper.extractors.classify import classify_page
    from rowkeeper.extractors.page_model import open_document
    from rowkeeper.transforms.validate import piece_validator

    began = time.monotonic()  # each range is one worker call, on its own document timeout
    # one open per range: the pages classify reads are the ones the cascade reads
    with open_document(doc, (*config.extract.passwords, *env_passwords())) as model:
        pages = tuple(classify_page(model.page(i), config.classify) for i in range(first, last + 1))
        cascade = run_cascade(doc, pages, config.extract, validate=piece_validator(config.transform), model=model,
                              time_s=config.runner.document_timeout_s, started=began)
    return PagesPart(pages=pages, tables=tuple(cascade.tables), lines=tuple(cascade.lines),
                     attempts=tuple(cascade.attempts))


def combine(doc: DocumentInput, config: Config, parts: Sequence[PagesPart], seconds: float) -> DocumentResult:
    """One document's result from its ranges: tables assembled across ranges, then chunked."""
    from rowkeeper.extractors.classify import document_kind
    from rowkeeper.extractors.outline import read_outline
    from rowkeeper.flows.pipeline import pipeline_fingerprint
    from rowkeeper.transforms.assemble import assemble_tables
    from rowkeeper.transforms.bounds import bound_chunks, bound_tables, document_text_chars
    from rowkeeper.transforms.coverage import uncovered_pages
    from rowkeeper.transforms.table_chunks import chunk_document

    pages = tuple(p for part in parts for p in part.pages)
    pieces = tuple(t for part in parts for t in part.tables)
    lines = tuple(ln for part in parts for ln in part.lines)
    outline = read_outline(doc, (*config.extract.passwords, *env_passwords()))
    tables, cut = bound_tables(assemble_tables(doc.doc_id, doc.source, pieces, lines, pages,
                                               config.transform, outline), config.transform)
    chunks, cut_chunks = bound_chunks(chunk_document(doc.doc_id, doc.source, tables, lines, config.chunk,
                                                     outline=outline, pages=pages), config.chunk, tables,
                                      document_text_chars(pages, lines, tables))
    kind = document_kind(pages)
    record = DocumentRecord(
        doc_id=doc.doc_id, source=doc.source, status="ok", kind=kind, pages=pages,
        attempts=tuple(a for part in parts for a in part.attempts),
        fingerprint=pipeline_fingerprint(config, kind), seconds=round(seconds, 3),
        n_tables=len(tables), n_chunks=len(chunks),
        warnings=(*cut, *cut_chunks, *uncovered_pages(pages, lines, tables, chunks)),
    )
    return DocumentResult(document=record, tables=tables, chunks=chunks, lines=lines)
