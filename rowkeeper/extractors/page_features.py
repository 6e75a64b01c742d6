"""Cheap signals that a page holds a table: ruling grids and runs of aligned text columns.

Read from one page's text lines (already extracted) and its vector drawings, so the cascade
can tell "no table candidate on this page" for little more than the cost of get_text. The
candidate regions come from one ordered list of region passes (`REGION_PASSES`): each pass
is a small function over the page's lines, rules and pictures and the regions found so far,
so a new refinement is one pass in its own module, not a call wired into this one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pymupdf

from rowkeeper.boxes import overlap
from rowkeeper.extractors.finder.boxed_cells import BoxGrid, box_grids
from rowkeeper.extractors.finder.bullet_lists import without_bullet_lists
from rowkeeper.extractors.finder.column_boxes import in_column_boxes
from rowkeeper.extractors.finder.detached_top import without_detached_top
from rowkeeper.extractors.finder.field_blocks import field_blocks, frames
from rowkeeper.extractors.finder.figure_tail import with_figure_tail
from rowkeeper.extractors.finder.filled_cells import fill_grids
from rowkeeper.extractors.finder.frame_cuts import closed, cut_under_frames
from rowkeeper.extractors.finder.label_tails import with_last_tail
from rowkeeper.extractors.finder.level_rows import no_aligned_rows
from rowkeeper.extractors.finder.plots import plot_box
from rowkeeper.extractors.finder.prose_sides import without_prose_sides
from rowkeeper.extractors.finder.rule_breaks import MIN_RULES, over_broken_rules
from rowkeeper.extractors.finder.rule_frame import framed_regions
from rowkeeper.extractors.finder.short_tables import short_ruled_tables
from rowkeeper.extractors.finder.text_runs import aligned_regions
from rowkeeper.extractors.finder.tick_boxes import Segments, add_short_segments
from rowkeeper.extractors.finder.top_rule import under_top_rule
from rowkeeper.models import BBox, TextLine

_RULE_MAX_THICKNESS = 3.0
_RULE_MIN_LENGTH = 8.0


@dataclass(frozen=True)
class PageFeatures:
    """What a page looks like to the cascade: rulings, aligned text columns, candidate regions."""

    page: int
    h_rules: int = 0
    v_rules: int = 0
    aligned_rows: int = 0
    """Text rows with >= 2 separate segments whose starts line up with other rows."""
    numeric_cells: int = 0
    ruled_regions: tuple[BBox, ...] = ()
    aligned_regions: tuple[BBox, ...] = ()

    @property
    def has_grid(self) -> bool:
        """Ruling lines that can form a table (>= 2 horizontal and >= 2 vertical, or 3 rules)."""
        return bool(self.ruled_regions)

    @property
    def has_aligned_columns(self) -> bool:
        """Rows of text lined up in >= 2 columns, as a borderless table prints."""
        return bool(self.aligned_regions)

    @property
    def candidate(self) -> bool:
        """Whether the page may hold a table at all (else extractors need not run)."""
        return self.has_grid or self.has_aligned_columns


def rules_of_page(page: pymupdf.Page) -> tuple[list[BBox], list[BBox]]:
    """Horizontal and vertical ruling segments (lines and thin rectangles, rect edges)."""
    hs, vs, _ = drawings_of_page(page)
    return hs, vs


def drawings_of_page(page: pymupdf.Page) -> tuple[list[BBox], list[BBox], list[BBox]]:
    """The page's ruling segments, horizontal and vertical (lines and thin rectangles, stroked
    rectangles' edges), and its tinted filled rectangles (`tinted`), from one read of its
    drawings."""
    hs, vs, fills, _, _ = read_drawings(page)
    return hs, vs, fills


def read_drawings(page: pymupdf.Page) -> tuple[list[BBox], list[BBox], list[BBox], Segments, list[BBox]]:
    """`drawings_of_page`, the short segments tick boxes are drawn with (under a rule's
    length: `finder.tick_boxes`) and the boxes of plotted lines (`finder.plots`), from one
    read of the page's drawings."""
    hs: list[BBox] = []
    vs: list[BBox] = []
    fills: list[BBox] = []
    short: Segments = ([], [])
    plots: list[BBox] = []
    for path in page.get_cdrawings():
        add_short_segments(path, *short)
        if invisible(path):
            continue
        if (plotted := plot_box(path)) is not None:
            plots.append(plotted)
        for item in path["items"]:
            if item[0] == "l":
                (ax, ay), (bx, by) = item[1], item[2]
                _add_rule(hs, vs, (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
            elif item[0] == "re":
                x0, y0, x1, y1 = item[1]
                r = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
                if r[2] - r[0] <= _RULE_MAX_THICKNESS or r[3] - r[1] <= _RULE_MAX_THICKNESS:
                    _add_rule(hs, vs, r)
                elif path.get("type") != "f":  # stroked box: its four edges are rules
                    for e in ((r[0], r[1], r[2], r[1]), (r[0], r[3], r[2], r[3]),
                              (r[0], r[1], r[0], r[3]), (r[2], r[1], r[2], r[3])):
                        _add_rule(hs, vs, e)
                elif tinted(path):
                    fills.append(r)
    return hs, vs, fills, short, plots


def tinted(path: dict) -> bool:
    """A shape filled with a colour that is not the page's white (a cell's tint, a band)."""
    fill = path.get("fill")
    return fill is not None and min(fill) < 0.95


def invisible(path: dict) -> bool:
    """A white shape with no stroke (a background patch on a white page): draws no rule."""
    fill = path.get("fill")
    return path.get("type") == "f" and fill is not None and min(fill) >= 0.95


def _add_rule(hs: list[BBox], vs: list[BBox], r: BBox) -> None:
    w, h = r[2] - r[0], r[3] - r[1]
    if w >= _RULE_MIN_LENGTH and h <= _RULE_MAX_THICKNESS:
        hs.append(r)
    elif h >= _RULE_MIN_LENGTH and w <= _RULE_MAX_THICKNESS:
        vs.append(r)


def ruled_regions(hs: Sequence[BBox], vs: Sequence[BBox], tol: float = 3.0) -> list[BBox]:
    """Boxes of clusters of touching rules that look like a table: rules at >= 3 heights
    crossed by >= 1 vertical rule (rows split by a column rule, frame or not), or >= 3
    vertical rules over 2 heights. A single framed box (a boxed note) is not a table."""
    boxes: list[list[float]] = []
    ys: list[set[int]] = []
    xs: list[set[int]] = []
    for kind, r in [(0, r) for r in hs] + [(1, r) for r in vs]:
        hit = [i for i, b in enumerate(boxes) if _touch(b, r, tol)]
        nb = list(r)
        ny = {round((r[1] + r[3]) / 2 / tol)} if kind == 0 else set()
        nx = {round((r[0] + r[2]) / 2 / tol)} if kind == 1 else set()
        for i in sorted(hit, reverse=True):
            b = boxes.pop(i)
            nb = [min(nb[0], b[0]), min(nb[1], b[1]), max(nb[2], b[2]), max(nb[3], b[3])]
            ny |= ys.pop(i)
            nx |= xs.pop(i)
        boxes.append(nb)
        ys.append(ny)
        xs.append(nx)
    return [
        (b[0], b[1], b[2], b[3]) for b, y, x in zip(boxes, ys, xs, strict=True)
        if ((len(y) >= 3 and len(x) >= 1) or (len(y) >= 2 and len(x) >= 3))
        and b[3] - b[1] > 10 and b[2] - b[0] > 30
    ]


def _touch(b: Sequence[float], r: BBox, tol: float) -> bool:
    return r[0] <= b[2] + tol and b[0] <= r[2] + tol and r[1] <= b[3] + tol and b[1] <= r[3] + tol


@dataclass
class Regions:
    """What the region passes read (a page's lines, rules and picture boxes) and the candidate
    regions found so far; each pass adds to or refines them in turn."""

    lines: Sequence[TextLine]
    hs: list[BBox]
    vs: list[BBox]
    pictures: list[BBox]
    page_rect: BBox
    grids: Sequence[BoxGrid] | None = None
    """The grids of cell boxes of `hs` and `vs` when the caller has them (`box_grids`)."""
    tinted: Sequence[BoxGrid] | None = None
    """The grids of tinted cells of `fills` when the caller has them (`fill_grids`)."""
    fills: list[BBox] = field(default_factory=list)
    """The page's tinted filled rectangles (`drawings_of_page`)."""
    words: Callable[[BBox], list] | None = None
    """The page's words inside a box (the page model's word reader), for passes that need them."""
    ruled: list[BBox] = field(default_factory=list)
    aligned: list[BBox] = field(default_factory=list)
    n_rows: int = 0
    n_num: int = 0
    plots: list[BBox] = field(default_factory=list)
    """The boxes of the page's plotted lines (`finder.plots`): a chart's, whose labels line up."""
    drawn: list[BBox] | None = None
    """The boxes drawn around text (`field_blocks.frames`), read once when a pass needs them."""

    def frames(self) -> list[BBox]:
        """The page's drawn boxes (`field_blocks.frames`), read on first use."""
        if self.drawn is None:
            self.drawn = frames(self.hs, self.vs)
        return self.drawn


def _ruled_grids(r: Regions) -> None:
    """Regions closed by ruling lines (a page drawn as thousands of rules is one region)."""
    r.ruled = ruled_regions(r.hs, r.vs) if len(r.hs) + len(r.vs) <= 4000 else [r.page_rect]


def _boxed_cells(r: Regions) -> None:
    """Grids of separately drawn cell boxes no ruled region holds."""
    grids = box_grids(r.hs, r.vs) if r.grids is None else r.grids
    r.ruled += [g.bbox for g in grids if not any(overlap(g.bbox, b) > 0 for b in r.ruled)]


def _filled_cells(r: Regions) -> None:
    """Grids of tinted cells (`finder/filled_cells`) no ruled region holds."""
    if len(r.fills) < 4:
        return
    grids = fill_grids(r.fills, [ln.bbox for ln in r.lines]) if r.tinted is None else r.tinted
    r.ruled += [g.bbox for g in grids if not any(overlap(g.bbox, b) > 0 for b in r.ruled)]


def _aligned_runs(r: Regions) -> None:
    """Runs of rows whose text lines up in columns (`finder/text_runs`); a page whose lines
    stand alone, line under line, has none, known without running it (`finder/level_rows`)."""
    if no_aligned_rows(r.lines):
        r.aligned, r.n_rows, r.n_num = [], 0, 0
        return
    r.aligned, r.n_rows, r.n_num = aligned_regions(r.lines, pictures=r.pictures, words_of=r.words)


def _prose_sides(r: Regions) -> None:
    """An aligned region loses the other page column's paragraph read into its rows
    (`finder/prose_sides`); one of running text only is dropped."""
    r.aligned = [b for b in (without_prose_sides(b, r.lines) for b in r.aligned) if b is not None]


def _bullet_lists(r: Regions) -> None:
    """An aligned region of list items side by side (or of one list's markers and items) is
    no table (`finder/bullet_lists`)."""
    r.aligned = without_bullet_lists(r.aligned, r.lines)


def _detached_tops(r: Regions) -> None:
    """An aligned region loses a first row standing apart over it, a title rather than a
    header (`finder/detached_top`)."""
    r.aligned = [without_detached_top(b, r.lines) for b in r.aligned]


def _figure_tails(r: Regions) -> None:
    """An aligned region reaches down over a total printed as a bare figure under its figures
    (`finder/figure_tail`)."""
    r.aligned = [with_figure_tail(b, r.lines) for b in r.aligned]


def _top_rules(r: Regions) -> None:
    """An aligned region starts at the rule over its header (`finder/top_rule`)."""
    r.aligned = [under_top_rule(b, r.hs, r.lines) for b in r.aligned]


def _frame_cuts(r: Regions) -> None:
    """An aligned region whose rows drawn frames hold (boxes, closed ruled grids) is cut where
    the rest stands apart under or over them (`finder/frame_cuts`: a form's fields set across
    under or over its blocks of fields)."""
    if len(r.hs) < 2 or len(r.vs) < 2 or not r.aligned:
        return
    boxes = r.frames() + [b for b in r.ruled if closed(b, r.hs, r.vs)]
    r.aligned = [part for b in r.aligned for part in cut_under_frames(b, r.lines, boxes)]


def _label_tails(r: Regions) -> None:
    """An aligned region reaches down over its last record's wrapped label (`finder/label_tails`)."""
    r.aligned = [with_last_tail(b, r.lines, r.hs) for b in r.aligned]


def _broken_rules(r: Regions) -> None:
    """An aligned region reaches over every record of the row rules broken at its column gaps
    that it overlaps (`finder/rule_breaks`)."""
    if len(r.hs) >= 2 * MIN_RULES and r.aligned:
        r.aligned = over_broken_rules(r.aligned, r.hs, r.lines)


def _rule_frames(r: Regions) -> None:
    """Aligned regions between a top and a bottom rule reach from rule to rule, one per frame
    (`finder/rule_frame`)."""
    if len(r.hs) >= 2 and r.aligned:
        r.aligned = framed_regions(r.aligned, r.hs, r.lines, r.ruled)


def _short_ruled(r: Regions) -> None:
    """Two rows between rules, or under a tinted header band, are a table the three-row run
    above does not call one (a page without a horizontal rule or a fill has none: nothing to run)."""
    if not r.hs and not r.fills:
        return
    # a frame ruled between rows only (no column rule inside it) gives one column: its
    # columns are the ones its text shows, so its rows may be a short table
    walled = [b for b in r.ruled if any(b[0] + 3 < v[0] < b[2] - 3 and v[1] < b[3] and v[3] > b[1] for v in r.vs)]
    r.aligned += short_ruled_tables(r.lines, r.hs, taken=walled + r.aligned, fills=r.fills)


def _column_boxes(r: Regions) -> None:
    """A run across a gutter is read again inside the page's column boxes (`finder/column_boxes`)."""
    r.aligned = in_column_boxes(r.aligned, r.lines, r.pictures, plots=r.plots, words_of=r.words)


def _field_blocks(r: Regions) -> None:
    """Blocks of fields whose words start column over column, keys run up to their values, in
    a frame or not; a frame's block takes the whole frame (`finder/field_blocks`)."""
    if r.words is not None:
        r.aligned = field_blocks(r.lines, r.hs, r.vs, r.words, ruled=r.ruled, aligned=r.aligned, drawn=r.frames())


REGION_PASSES: tuple[Callable[[Regions], None], ...] = (
    _ruled_grids, _boxed_cells, _filled_cells, _aligned_runs, _column_boxes, _prose_sides, _bullet_lists,
    _detached_tops, _figure_tails, _top_rules, _frame_cuts, _label_tails, _broken_rules, _rule_frames, _short_ruled, _field_blocks)
"""In order: a later pass sees (and may refine) what the earlier ones found."""


def _word_reader(page: pymupdf.Page) -> Callable[[BBox], list]:
    """The page model's word reader over `page` (imported here: the page model imports this module)."""
    from rowkeeper.extractors.page_model import words_in

    return lambda clip: words_in(page, pymupdf.Rect(clip))


def page_features(page: pymupdf.Page, pno: int, lines: Sequence[TextLine],
                  rules: tuple[list[BBox], list[BBox]] | None = None,
                  image_info: Sequence[dict] | None = None,
                  fills: Sequence[BBox] | None = None,
                  grids: Sequence[BoxGrid] | None = None,
                  tinted: Sequence[BoxGrid] | None = None,
                  plots: Sequence[BBox] | None = None) -> PageFeatures:
    """Rulings and aligned text columns of one page (its `lines`, and maybe `rules`, `fills`,
    its get_image_info(), the grids of cell boxes of those rules and of tinted cells of those
    fills and its plotted lines, already read)."""
    if rules is None or fills is None or plots is None:
        hs, vs, read, _, drawn = read_drawings(page)
        fills = read if fills is None else fills
        plots = drawn if plots is None else plots
    if rules is not None:
        hs, vs = rules
    infos = (page.get_image_info() if image_info is None else image_info) if page.get_images() else ()
    found = Regions(lines=lines, hs=hs, vs=vs, pictures=[tuple(i["bbox"]) for i in infos],
                    page_rect=tuple(page.rect), fills=list(fills), grids=grids, tinted=tinted,
                    words=_word_reader(page), plots=list(plots))
    for region_pass in REGION_PASSES:
        region_pass(found)
    return PageFeatures(page=pno, h_rules=len(hs), v_rules=len(vs), aligned_rows=found.n_rows,
                        numeric_cells=found.n_num, ruled_regions=tuple(found.ruled),
                        aligned_regions=tuple(found.aligned))
