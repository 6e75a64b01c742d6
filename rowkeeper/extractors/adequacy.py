"""Whether one layer's output for a page is an adequate reading of it, why, and a score to rank
rejects: the pure decision of the cascade (`assess`), tables and page features in, a `Verdict`
out. `extractors/cascade.py` runs the layers and asks it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from rowkeeper.boxes import area, centre_in, overlap
from rowkeeper.extractors.page_features import PageFeatures
from rowkeeper.models import LAYOUT_FRAME, BBox, RawTable, TextLine


class CascadeChecks(BaseModel):
    """Thresholds of `assess`; from config `extract.options.cascade`."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    min_fill: float = 0.25
    """Non-empty cells / cells below this: a sparse grid, usually prose cut into columns."""
    min_row_consistency: float = 0.9
    """Share of rows whose cells cover exactly n_cols slots."""
    max_single_cell_rows: float = 0.6
    """Share of rows holding one non-empty cell above which the 'table' is text in a box."""
    min_camelot_accuracy: float = 80.0
    max_camelot_whitespace: float = 70.0
    min_region_coverage: float = 0.5
    """A ruling grid / aligned-column region must be this much covered by the tables found."""
    min_text_coverage: float = 0.9
    """Or this share of its text (a text page): the tables hold nearly all of it, and what is
    left uncovered is white space (two blocks of fields at a form's edges). Text coverage alone
    at the area's 0.5 would pass a table that left a whole column of labels out (its figures
    outnumber the labels' characters)."""
    skip_pages_without_candidate: bool = True
    page_budget_s: float | None = None
    """Seconds one layer may spend on one page; past it the page is cut off in that layer (a
    `deadline` attempt) and the next layers, or its text alone, read it. None (the default):
    derived from the document's time (below); a number: that many seconds, fixed; 0: none."""
    page_budget_share: float = 0.8
    """Share of `runner.document_timeout_s` the layers may spend on a document's pages (the rest
    is for assembly and chunking); each page's budget is the time left shared by the pages still
    to read (extractors/step_budget.py)."""
    min_page_budget_s: float = 30.0
    """A page may always take this long in a layer while that much of the document's time is left."""
    skip_steps: tuple[tuple[str, int], ...] = ()
    """(layer, page) pairs not to run: set by the worker after its watchdog cut a step stuck
    in C code that the per-page alarm could not interrupt."""


@dataclass(frozen=True)
class Verdict:
    """Whether a layer's output for a page is adequate, why, and a score to rank rejects."""

    accepted: bool
    reason: str
    score: float = 0.0


def table_problems(t: RawTable, checks: CascadeChecks) -> list[str]:
    """What is wrong with one table's shape and fill (empty when nothing is)."""
    problems = []
    slots = [[0] * t.n_cols for _ in range(t.n_rows)]
    for c in t.cells:
        for r in range(c.row, min(c.row + c.row_span, t.n_rows)):
            for k in range(c.col, min(c.col + c.col_span, t.n_cols)):
                slots[r][k] += 1
    consistent = sum(all(v == 1 for v in row) for row in slots) / max(t.n_rows, 1)
    if consistent < checks.min_row_consistency:
        problems.append(f"inconsistent row widths ({consistent:.0%} of rows complete)")
    filled = sum(1 for c in t.cells if c.text)
    fill = filled / max(len(t.cells), 1)
    if fill < checks.min_fill:
        problems.append(f"sparse grid ({fill:.0%} of cells filled)")
    per_row: dict[int, int] = {}
    for c in t.cells:
        per_row[c.row] = per_row.get(c.row, 0) + bool(c.text)
    single = sum(1 for v in per_row.values() if v == 1) / max(t.n_rows, 1)
    if single > checks.max_single_cell_rows:
        problems.append(f"text in a box ({single:.0%} of rows hold one cell)")
    acc, ws = t.metrics.get("accuracy"), t.metrics.get("whitespace")
    if acc is not None and acc < checks.min_camelot_accuracy:
        problems.append(f"camelot accuracy {acc:.0f} < {checks.min_camelot_accuracy:.0f}")
    if ws is not None and ws > checks.max_camelot_whitespace:
        problems.append(f"camelot whitespace {ws:.0f} > {checks.max_camelot_whitespace:.0f}")
    return problems


def repeated_tables(tables: Sequence[RawTable]) -> list[str]:
    """Tables that read a region another table of the same output already read: the smaller
    lies mostly (half its area or more) inside the larger and every one of its filled cells'
    texts (two at least) is a cell of the larger. One layer emitting a region twice (a totals
    block found alone and again inside the table around it) puts the same words in two
    tables: an output with that flaw ranks below one without it."""
    out = []
    for i, a in enumerate(tables):
        for j in range(i + 1, len(tables)):
            b = tables[j]
            small, big, n = (a, b, i) if area(a.bbox) <= area(b.bbox) else (b, a, j)
            if overlap(small.bbox, big.bbox) < 0.5 * area(small.bbox):
                continue
            texts = {c.text.strip() for c in small.cells if c.text.strip()}
            if len(texts) >= 2 and texts <= {c.text.strip() for c in big.cells}:
                out.append(f"table {n + 1}: read again inside table {(j if n == i else i) + 1}")
    return out


def region_coverage(region: BBox, tables: Sequence[RawTable]) -> float:
    """Fraction of `region` covered by the tables' boxes (tables assumed not to overlap), or by
    the ruled layout a table was set in (`LAYOUT_FRAME`: the layer read it and gave it up)."""
    area = (region[2] - region[0]) * (region[3] - region[1])
    if area <= 0:
        return 1.0
    frames = [tuple(t.metrics[k] for k in LAYOUT_FRAME) for t in tables if LAYOUT_FRAME[0] in t.metrics]
    return min(1.0, max(sum(overlap(region, t.bbox) for t in tables), sum(overlap(region, f) for f in set(frames))) / area)


def text_coverage(region: BBox, tables: Sequence[RawTable], lines: Sequence[TextLine]) -> float | None:
    """Share of the text of `region` (characters of the lines centred in it) centred in the
    tables' boxes; None when no line is. A region's area also holds the white space between
    blocks of fields or around a narrow table: its text is what the tables must hold."""
    inside = [ln for ln in lines if centre_in(ln.bbox, region) and ln.text.strip()]
    total = sum(len(ln.text.strip()) for ln in inside)
    if not total:
        return None
    held = sum(len(ln.text.strip()) for ln in inside if any(centre_in(ln.bbox, t.bbox) for t in tables))
    return held / total


def uncovered_regions(tables: Sequence[RawTable], features: PageFeatures | None,
                      checks: CascadeChecks, lines: Sequence[TextLine] = ()) -> list[str]:
    """Candidate regions of the page that no table found covers enough: half their area, or,
    when the page's text lines are given (a text page), nearly all their text."""
    if features is None:
        return []
    out = []
    for kind, regions in (("ruling grid", features.ruled_regions),
                          ("aligned columns", features.aligned_regions)):
        for r in regions:
            if region_coverage(r, tables) >= checks.min_region_coverage:
                continue
            by_text = text_coverage(r, tables, lines) if lines else None
            if by_text is None or by_text < checks.min_text_coverage:
                out.append(f"{kind} at y={r[1]:.0f}-{r[3]:.0f} not covered")
    return out


def assess(tables: Sequence[RawTable], features: PageFeatures | None, checks: CascadeChecks,
           lines: Sequence[TextLine] = ()) -> Verdict:
    """Whether `tables` (one layer's output for one page) are an adequate reading of the page
    (`lines`: the page's text lines, by which its candidate regions' coverage is counted)."""
    if not tables:
        if features is not None and features.candidate:
            what = "a ruling grid" if features.has_grid else "aligned columns of text"
            return Verdict(False, f"page has {what} but no table was found", 0.0)
        return Verdict(True, "no table on page", 0.0)
    problems = [f"table {i + 1}: {p}" for i, t in enumerate(tables) for p in table_problems(t, checks)]
    problems += repeated_tables(tables)
    missed = uncovered_regions(tables, features, checks, lines)
    n_regions = len(features.ruled_regions) + len(features.aligned_regions) if features else 0
    score = (1.0 - len(problems) / (2 * len(tables) + 1)) * (1.0 - len(missed) / (n_regions + 1))
    if problems or missed:
        return Verdict(False, "; ".join(problems + missed), score)
    return Verdict(True, "passed checks", score + 1.0)
