"""`rowkeeper inspect FILE.pdf --dump DIR`: what each stage made of one PDF, as files a person
reads to find out why an answer was wrong.

    01_pages.jsonl / .md       classification of each page, with the figures it was decided on
    02_extracted.jsonl / .md   raw tables of every extractor attempt (accepted or not), and why
    03_tables.jsonl / .md      logical tables after merge, header folding, types, validation
    04_chunks.jsonl / .md      the retrieval chunks, and the self-contained measure
    images/                    crops of images inside tables (the chunks' visual evidence)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from rowkeeper.config import Config
from rowkeeper.errors import RowkeeperError
from rowkeeper.ids import sha256_file
from rowkeeper.models import (
    Attempt,
    Chunk,
    DocumentInput,
    ImageRef,
    PageInfo,
    RawTable,
    Table,
    TextLine,
    to_json_dict,
)
from rowkeeper.transforms.selfcontained import SelfContainedReport, measure_self_contained
from rowkeeper.transforms.table_text import to_markdown


@dataclass
class Stages:
    """Each stage's output for one document."""

    doc: DocumentInput
    pages: tuple[PageInfo, ...] = ()
    attempts: tuple[Attempt, ...] = ()
    raw: tuple[RawTable, ...] = ()
    lines: tuple[TextLine, ...] = ()
    images: tuple[ImageRef, ...] = ()
    tables: tuple[Table, ...] = ()
    chunks: tuple[Chunk, ...] = ()
    extracted: list[tuple[Attempt, tuple[RawTable, ...]]] = field(default_factory=list)


def document_input(path: str | Path) -> DocumentInput:
    """A DocumentInput for a local PDF (doc_id = sha256 of its bytes)."""
    p = Path(path)
    return DocumentInput(path=str(p), source=str(path), doc_id=sha256_file(p), size=p.stat().st_size)


def run_stages(path: str | Path, config: Config, crops_out: str | Path | None = None) -> Stages:
    """Classify, extract (cascade), assemble, read images, chunk: the pipeline's stages, kept."""
    from rowkeeper.extractors.cascade import run_cascade
    from rowkeeper.extractors.classify import classify_document
    from rowkeeper.extractors.images import read_images
    from rowkeeper.extractors.outline import read_outline
    from rowkeeper.extractors.page_model import open_document
    from rowkeeper.transforms.assemble import assemble_tables
    from rowkeeper.transforms.table_chunks import chunk_document
    from rowkeeper.transforms.validate import piece_validator

    doc = document_input(path)
    st = Stages(doc=doc)
    with open_document(doc, config.extract.passwords) as model:  # the PDF opened once, as in a run
        st.pages = classify_document(doc, config.classify, config.extract.passwords, model=model)
        # the same cascade checks and outline as `rowkeeper run`, so the dump explains its output
        result = run_cascade(doc, st.pages, config.extract, validate=piece_validator(config.transform), model=model,
                             time_s=config.runner.document_timeout_s)
        st.attempts, st.raw, st.lines = result.attempts, result.tables, result.lines
        outline = read_outline(doc, config.extract.passwords, model=model)
        st.tables = assemble_tables(doc.doc_id, doc.source, st.raw, st.lines, st.pages, config.transform,
                                    outline)
        st.images = read_images(doc, [p.page for p in st.pages if p.kind == "text"], model=model)
        if crops_out is not None:
            from rowkeeper.flows.crops import write_crops

            st.images = write_crops(doc, st.images, st.tables, crops_out, model=model)
    st.chunks = chunk_document(doc.doc_id, doc.source, st.tables, st.lines, config.chunk, st.images,
                               outline, st.pages)
    return st


def layer_outputs(st: Stages, config: Config) -> list[tuple[Attempt, tuple[RawTable, ...]]]:
    """Raw tables per attempt: accepted ones from the cascade, rejected ones by rerunning the layer."""
    from rowkeeper.registry import resolve

    out: list[tuple[Attempt, tuple[RawTable, ...]]] = []
    for a in st.attempts:
        if a.accepted or a.tables == 0 or a.reason.startswith("skipped"):
            mine = tuple(t for t in st.raw if t.extractor == a.extractor and t.page in a.pages)
            out.append((a, mine if a.accepted else ()))
            continue
        try:
            cls = resolve("extractor", a.extractor)
            layer = cls(cls.Options(**config.extract.options.get(a.extractor, {})))
            out.append((a, tuple(layer.extract(st.doc, list(a.pages)).tables)))
        except (RowkeeperError, ImportError) as e:  # a layer that ran once may not run twice
            out.append((a.model_copy(update={"reason": f"{a.reason} (rerun failed: {e})"}), ()))
    return out


def _jsonl(path: Path, records: Iterable[BaseModel | dict[str, object]]) -> None:
    with path.open("w", encoding="utf-8") as f:
        for r in records:
            obj = to_json_dict(r) if isinstance(r, BaseModel) else r
            f.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _grid_md(rows: Sequence[Sequence[str]]) -> str:
    if not rows:
        return "(empty)"
    cells = [[" ".join(c.split()).replace("|", "\\|") for c in r] for r in rows]
    head = "| " + " | ".join(cells[0]) + " |\n|" + "|".join("---" for _ in cells[0]) + "|"
    return "\n".join([head] + ["| " + " | ".join(r) + " |" for r in cells[1:]])


def pages_md(pages: Sequence[PageInfo]) -> str:
    """01: one table row per page with the classification figures."""
    lines = ["# 01 Pages", "", "| page | kind | chars | image coverage | garbled | size |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {p.page} | {p.kind} | {p.chars} | {p.image_coverage:.2f} | {p.garbled_ratio:.3f} "
              f"| {p.width:.0f}x{p.height:.0f} |" for p in pages]
    return "\n".join(lines) + "\n"


def extracted_md(extracted: Sequence[tuple[Attempt, tuple[RawTable, ...]]]) -> str:
    """02: per attempt, the verdict and every raw table the layer returned (header not folded)."""
    out = ["# 02 Extracted (raw tables per layer attempt)", ""]
    for n, (a, tables) in enumerate(extracted, 1):
        verdict = "accepted" if a.accepted else "rejected"
        out += [f"## Attempt {n}: {a.extractor} on pages {list(a.pages)}: {verdict}", "",
                f"Reason: {a.reason}. Seconds: {a.seconds}. Tables: {a.tables}.", ""]
        for t in tables:
            out += [f"### {t.piece_id} page {t.page} bbox {list(t.bbox)} "
                    f"({t.n_rows}x{t.n_cols})", "", _grid_md(t.grid()), ""]
    return "\n".join(out) + "\n"


def tables_md(tables: Sequence[Table]) -> str:
    """03: each logical table with its context, types, validation and body."""
    out = ["# 03 Tables", ""]
    for t in tables:
        checks = ", ".join(f"{c.name}={'ok' if c.passed else 'FAIL'}" for c in t.validation.checks)
        out += [f"## {t.table_id}: {t.caption or '(no caption)'}", "",
                f"- section: {' > '.join(t.section_path) or '-'}",
                f"- pages: {list(t.pages)}; merged from: {', '.join(t.merged_from)}",
                f"- extractor: {t.extractor} {t.extractor_version}; header rows: {t.header_rows}",
                f"- types: {', '.join(f'{c}: {ty}' for c, ty in zip(t.columns, t.column_types, strict=False)) or '-'}",
                f"- validation: {'passed' if t.validation.passed else 'FAILED'} ({checks or 'no checks'})",
                f"- rows: {len(t.rows)}; footnotes: {' '.join(t.footnotes) or '-'}", "",
                to_markdown(t), ""]
    return "\n".join(out) + "\n"


def chunks_md(chunks: Sequence[Chunk], measure: SelfContainedReport) -> str:
    """04: the self-contained measure, then every chunk's id, kind, rows, pages and text."""
    out = ["# 04 Chunks", "", f"Self-contained: {measure.fraction:.3f} "
           f"({measure.contained}/{measure.cells} cells)"]
    out += [f"- below 1.0: {t.table_id} {t.fraction:.3f}: {'; '.join(t.missing)}"
            for t in measure.tables if t.fraction < 1.0]
    out.append("")
    for c in chunks:
        m = c.metadata
        rows = f" rows {m['row_start'] + 1}-{m['row_end'] + 1}" if m.get("row_start") is not None else ""
        ev = f" evidence {[e['image_id'] for e in m['visual_evidence']]}" if m.get("visual_evidence") else ""
        out += [f"## {c.chunk_id} ({c.kind}{rows}, pages {m.get('pages')}){ev}", "", "```text",
                c.text, "```", ""]
    return "\n".join(out) + "\n"


def dump(st: Stages, folder: str | Path) -> dict[str, int]:
    """Write the four stage dumps into `folder`; returns counts per stage."""
    d = Path(folder)
    d.mkdir(parents=True, exist_ok=True)
    _jsonl(d / "01_pages.jsonl", st.pages)
    (d / "01_pages.md").write_text(pages_md(st.pages), encoding="utf-8")
    _jsonl(d / "02_extracted.jsonl", ({"attempt": to_json_dict(a), "table": to_json_dict(t),
                                       "grid": t.grid()} for a, ts in st.extracted for t in ts))
    (d / "02_extracted.md").write_text(extracted_md(st.extracted), encoding="utf-8")
    _jsonl(d / "03_tables.jsonl", st.tables)
    (d / "03_tables.md").write_text(tables_md(st.tables), encoding="utf-8")
    measure = measure_self_contained(st.tables, st.chunks)
    _jsonl(d / "04_chunks.jsonl", st.chunks)
    (d / "04_chunks.md").write_text(chunks_md(st.chunks, measure), encoding="utf-8")
    (d / "04_self_contained.json").write_text(measure.model_dump_json(indent=2), encoding="utf-8")
    return {"pages": len(st.pages), "attempts": len(st.extracted), "tables": len(st.tables),
            "chunks": len(st.chunks), "images": sum(1 for i in st.images if i.crop_path)}


def run_cli(pdf: str, folder: str, config: Config, args: argparse.Namespace | None = None) -> int:
    """The `inspect` subcommand: run the stages on one PDF and dump them; 2 if there is no such
    file, 1 if it cannot be read as a PDF."""
    if not Path(pdf).is_file():
        what = "is a folder, not a PDF file" if Path(pdf).is_dir() else "no such file"
        print(f"rowkeeper inspect: {pdf}: {what}", file=sys.stderr)
        return 2
    try:
        st = run_stages(pdf, config, crops_out=folder)
    except OSError as e:
        print(f"rowkeeper inspect: {pdf}: cannot read: {e.strerror or e}", file=sys.stderr)
        return 2
    except RowkeeperError as e:
        print(f"rowkeeper inspect: {pdf}: {e}")
        return 1
    st.extracted = layer_outputs(st, config)
    counts = dump(st, folder)
    print(f"{pdf}: " + ", ".join(f"{v} {k}" for k, v in counts.items()) + f" -> {folder}")
    return 0
