"""The cascade: per page, the cheapest layer whose output is adequate, and why.

`assess` is the pure decision (tables + page features in, Verdict out). `run_cascade` runs the
configured layers cheapest first over the pages still undecided, records every attempt, and
keeps each page's first accepted output (or, when no layer is adequate, the best-scoring one).
Pages with no table candidate (no ruling grid, no aligned text columns) skip the extractors.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from rowkeeper.boxes import area, centre_in, overlap
from rowkeeper.config import ExtractConfig
from rowkeeper.errors import BadInput, ConfigError, LayerUnavailable, MissingExtra
from rowkeeper.extractors.page_features import PageFeatures
from rowkeeper.extractors.page_model import DocumentModel, open_document
from rowkeeper.extractors.scan_features import scan_features
from rowkeeper.extractors.step_budget import (
    PageBudget,
    PageClock,
    StepDeadline,
    cut_pages,
    derived_budget,
)
from rowkeeper.faults import hang_point
from rowkeeper.models import (
    DECLARED_HEADER_ROWS,
    LAYOUT_FRAME,
    Attempt,
    BBox,
    DocumentInput,
    Extraction,
    PageInfo,
    RawTable,
    TextLine,
)
from rowkeeper.registry import resolve

Validate = Callable[[Sequence[RawTable]], Iterable[str]]
NO_BUDGET = PageBudget()
TAGGED = "tagged"
"""The layer of a tagged PDF's own tables: with it, a page that declares a table is read even
with no table candidate in its features (a two-row table the geometry does not see)."""
"""Injected by the pipeline: the problems found in a page's tables (empty = adequate)."""


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


@dataclass(frozen=True)
class CascadeResult:
    """Accepted tables and text lines of a document's pages, and every attempt made."""

    tables: tuple[RawTable, ...] = ()
    lines: tuple[TextLine, ...] = ()
    attempts: tuple[Attempt, ...] = ()
    features: tuple[PageFeatures, ...] = field(default=())


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


@dataclass
class _PageState:
    """Per-page bookkeeping while layers run (private, mutable, lives for one call)."""

    page: int
    features: PageFeatures | None
    best: tuple[float, tuple[RawTable, ...], tuple[TextLine, ...]] = (-1.0, (), ())
    best_layer: str = ""
    lazy_features: Callable[[], PageFeatures] | None = None
    """Scanned pages: features read from the image, only once a layer found no table there."""
    lines: tuple[TextLine, ...] = ()
    """A text page's lines: the candidate regions' coverage is counted by them."""

    def features_for(self, tables: Sequence[RawTable]) -> PageFeatures | None:
        """The page's features; a scan's are read when `tables` is empty (else not needed)."""
        if self.features is None and not tables and self.lazy_features is not None:
            self.features = self.lazy_features()
        return self.features


def _build(name: str, config: ExtractConfig):  # -> Extractor
    cls = resolve("extractor", name)
    options = cls.Options(**config.options.get(name, {}))
    return cls(options)


def _group_attempts(layer: str, seconds: float, verdicts: dict[int, tuple[Verdict, int]]) -> list[Attempt]:
    """One Attempt per distinct outcome of a layer run, time shared out by page."""
    by_reason: dict[tuple[bool, str], list[int]] = {}
    for page, (v, _) in sorted(verdicts.items()):
        by_reason.setdefault((v.accepted, v.reason), []).append(page)
    n = max(len(verdicts), 1)
    return [
        Attempt(extractor=layer, pages=tuple(pages), seconds=round(seconds * len(pages) / n, 4),
                accepted=acc, reason=reason, tables=sum(verdicts[p][1] for p in pages))
        for (acc, reason), pages in by_reason.items()
    ]


def _applies(layer: str, config: ExtractConfig, model: DocumentModel | None) -> bool:
    """Whether a layer reads this document at all: one with `applies(model)` may say no at
    once (the tagged layer on an untagged PDF), and is then passed over without an attempt."""
    try:
        extractor = _build(layer, config)
    except (LayerUnavailable, MissingExtra, BadInput, ConfigError):
        return True  # the run records why it cannot
    check = getattr(extractor, "applies", None)
    return model is None or check is None or bool(check(model))


def _extract(extractor, doc: DocumentInput, pages: Sequence[int], model: DocumentModel | None) -> Extraction:
    """The extractor's output for `pages`, reading the open document model when it can."""
    if model is not None and "model" in inspect.signature(extractor.extract).parameters:
        return extractor.extract(doc, pages, model=model)
    return extractor.extract(doc, pages)  # out-of-tree layers keep the plain protocol


def _run_layers(doc: DocumentInput, states: dict[int, _PageState], layers: Sequence[str],
                config: ExtractConfig, checks: CascadeChecks, validate: Validate | None,
                model: DocumentModel | None = None, budget: PageBudget = NO_BUDGET,
                ) -> tuple[dict[int, tuple[tuple[RawTable, ...], tuple[TextLine, ...]]], list[Attempt]]:
    """Layers in order over the pages still undecided; returns accepted outputs and attempts."""
    done: dict[int, tuple[tuple[RawTable, ...], tuple[TextLine, ...]]] = {}
    attempts: list[Attempt] = []
    for i, layer in enumerate(layers):
        pending = [p for p in sorted(states) if p not in done]
        if not pending:
            break
        if not _applies(layer, config, model):
            continue  # a layer for some documents only (the tagged layer on an untagged PDF)
        start = time.perf_counter()
        share = budget.for_layer(len(pending), len(layers) - i)  # later layers keep theirs
        try:
            result, pending, cut = _extract_within_budget(doc, layer, pending, config, checks, model, share)
        except (LayerUnavailable, MissingExtra, BadInput, ConfigError) as e:
            # One library choking on a page is not the document's failure: the next layer tries.
            attempts.append(Attempt(extractor=layer, pages=tuple(pending), seconds=round(time.perf_counter() - start, 4),
                                    accepted=False, reason=f"skipped: {e}"))
            continue
        attempts.extend(cut)
        seconds = time.perf_counter() - start - sum(a.seconds for a in cut)
        verdicts = _judge(layer, result, states, pending, checks, validate, done)
        attempts.extend(_group_attempts(layer, seconds, verdicts))
    for p in sorted(states):
        if p not in done:
            st = states[p]
            done[p] = (st.best[1], st.best[2])
            if st.best_layer:
                attempts.append(Attempt(extractor=st.best_layer, pages=(p,), seconds=0.0, accepted=False,
                                        reason="no layer adequate: kept this layer's output (best score)",
                                        tables=len(st.best[1])))
    return done, attempts


def _extract_within_budget(doc: DocumentInput, layer: str, pending: list[int], config: ExtractConfig,
                           checks: CascadeChecks, model: DocumentModel | None = None,
                           budget: PageBudget = NO_BUDGET,
                           ) -> tuple[Extraction, list[int], list[Attempt]]:
    """One layer over `pending`, each page within its `budget`: a page past it is cut off (a
    `deadline` attempt) and the layer reruns on the rest (its earlier pages' output was lost
    with the interrupted call); pages the document's deadline leaves no time for are cut too.
    Returns the output, the pages it covers, the cut-offs."""
    skipped = [p for p in pending if (layer, p) in checks.skip_steps]
    cut = [_deadline_attempt(layer, tuple(skipped), 0.0, "over its budget on this page", budget,
                             "stuck in C code, the worker was restarted")] if skipped else []
    pages = [p for p in pending if p not in skipped]
    extractor = _build(layer, config)
    while pages:
        start = time.perf_counter()
        clock = PageClock(layer, pages, budget)
        try:
            with clock:
                hang_point(f"layer:{layer}")
                result = _extract(extractor, doc, clock, model)
        except StepDeadline as e:
            lost = cut_pages(e, clock)
            spent = e.args[0].budget_s if e.args and e.args[0] is not None else 0.0
            what = f"over {spent:.3g} s on this page" if spent > 0 else "no time left for this page"
            cut.append(_deadline_attempt(layer, lost, time.perf_counter() - start, what, budget))
            pages = [p for p in pages if p not in lost]
            continue
        if clock.cut:
            cut.append(_deadline_attempt(layer, clock.cut, 0.0, "no time left for this page", budget))
        return result, [p for p in pages if p not in clock.cut], cut
    return Extraction(), [], cut


def deadline_warnings(attempts: Iterable[Attempt]) -> tuple[str, ...]:
    """One documents.jsonl warning per page cut off in a layer at its deadline."""
    return tuple(f"page {', '.join(map(str, a.pages))}: {a.extractor} cut off at its deadline; "
                 "read by the remaining layers or as text" for a in attempts
                 if a.reason.startswith("deadline:") and a.pages)


def _deadline_attempt(layer: str, pages: tuple[int, ...], seconds: float, what: str,
                      budget: PageBudget, how: str = "") -> Attempt:
    setting = ("extract.options.cascade.page_budget_s" if budget.deadline is None else
               "its share of runner.document_timeout_s, extract.options.cascade.page_budget_share")
    why = f"deadline: {what} ({setting})"
    return Attempt(extractor=layer, pages=pages, seconds=round(seconds, 4), accepted=False,
                   reason=f"{why}; {how}" if how else why)


def _judge(layer: str, result: Extraction, states: dict[int, _PageState], pending: Sequence[int],
           checks: CascadeChecks, validate: Validate | None,
           done: dict[int, tuple[tuple[RawTable, ...], tuple[TextLine, ...]]]) -> dict[int, tuple[Verdict, int]]:
    """Assess a layer's output page by page; accepted pages go to `done`, others keep the best."""
    verdicts = {}
    for p in pending:
        tables = tuple(t for t in result.tables if t.page == p)
        lines = tuple(ln for ln in result.lines if ln.page == p)
        notes = [why for q, why in result.notes if q == p]
        if notes and not tables:  # the layer declines the page: the next layers read it
            v = Verdict(False, "; ".join(notes), -1.0)
        else:
            v = assess(tables, _undeclared(tables, states[p].features_for(tables)), checks, states[p].lines)
        if v.accepted and validate is not None and tables:
            problems = list(validate(tables))
            if problems:
                v = Verdict(False, "validation: " + "; ".join(problems), v.score - 1.0)
        if notes and tables:
            v = dataclasses.replace(v, reason="; ".join([v.reason, *notes]))
        verdicts[p] = (v, len(tables))
        if v.accepted:
            done[p] = (tables, lines)
        elif (tables or lines) and v.score > states[p].best[0]:
            # a scan whose layer found no table still gave its text lines: keep them
            states[p].best, states[p].best_layer = (v.score, tables, lines), layer
    return verdicts


def _undeclared(tables: Sequence[RawTable], features: PageFeatures | None) -> PageFeatures | None:
    """The features whose coverage `tables` must answer for: a page's tables that the PDF
    declares (a tagged PDF's structure tree) answer for its ruling grids only; its other
    aligned text the author tagged as something else (an address block, a form's fields)."""
    if features is None or not tables or not all(DECLARED_HEADER_ROWS in t.metrics for t in tables):
        return features
    return dataclasses.replace(features, aligned_regions=())


def read_text_pages(model: DocumentModel, pages: Sequence[int]) -> tuple[list[TextLine], dict[int, PageFeatures], float]:
    """Text lines and page features of text pages, from the page models; and the seconds taken."""
    start = time.perf_counter()
    lines: list[TextLine] = []
    feats: dict[int, PageFeatures] = {}
    for view in model.pages(pages):
        lines.extend(view.lines)
        feats[view.pno] = view.features
    return lines, feats, time.perf_counter() - start


def read_scan_features(model: DocumentModel, page: int) -> PageFeatures:
    """Rules and aligned ink rows of one scanned page (read from a small render)."""
    return scan_features(model.page(page).page, page)


def run_cascade(doc: DocumentInput, pages: Sequence[PageInfo], config: ExtractConfig,
                validate: Validate | None = None, model: DocumentModel | None = None,
                time_s: float | None = None, started: float | None = None) -> CascadeResult:
    """Tables and text lines of `pages` from the cheapest adequate layers, with every attempt;
    pages read from `model` when the caller has the document open. `time_s`: the seconds the
    document may take from `started` (time.monotonic(); the worker's document timeout), from
    which each page's budget in a layer is derived unless `page_budget_s` fixes it."""
    if model is None:
        with open_document(doc, config.passwords) as opened:
            return run_cascade(doc, pages, config, validate, opened, time_s, started)
    checks = CascadeChecks(**config.options.get("cascade", {}))
    budget = derived_budget(checks.page_budget_s, time_s, checks.page_budget_share,
                            checks.min_page_budget_s, started)
    doc = model.doc  # with the password that opened it, for layers that open it themselves
    text = [p.page for p in pages if p.kind == "text"]
    scanned = [p.page for p in pages if p.kind == "scanned"]
    lines, feats, seconds = read_text_pages(model, text) if text else ([], {}, 0.0)
    attempts: list[Attempt] = []
    quiet = [p for p in text if checks.skip_pages_without_candidate and not feats[p].candidate]
    if quiet and TAGGED in config.text_layers and model.tagged:  # a declared table is a candidate
        quiet = [p for p in quiet if not model.page(p).declares_table]
    if quiet:
        attempts.append(Attempt(extractor="features", pages=tuple(quiet), seconds=round(seconds, 4), accepted=True,
                                reason="no table candidate (no ruling grid, no aligned columns): extractors skipped"))
    by_page: dict[int, list[TextLine]] = {}
    for ln in lines:
        by_page.setdefault(ln.page, []).append(ln)
    states = {p: _PageState(p, feats[p], lines=tuple(by_page.get(p, ()))) for p in text if p not in quiet}
    text_budget = dataclasses.replace(budget, later_pages=len(scanned))  # scans still need time
    done, tried = _run_layers(doc, states, config.text_layers, config, checks, validate, model, text_budget)
    attempts.extend(tried)
    tables = [t for p in sorted(done) for t in done[p][0]]
    if scanned:
        s_states = {p: _PageState(p, None, lazy_features=functools.partial(read_scan_features, model, p))
                    for p in scanned}
        s_done, s_tried = _run_layers(doc, s_states, config.scanned_layers, config, checks, validate, model,
                                      budget)
        attempts.extend(s_tried)
        tables += [t for p in sorted(s_done) for t in s_done[p][0]]
        lines += [ln for p in sorted(s_done) for ln in s_done[p][1]]
    tables.sort(key=lambda t: (t.page, t.bbox[1], t.bbox[0]))
    lines.sort(key=lambda ln: ln.page)  # stable: reading order within a page is kept
    return CascadeResult(tables=tuple(tables), lines=tuple(lines), attempts=tuple(attempts),
                         features=tuple(feats[p] for p in text))
