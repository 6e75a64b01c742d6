"""The cascade: per page, the cheapest layer whose output is adequate, and why.

`adequacy.assess` is the pure decision (tables + page features in, Verdict out). `run_cascade` runs the
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

from rowkeeper.config import ExtractConfig
from rowkeeper.errors import BadInput, ConfigError, LayerUnavailable, MissingExtra
from rowkeeper.extractors.adequacy import CascadeChecks, Verdict, assess
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
    Attempt,
    DocumentInput,
    Extraction,
    PageInfo,
    RawTable,
    TextLine,
)
from rowkeeper.registry import resolve

Validate = Callable[[Sequence[RawTable]], Iterable[str]]
"""Injected by the pipeline: the problems found in a page's tables (empty = adequate)."""
NO_BUDGET = PageBudget()
TAGGED = "tagged"
"""The layer of a tagged PDF's own tables: with it, a page that declares a table is read even
with no table candidate in its features (a two-row table the geometry does not see)."""


@dataclass(frozen=True)
class CascadeResult:
    """Accepted tables and text lines of a document's pages, and every attempt made."""

    tables: tuple[RawTable, ...] = ()
    lines: tuple[TextLine, ...] = ()
    attempts: tuple[Attempt, ...] = ()
    features: tuple[PageFeatures, ...] = field(default=())


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
