"""Images inside tables as evidence for rows: where each body row lies, and which row an image
belongs to (the row whose estimated box contains the image's centre)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from rowkeeper.boxes import bounds
from rowkeeper.models import BBox, ImageRef, Region, Table

MIN_INSIDE = 0.8
"""Share of an image's area that must lie in a table region for it to count as in the table."""


class Evidence(BaseModel):
    """An image attached to one body row (and the column its centre falls in, when known)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    image: ImageRef
    row: int
    col: int | None = None


def _rows_from_cells(table: Table) -> tuple[Region, ...] | None:
    """Row boxes from the body cells' own boxes, when there is one cell group per body row."""
    groups: dict[tuple[int, int], list[BBox]] = defaultdict(list)
    for c in table.cells:
        if not c.is_header and c.bbox is not None and c.page is not None and c.row_span == 1:
            groups[(c.page, c.row)].append(c.bbox)
    ordered = sorted(groups.items(), key=lambda kv: (kv[0][0], min(b[1] for b in kv[1])))
    if len(ordered) != len(table.rows):
        return None
    return tuple(Region(page=page, bbox=bounds(boxes)) for (page, _), boxes in ordered)


def _rows_by_height(table: Table) -> tuple[Region, ...]:
    """Row boxes assuming equal row heights over the regions, header rows at the top of the first."""
    n = len(table.rows)
    if not table.regions or n == 0:
        return ()
    slots = n + table.header_rows
    total = sum(r.bbox[3] - r.bbox[1] for r in table.regions)
    step = total / slots if slots else 0.0
    out: list[Region] = []
    skip = table.header_rows
    for reg in table.regions:
        x0, top, x1, bottom = reg.bbox
        y = top
        while y + step <= bottom + 0.5 * step and len(out) < n:
            if skip:
                skip -= 1
            else:
                out.append(Region(page=reg.page, bbox=(x0, y, x1, min(y + step, bottom))))
            y += step
    while len(out) < n:  # rounding left rows over: pin them to the last region's bottom
        last = out[-1] if out else Region(page=table.regions[-1].page, bbox=table.regions[-1].bbox)
        out.append(last)
    return tuple(out)


def estimate_row_boxes(table: Table) -> tuple[Region, ...]:
    """Page and box of each body row: from its cells when possible, else by equal row heights."""
    return _rows_from_cells(table) or _rows_by_height(table)


def _inside_share(img: BBox, box: BBox) -> float:
    w = max(0.0, min(img[2], box[2]) - max(img[0], box[0]))
    h = max(0.0, min(img[3], box[3]) - max(img[1], box[1]))
    area = max(1e-6, (img[2] - img[0]) * (img[3] - img[1]))
    return w * h / area


def in_table(table: Table, image: ImageRef) -> bool:
    """Whether the image lies (mostly) inside one of the table's regions."""
    return any(r.page == image.page and _inside_share(image.bbox, r.bbox) >= MIN_INSIDE
               for r in table.regions)


def _column_of(table: Table, x: float) -> int | None:
    """The column whose body cells span x (None when cells carry no boxes)."""
    for c in table.cells:
        if c.bbox is not None and c.col_span == 1 and c.bbox[0] <= x <= c.bbox[2]:
            return c.col
    return None


def _row_of(rows: Sequence[Region], page: int, y: float) -> int | None:
    """The row whose box holds y on the page, else the nearest row on that page."""
    best: tuple[float, int] | None = None
    for i, r in enumerate(rows):
        if r.page != page:
            continue
        if r.bbox[1] <= y <= r.bbox[3]:
            return i
        d = min(abs(y - r.bbox[1]), abs(y - r.bbox[3]))
        if best is None or d < best[0]:
            best = (d, i)
    return best[1] if best else None


def assign_evidence(table: Table, images: Sequence[ImageRef]) -> tuple[Evidence, ...]:
    """The images inside `table`, each attached to the body row holding its centre."""
    rows = estimate_row_boxes(table)
    out: list[Evidence] = []
    for img in images:
        if not in_table(table, img):
            continue
        cx, cy = (img.bbox[0] + img.bbox[2]) / 2, (img.bbox[1] + img.bbox[3]) / 2
        row = _row_of(rows, img.page, cy)
        if row is not None:
            out.append(Evidence(image=img, row=row, col=_column_of(table, cx)))
    return tuple(out)
