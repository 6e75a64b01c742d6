"""One document, start to finish, as plain functions (no Prefect): classify, cascade, assemble,
chunk. The Prefect flows and the isolation worker call these; tests call them directly.

Failure is a value: a corrupt, encrypted or non-PDF file, or any unexpected exception in a
library, becomes a `status: failed` record with its reason, so one bad PDF never stops a run.
Only `TransientError` escapes, so the caller may retry it.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as metadata
import json
import re
import time
from collections.abc import Iterable
from functools import lru_cache

import rowkeeper
from rowkeeper.config import Config, env_passwords
from rowkeeper.errors import BadInput, TransientError
from rowkeeper.ids import sha256_file
from rowkeeper.models import DocKind, DocumentInput, DocumentRecord, DocumentResult, PageInfo
from rowkeeper.registry import EXTRACTORS

# The distribution whose version decides an in-tree layer's output (its fingerprint part).
LAYER_DISTRIBUTIONS: dict[str, tuple[str, ...]] = {
    "pymupdf": ("pymupdf",),
    "tagged": ("pymupdf",),
    "pdfplumber": ("pdfplumber", "pdfminer.six"),
    "camelot": ("camelot-py",),
    "ocr": ("rapidocr", "onnxruntime"),
    "docling": ("docling",),
    "azure": (),
    "textract": (),
}
# Every layer also depends on classification and the features pass, which use PyMuPDF.
_ALWAYS = ("pymupdf",)


def load_document(path: str, source: str | None = None) -> DocumentInput:
    """The input record of a PDF: its path, how the user named it, and its sha256 (the doc id)."""
    if "://" in path:
        from rowkeeper.discover import sha256_url

        return DocumentInput(path=path, source=source or path, doc_id=sha256_url(path))
    try:
        doc_id, size = sha256_file(path), _size(path)
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror or e}") from e
    return DocumentInput(path=path, source=source or path, doc_id=doc_id, size=size)


def _size(path: str) -> int:
    import os

    return os.path.getsize(path)


def unreadable_id(path: str) -> str:
    """A stable id for a file that could not be read (its bytes are unknown): hash of the path."""
    return hashlib.sha256(f"unreadable:{path}".encode()).hexdigest()


@lru_cache(maxsize=64)
def _dist_version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "absent"


def _layer_dists(layer: str) -> tuple[str, ...]:
    """Distributions behind a layer; an out-of-tree 'pkg.mod:Class' maps to its top package."""
    if layer in LAYER_DISTRIBUTIONS:
        return LAYER_DISTRIBUTIONS[layer]
    target = EXTRACTORS.get(layer, (layer, None))[0]
    top = target.partition(":")[0].split(".")[0]
    return tuple(metadata.packages_distributions().get(top, [top]))


def layer_versions(layers: Iterable[str]) -> dict[str, str]:
    """`{distribution: version}` of every package whose upgrade can change these layers' output."""
    dists = {d for layer in layers for d in _layer_dists(layer)} | set(_ALWAYS)
    return {d: _dist_version(d) for d in sorted(dists)}


def layers_for(config: Config, kind: DocKind | None) -> tuple[str, ...]:
    """The layers that can touch a document of `kind` (None: unknown, so all of them)."""
    text, scanned = config.extract.text_layers, config.extract.scanned_layers
    if kind == "text":
        return text
    if kind == "scanned":
        return scanned
    return (*text, *scanned)


def pipeline_fingerprint(config: Config, kind: DocKind | None = None) -> str:
    """rowkeeper version + versions of the layers a `kind` document uses + output config hash.

    Keyed by kind so that installing an OCR upgrade does not reprocess text-only documents.
    """
    layers = layers_for(config, kind)
    versions = ",".join(f"{d}={v}" for d, v in layer_versions(layers).items())
    blob = f"rowkeeper={rowkeeper.__version__};{versions};config={output_settings(config, kind)}"
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def output_settings(config: Config, kind: DocKind | None) -> str:
    """The settings that can change a `kind` document's output, as canonical JSON (like
    Config.fingerprint, but a text document ignores the scanned layers and their options)."""
    data = config.model_dump(mode="json", include={"classify", "extract", "transform", "chunk"})
    extract = data["extract"]
    extract.pop("passwords", None)
    cascade = extract["options"].get("cascade", {})
    if cascade.pop("skip_steps", None) is not None and not cascade:  # a worker's restart, not a setting
        extract["options"].pop("cascade")
    unused = {"text": "scanned_layers", "scanned": "text_layers"}.get(kind or "")
    if unused:
        used = set(layers_for(config, kind))
        extract["options"] = {k: v for k, v in extract["options"].items()
                              if k in used or k not in set(extract[unused])}
        extract.pop(unused)
    return json.dumps(data, sort_keys=True)


def describe_error(e: BaseException) -> str:
    """A failure reason a person can act on: BadInput's own words, else the exception type too."""
    if isinstance(e, BadInput):
        return str(e)
    if m := _MUPDF_CODE.match(str(e)):  # RuntimeError or FzError*, by version
        return f"damaged PDF: MuPDF cannot read it ({m.group(1).strip() or 'error ' + m.group(0)})"
    return f"unexpected {type(e).__name__}: {e}"


# MuPDF's own errors reach Python as RuntimeError('code=7: cannot find object in xref ...')
_MUPDF_CODE = re.compile(r"^code=\d+:\s*(.*)", re.DOTALL)


def failed_result(doc: DocumentInput, reason: str, seconds: float, config: Config) -> DocumentResult:
    """The result of a document that could not be processed: status failed, with its reason."""
    record = DocumentRecord(
        doc_id=doc.doc_id, source=doc.source, status="failed", error=reason,
        fingerprint=pipeline_fingerprint(config), seconds=round(seconds, 3),
    )
    return DocumentResult(document=record)


def _validator(config: Config):  # -> cascade Validate callback
    from rowkeeper.transforms.validate import piece_validator

    return piece_validator(config.transform)


def extract_and_transform(doc: DocumentInput, config: Config) -> DocumentResult:
    """classify -> cascade -> assemble -> chunk; raises on failure (process_document catches)."""
    from rowkeeper.extractors.cascade import deadline_warnings, run_cascade
    from rowkeeper.extractors.classify import classify_document, document_kind
    from rowkeeper.extractors.outline import read_outline
    from rowkeeper.extractors.page_model import open_document
    from rowkeeper.transforms.assemble import assemble_tables
    from rowkeeper.transforms.bounds import bound_chunks, bound_tables, document_text_chars
    from rowkeeper.transforms.coverage import uncovered_pages
    from rowkeeper.transforms.table_chunks import chunk_document

    start, began = time.perf_counter(), time.monotonic()
    passwords = (*config.extract.passwords, *env_passwords())
    with open_document(doc, passwords) as model:  # the PDF opened once (password tried once)
        pages: tuple[PageInfo, ...] = classify_document(doc, config.classify, passwords, model=model)
        kind = document_kind(pages)
        # page budgets are shares of the worker's document timeout, counted from here
        cascade = run_cascade(doc, pages, config.extract, validate=_validator(config), model=model,
                              time_s=config.runner.document_timeout_s, started=began)
        outline = read_outline(doc, passwords, model=model)
        tables, cut = bound_tables(assemble_tables(doc.doc_id, doc.source, cascade.tables, cascade.lines,
                                                   pages, config.transform, outline), config.transform)
        images = _with_crops(doc, _table_page_images(doc, pages, tables, model), tables, config.out, model)
    chunks, cut_chunks = bound_chunks(chunk_document(doc.doc_id, doc.source, tables, cascade.lines,
                                                     config.chunk, images, outline, pages), config.chunk,
                                      tables, document_text_chars(pages, cascade.lines, tables))
    record = DocumentRecord(
        doc_id=doc.doc_id, source=doc.source, status="ok", kind=kind, pages=pages,
        attempts=cascade.attempts, fingerprint=pipeline_fingerprint(config, kind),
        seconds=round(time.perf_counter() - start, 3), n_tables=len(tables), n_chunks=len(chunks),
        warnings=(*deadline_warnings(cascade.attempts), *cut, *cut_chunks,
                  *uncovered_pages(pages, cascade.lines, tables, chunks)),
    )
    return DocumentResult(document=record, tables=tables, chunks=chunks, lines=cascade.lines,
                          images=images)


def _table_page_images(doc: DocumentInput, pages: tuple[PageInfo, ...], tables, model=None) -> tuple:
    """Images on text pages holding a table: the only ones that can be row evidence."""
    from rowkeeper.extractors.images import read_images

    wanted = sorted({p for t in tables for p in t.pages} & {p.page for p in pages if p.kind == "text"})
    if not wanted:
        return ()
    try:
        return read_images(doc, wanted, model=model)
    except Exception:  # noqa: BLE001 - evidence is optional; the tables stand without it
        return ()


def _with_crops(doc: DocumentInput, images: tuple, tables, out: str, model=None) -> tuple:
    """The images with crop_path set on those inside tables, their crops written under `out`."""
    if not images or not out:
        return images
    from rowkeeper.flows.crops import write_crops

    try:
        return write_crops(doc, images, tables, out, model=model)
    except OSError:  # evidence is optional; a read-only output folder must not fail the document
        return images


def process_document(doc: DocumentInput, config: Config) -> DocumentResult:
    """The document's full result, or a failed record with a clear reason (never raises,
    except `TransientError`, which a caller may retry)."""
    start = time.perf_counter()
    try:
        return extract_and_transform(doc, config)
    except TransientError:
        raise
    except Exception as e:  # noqa: BLE001 - one bad PDF must never stop the others
        reason = describe_error(e)
        if not any(final in reason for final in _FINAL_REASONS):
            second = second_opinion(doc, config, reason, start)
            if second is not None:
                return second
        return failed_result(doc, reason, time.perf_counter() - start, config)


# Failures no other reader can fix: the file is not a PDF, or the password is missing.
_FINAL_REASONS = ("encrypted PDF", "not a PDF (", ": file not found", ": cannot read ")


def second_opinion(doc: DocumentInput, config: Config, reason: str, start: float) -> DocumentResult | None:
    """Text-only output read by pdfium where the MuPDF pipeline failed (None when pdfium reads
    nothing either): text chunks, an attempt and a warning saying why there are no tables."""
    from rowkeeper.extractors.pdfium_text import read_text
    from rowkeeper.models import Attempt
    from rowkeeper.transforms.bounds import bound_chunks
    from rowkeeper.transforms.coverage import uncovered_pages
    from rowkeeper.transforms.table_chunks import chunk_document

    try:
        pages, lines = read_text(doc, (*config.extract.passwords, *env_passwords()), config.extract.max_pages)
        chunks, cut = bound_chunks(chunk_document(doc.doc_id, doc.source, (), lines, config.chunk,
                                                  pages=pages), config.chunk)
    except Exception:  # noqa: BLE001 - the second opinion is optional; the first reason stands
        return None
    why = f"MuPDF failed ({reason}); text read by pdfium, no tables"
    attempt = Attempt(extractor="pdfium", pages=tuple(p.page for p in pages),
                      seconds=round(time.perf_counter() - start, 3), accepted=True, reason=why)
    record = DocumentRecord(
        doc_id=doc.doc_id, source=doc.source, status="ok", kind="text", pages=pages,
        attempts=(attempt,), fingerprint=pipeline_fingerprint(config, "text"),
        seconds=round(time.perf_counter() - start, 3), n_chunks=len(chunks),
        warnings=(why, *cut, *uncovered_pages(pages, lines, (), chunks)))
    return DocumentResult(document=record, chunks=chunks, lines=lines)
