"""CPU seconds per pipeline stage, measured by wrapping the functions each stage runs.

    with StageClock(SCAN_STAGES) as clock:
        ... process documents ...
    clock.report(pages)

A stage's figure is exclusive: time spent in a wrapped function of another stage, called from
inside it, counts to that other stage (OCR recognition inside the cell re-read counts as
recognition). `process_time` is the clock (this process only); Tesseract, a subprocess, is
counted from the children's rusage (`child_cpu`). Used by the scanned benchmarks; nothing in
`rowkeeper/` imports it.
"""

from __future__ import annotations

import functools
import importlib
import resource
import time
from collections import defaultdict
from collections.abc import Callable, Iterable

Target = tuple[str, str, str]
"""(module, attribute path inside it, stage name)."""

SCAN_STAGES: tuple[Target, ...] = (
    ("rowkeeper.extractors.classify", "classify_document", "classify"),
    ("pymupdf", "Page.get_pixmap", "render"),
    ("rowkeeper.extractors.grid_lines", "skew_angle", "deskew"),
    ("rowkeeper.extractors.grid_lines", "rotate", "deskew"),
    ("rowkeeper.extractors.grid_lines", "find_grids", "rules and grids"),
    ("rowkeeper.extractors.grid_lines", "binarize", "binarize and despeckle"),
    ("rowkeeper.extractors.grid_lines", "despeckle", "binarize and despeckle"),
    ("rapidocr.ch_ppocr_det.main", "TextDetector.__call__", "ocr detection"),
    ("rowkeeper.extractors.ocr_engines", "detect_in_content", "ocr detection"),
    ("rapidocr.main", "RapidOCR.crop_text_regions", "ocr line crops"),
    ("rapidocr.ch_ppocr_rec.main", "TextRecognizer.__call__", "ocr recognition"),
    ("rapidocr.main", "RapidOCR.calc_word_boxes", "ocr char boxes"),
    ("rapidocr.ch_ppocr_rec.utils", "CTCLabelDecode.get_word_info", "ocr char boxes"),
    ("rowkeeper.extractors.ocr_engines", "_char_centers", "ocr char boxes"),
    ("rowkeeper.extractors.ocr_engines", "char_centers", "ocr char boxes"),
    ("rowkeeper.extractors.ocr_engines", "repair_line", "line repair"),
    ("rowkeeper.extractors.tesseract_engine", "TesseractEngine._run", "tesseract (wait)"),
    ("rowkeeper.extractors.ocr_extractor", "OcrExtractor._reread", "cell re-read"),
    ("rowkeeper.extractors.ocr_tables", "columns_from_text", "grid tables"),
    ("rowkeeper.extractors.ocr_tables", "ruled_table", "grid tables"),
    ("rowkeeper.extractors.ocr_tables", "aligned_tables", "borderless tables"),
    ("rowkeeper.extractors.slanet_structure", "SlanetStructure.cells", "slanet-plus"),
    ("rowkeeper.extractors.cascade", "read_scan_features", "scan features"),
    ("rowkeeper.extractors.cascade", "_judge", "cascade checks"),
    ("rowkeeper.flows.pipeline", "assemble_tables", "assemble (headers, merge)"),
    ("rowkeeper.transforms.assemble", "assemble_tables", "assemble (headers, merge)"),
    ("rowkeeper.transforms.table_chunks", "chunk_document", "chunks"),
    ("rowkeeper.flows.pipeline", "_with_crops", "crops"),
)


TEXT_STAGES: tuple[Target, ...] = (
    ("pymupdf", "Page.get_textpage", "text page (MuPDF)"),
    ("pymupdf", "Page.get_cdrawings", "drawings (MuPDF)"),
    ("pymupdf", "TextPage.extractDICT", "span dict (MuPDF)"),
    ("pymupdf", "TextPage.extractRAWDICT", "char dict (MuPDF)"),
    ("pymupdf", "TextPage.extractText", "plain text (MuPDF)"),
    ("rowkeeper.extractors.classify", "classify_document", "classify"),
    ("rowkeeper.extractors.page_model", "fast_lines", "text lines"),
    ("rowkeeper.extractors.page_model", "lines_of_dict", "text lines"),
    ("rowkeeper.extractors.page_model", "page_features", "page features"),
    ("rowkeeper.extractors.page_model", "read_drawings", "page features"),
    ("rowkeeper.extractors.cascade", "run_cascade", "cascade (rest)"),
    ("rowkeeper.extractors.outline", "read_outline", "outline"),
    ("rowkeeper.transforms.assemble", "assemble_tables", "assemble (headers, merge)"),
    ("rowkeeper.transforms.text_chunks", "document_sections", "context (sections)"),
    ("rowkeeper.transforms.text_chunks", "paragraphs", "text chunks"),
    ("rowkeeper.transforms.text_chunks", "chunk_text", "text chunks"),
    ("rowkeeper.transforms.table_chunks", "chunk_document", "chunks (rest)"),
    ("rowkeeper.transforms.bounds", "document_text_chars", "bounds"),
    ("rowkeeper.transforms.coverage", "uncovered_pages", "coverage check"),
    ("rowkeeper.flows.pipeline", "load_document", "hash (sha256)"),
)
"""The per-page path of a text page (bench/throughput.py --prose --stages)."""


def _resolve(module: str, path: str) -> tuple[object, str] | None:
    """The object holding the attribute `path` names, and the attribute's name (None: absent)."""
    try:
        owner: object = importlib.import_module(module)
    except ImportError:
        return None
    *parents, name = path.split(".")
    for p in parents:
        owner = getattr(owner, p, None)
        if owner is None:
            return None
    return (owner, name) if hasattr(owner, name) else None


class StageClock:
    """Wraps each target while active; `seconds` holds exclusive CPU seconds per stage."""

    def __init__(self, targets: Iterable[Target] = SCAN_STAGES) -> None:
        self.targets = tuple(targets)
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[float] = []  # CPU seconds spent by nested stages, per open frame
        self._saved: list[tuple[object, str, object]] = []
        self._start = (0.0, 0.0)

    def _wrap(self, fn: Callable, stage: str) -> Callable:
        @functools.wraps(fn)
        def timed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            t0 = time.process_time()
            self._stack.append(0.0)
            try:
                return fn(*args, **kwargs)
            finally:
                took = time.process_time() - t0
                nested = self._stack.pop()
                self.seconds[stage] += took - nested
                self.calls[stage] += 1
                if self._stack:
                    self._stack[-1] += took
        return timed

    def __enter__(self) -> StageClock:
        seen = set()
        for module, path, stage in self.targets:
            found = _resolve(module, path)
            if found is None or (id(found[0]), found[1]) in seen:
                continue
            owner, name = found
            seen.add((id(owner), name))
            original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
            self._saved.append((owner, name, original))
            timed = self._wrap(getattr(owner, name), stage)
            # a static or class method must stay one, or the class would pass itself in
            kind = type(original) if isinstance(original, (staticmethod, classmethod)) else None
            setattr(owner, name, kind(self._wrap(original.__func__, stage)) if kind else timed)
        self.reset()
        return self

    def __exit__(self, *exc: object) -> None:
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()

    def reset(self) -> None:
        """Start counting from now (e.g. after a warm-up document)."""
        self.seconds.clear()
        self.calls.clear()
        self._start = (time.process_time(), child_cpu())

    def totals(self) -> tuple[float, float]:
        """(process CPU, children's CPU) seconds since the last reset."""
        return time.process_time() - self._start[0], child_cpu() - self._start[1]

    def report(self, pages: int, label: str = "") -> list[str]:
        """Lines of CPU seconds per page by stage, largest first, with the rest and the total."""
        n = max(pages, 1)
        own, children = self.totals()
        staged = sum(self.seconds.values())
        rows = sorted(self.seconds.items(), key=lambda kv: -kv[1])
        out = [f"[stages{' ' + label if label else ''}] CPU s per page over {pages} page(s)"
               f" (process {own / n:.3f} + tesseract children {children / n:.3f} = {(own + children) / n:.3f})"]
        out += [f"    {stage:28s} {s / n:7.3f}   ({self.calls[stage] / n:.1f} calls/page)" for stage, s in rows]
        out.append(f"    {'(rest: unstaged python)':28s} {(own - staged) / n:7.3f}")
        out.append(f"    {'tesseract child CPU':28s} {children / n:7.3f}")
        return out


def child_cpu() -> float:
    """User + system CPU seconds of this process's finished children (Tesseract runs)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def rss_mb() -> float:
    """Peak RSS of this process in MB (a child's figure would count the parent it forked from)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
