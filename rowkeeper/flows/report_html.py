"""report.html: the run report as one self-contained page a person can scan in a minute.

Summary first (with the previous run's figures beside this run's), failed documents and failing
tables first, and per table: a thumbnail of its page(s) with the table's box, its first rows
(column names, types, the first body rows), its checks (failing ones highlighted) and links
between merged pieces. A click on a thumbnail enlarges the page with every table's box and
every cell drawn over it. Pages are rendered with PyMuPDF (flows.crops) and embedded as data
URIs, boxes are SVG over the picture; the enlarged view is CSS `:target`, so there is no
script and no external file: it opens anywhere, offline, and attaches to a ticket as is.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from rowkeeper.flows.crops import PageImage, render_page

MAX_THUMBNAILS = 200
"""Beyond this many page images the page would be too heavy; failing tables get them first."""
MAX_PAGES_PER_DOCUMENT = 20
"""So that one long document (a 100-page statement) does not take every other one's pictures."""
MAX_ENLARGED = 100
MAX_ENLARGED_BYTES = 8_000_000
"""Enlarged page renders per report, by count and by size (a dense page is some 200-330 KB of
JPEG): pages beyond keep the thumbnail only, so a big run's report stays openable and
attachable. 8 MB since the pictures are JPEG (flows.crops), ~35% more bytes than the WebP they
were: as many pages enlarged as the 6 MB of WebP held."""
THUMB_WIDTH = 360
ZOOM_WIDTH = 1400
MAX_CELL_CHARS = 160
"""A longer cell is cut in the first-rows preview (the full text is in tables.jsonl)."""

# IPAGothic comes from Debian's fonts-ipafont-gothic (scripts/install.sh); the others are what
# macOS and Windows ship, so Japanese captions and column names are glyphs, not tofu, anywhere.
_FONTS = ("system-ui,-apple-system,'Segoe UI','DejaVu Sans','IPAGothic','IPAPGothic',"
          "'Noto Sans CJK JP','Hiragino Sans','Yu Gothic','Meiryo',sans-serif")
_CSS = """
body{font:14px/1.45 FONTS;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}
main{padding:16px 24px;max-width:1400px}
.figs{display:flex;flex-wrap:wrap;gap:10px;margin:10px 0 18px}
.fig{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:8px 12px;min-width:110px}
.fig b{display:block;font-size:22px}.fig span{color:#5b6472;font-size:12px}
.fig.bad b{color:#b3261e}.fig.good b{color:#1b7f3b}
table.grid{border-collapse:collapse;background:#fff;margin:6px 0}
.grid td,.grid th{border:1px solid #dde1e7;padding:3px 8px;text-align:left;vertical-align:top}
.grid tr.types td{background:#f6f7f9;padding:1px 8px}.first{font-size:13px}
.rows{max-width:100%;overflow-x:auto}
td.good{color:#1b7f3b;font-weight:600}td.bad{color:#b3261e;font-weight:600}
.doc{background:#fff;border:1px solid #dde1e7;border-radius:6px;margin:12px 0;padding:10px 14px}
.doc.failed{border-left:5px solid #b3261e}.doc.ok{border-left:5px solid #1b7f3b}
.doc.skipped_unchanged{border-left:5px solid #9aa3af}
.status{font-weight:600;text-transform:uppercase;font-size:12px;padding:1px 6px;border-radius:4px}
.status.failed{background:#fde7e5;color:#b3261e}.status.ok{background:#e3f4e8;color:#1b7f3b}
.status.skipped_unchanged{background:#eceff3;color:#5b6472}
.tbl{display:flex;gap:16px;border-top:1px solid #eef0f3;padding:10px 0}.tbl>div:last-child{min-width:0}
.tbl.failing{background:#fff6f5}.thumbs{flex:none}.thumbs a{display:block;margin-bottom:6px}
.pg{position:relative;display:block;line-height:0;border:1px solid #c9ced6;background:#fff}
.pg img{display:block;width:100%;height:auto}.th{background:#fff no-repeat 0 0/100% 100%}.pg svg{position:absolute;inset:0;width:100%;height:100%}
rect.tb{fill:rgba(209,17,17,.06);stroke:#d11111;stroke-width:2.5}
rect.cell{fill:none;stroke:#1565c0;stroke-width:1;stroke-opacity:.8}
.zoom{display:none;position:fixed;inset:0;z-index:10;background:rgba(20,24,32,.88);overflow:auto;padding:16px}
.zoom:target{display:block}.zoom .pg{max-width:ZOOMpx;margin:0 auto;border:0}
.zoom p{color:#fff;text-align:center;margin:0 0 8px}.zoom p a{color:#fff}
.check.fail{color:#b3261e;font-weight:600}.check.pass{color:#1b7f3b}
code{background:#eef0f3;padding:0 3px;border-radius:3px}.muted{color:#5b6472}
.err{color:#b3261e}
.warn{color:#8a5300;background:#fff6e0;border-left:3px solid #e0a100;padding:.3em .6em .3em 1.6em}
""".replace("FONTS", _FONTS).replace("ZOOM", str(ZOOM_WIDTH))


def _e(x: Any) -> str:
    return html.escape("" if x is None else str(x))


def page_boxes(doc: dict[str, Any], page: int) -> Iterator[tuple[str, str, list[float]]]:
    """(table id, "table" or "cell", bbox) of every table on `page` and of their cells (the
    document entry's `_cell_boxes`, which report.json leaves out)."""
    for t in doc["tables"]:
        for r in t["regions"]:
            if r["page"] == page:
                yield t["table_id"], "table", r["bbox"]
        for box in doc.get("_cell_boxes", {}).get(t["table_id"], {}).get(str(page), ()):
            yield t["table_id"], "cell", box


def _svg(img: PageImage, labels: list[tuple[str, str]], keep: str | None = None) -> str:
    """The boxes as SVG over the picture, in page points; `keep` draws one table's outline only."""
    rects = []
    # cells first, so that each table's outline is drawn over its outer cells' edges
    order = sorted(zip(labels, img.boxes, strict=True), key=lambda lb: lb[0][1] == "table")
    for (tid, kind), (x0, y0, x1, y1) in order:
        if keep is not None and (tid != keep or kind != "table"):
            continue
        cls = "tb" if kind == "table" else "cell"
        tip = f"<title>{_e(tid)}</title>" if kind == "table" else ""
        rects.append(f'<rect class="{cls}" data-table="{_e(tid)}" x="{x0:.1f}" y="{y0:.1f}" '
                     f'width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" '
                     f'vector-effect="non-scaling-stroke">{tip}</rect>')
    return (f'<svg viewBox="0 0 {img.width:.1f} {img.height:.1f}" preserveAspectRatio="none" '
            f'aria-hidden="true">{"".join(rects)}</svg>')


class Budget:
    """What is left of the report's pictures: shared by every document (failing tables first),
    and by the threads that render pages while the run still extracts (flows.page_pictures),
    so that no more pages are rendered ahead than the report can show."""

    def __init__(self, thumbnails: int | None = None, enlarged: int | None = None,
                 enlarged_bytes: int | None = None) -> None:
        # the limits read when the budget is made, not at import: settable
        self.thumbnails = MAX_THUMBNAILS if thumbnails is None else thumbnails
        self.enlarged = MAX_ENLARGED if enlarged is None else enlarged
        self.enlarged_bytes = MAX_ENLARGED_BYTES if enlarged_bytes is None else enlarged_bytes
        self._lock = threading.Lock()

    def take(self) -> tuple[int, ...]:
        """The widths to render the next page at (none once the thumbnails are spent)."""
        with self._lock:
            if self.thumbnails <= 0:
                return ()
            self.thumbnails -= 1
            if self.enlarged > 0 and self.enlarged_bytes > 0:
                self.enlarged -= 1
                return THUMB_WIDTH, ZOOM_WIDTH
            return (THUMB_WIDTH,)

    def settle(self, widths: tuple[int, ...], zoom_bytes: int | None) -> bool:
        """A page taken at `widths` is rendered (`zoom_bytes`: the size of its enlarged view) or
        not (None: given back). False when the enlarged view would overshoot the bytes left:
        the page keeps its thumbnail only, and no later page is enlarged."""
        with self._lock:
            if zoom_bytes is None:
                self.thumbnails += 1
                self.enlarged += len(widths) > 1
            elif len(widths) > 1 and zoom_bytes > self.enlarged_bytes:
                self.enlarged, self.enlarged_bytes = self.enlarged + 1, 0
                return False
            elif len(widths) > 1:
                self.enlarged_bytes -= zoom_bytes
            return True


class PageViews:
    """A document's rendered pages (each once, whatever the number of tables on it: a page's
    thumbnail is one CSS background that every table on it shows), and the enlarged views to
    put at the end of its section."""

    def __init__(self, doc: dict[str, Any], budget: Budget) -> None:
        self.doc, self.budget, self.left = doc, budget, MAX_PAGES_PER_DOCUMENT
        self.pages: dict[int, tuple[PageImage | None, list[tuple[str, str]]]] = {}

    def _page(self, page: int) -> tuple[PageImage | None, list[tuple[str, str]]]:
        if page not in self.pages:
            boxes = list(page_boxes(self.doc, page))
            widths = self.budget.take() if self.left > 0 else ()
            self.left -= 1
            # the run may have rendered the page while it still extracted (flows.page_pictures)
            done = self.doc.get("_pictures", {}).get(page)
            img = render_page(self.doc["source"], page, widths, [x for *_, x in boxes], done) \
                if widths else None
            if widths:
                zoom = None if img is None else len(img.uris[1]) if len(img.uris) > 1 else 0
                if not self.budget.settle(widths, zoom) and img is not None:
                    img = replace(img, uris=img.uris[:1])
            self.pages[page] = img, [(tid, kind) for tid, kind, _ in boxes]
        return self.pages[page]

    def zoom_id(self, page: int) -> str:
        """The enlarged view's anchor."""
        return f"z-{self.doc['doc_id'][:12]}-p{page}"

    def thumbnail(self, table_id: str, page: int) -> str:
        """The page's thumbnail with this table's box, a link to the enlarged view if any."""
        img, labels = self._page(page)
        if img is None:
            return f"<span>page {page}</span>"
        pic = (f'<span class="pg th {self.zoom_id(page)}" role="img" aria-label="page {page} with '
               f'the table outlined" style="width:{THUMB_WIDTH}px;aspect-ratio:{img.width:.1f}/'
               f'{img.height:.1f}">{_svg(img, labels, keep=table_id)}</span>')
        if len(img.uris) < 2:
            return f"{pic}<span>page {page}</span>"
        return (f'<a href="#{self.zoom_id(page)}" title="click to enlarge">{pic}'
                f"page {page} (click to enlarge)</a>")

    def styles(self) -> str:
        """Each thumbnail's picture once, as the background of its class."""
        rules = "".join(f".th.{self.zoom_id(p)}{{background-image:url({img.uris[0]})}}"
                        for p, (img, _) in sorted(self.pages.items()) if img is not None)
        return f"<style>{rules}</style>" if rules else ""

    def enlarged(self, back: str) -> str:
        """Every enlarged page of the document (hidden until its thumbnail is clicked)."""
        out = []
        for page, (img, labels) in sorted(self.pages.items()):
            if img is None or len(img.uris) < 2:
                continue
            n = len({tid for tid, _ in labels})
            out.append(f'<div class="zoom" id="{self.zoom_id(page)}"><p>{_e(self.doc["source"])} · '
                       f'page {page} · {n} table{"s" * (n != 1)}, boxes and cells drawn · '
                       f'<a href="#{_e(back)}">close ✕</a></p><a href="#{_e(back)}" class="pg">'
                       f'<img src="{img.uris[1]}" alt="page {page} enlarged, tables and cells '
                       f'outlined">{_svg(img, labels)}</a></div>')
        return "".join(out)


def _figure(label: str, value: Any, tone: str = "") -> str:
    return f'<div class="fig {tone}"><b>{_e(value)}</b><span>{_e(label)}</span></div>'


def summary_html(t: dict[str, Any]) -> str:
    """The totals as figure tiles, bad news in red."""
    rate = t.get("self_contained_rate")
    tiles = [
        _figure("documents", t["documents"]), _figure("ok", t["ok"], "good"),
        _figure("failed", t["failed"], "bad" if t["failed"] else ""),
        _figure("skipped unchanged", t["skipped"]), _figure("pages", t["pages"]),
        _figure("tables", t["tables"]), _figure("rows", t.get("rows", "-")),
        _figure("tables failing checks", t["tables_failing_checks"], "bad" if t["tables_failing_checks"] else "good"),
        _figure("chunks", t["chunks"]), _figure("escalations", t["escalations"]),
        _figure("seconds", round(t["seconds"], 1)), _figure("pages/s", t["pages_per_second"] or "-"),
        _figure("est. cloud cost USD", t["estimated_cloud_cost_usd"]),
        _figure("self-contained rate", _fmt("self_contained_rate", rate)),
        _figure("documents with warnings", t.get("documents_with_warnings", 0),
                "bad" if t.get("documents_with_warnings") else ""),
        _figure("pages without output", t.get("pages_without_output", 0),
                "bad" if t.get("pages_without_output") else ""),
    ]
    rows = [("pages by kind", t["pages_by_kind"]), ("pages by accepted layer", t["pages_by_layer"]),
            ("escalation reasons (pages)", t["escalation_reasons"])]
    kv = "".join(f"<tr><th>{_e(k)}</th><td>{_e(', '.join(f'{a}: {b}' for a, b in v.items()) or '-')}</td></tr>"
                 for k, v in rows)
    if t.get("self_contained_unnamed_cells"):
        kv += (f"<tr><th>not self-contained for want of a column name</th>"
               f"<td>{t['self_contained_unnamed_cells']} values</td></tr>")
    return f'<div class="figs">{"".join(tiles)}</div><table class="grid">{kv}</table>'


def _fmt(name: str, v: Any) -> str:
    if v is None:
        return "-"
    if name == "self_contained_rate":
        return f"{v:.1%}"
    return f"{v:,.1f}" if isinstance(v, float) else f"{v:,}" if isinstance(v, int) else str(v)


def _change(f: dict[str, Any]) -> str:
    if f["change"] is None:
        return "-"
    if f["direction"] == "same":
        return "= no change"
    arrow = "▲" if f["direction"] == "up" else "▼"
    c = f["change"]
    size = f"{c:+.1%}".replace("%", " pts") if f["figure"] == "self_contained_rate" else \
        f"{c:+,.1f}" if isinstance(c, float) else f"{c:+,}"
    return f"{arrow} {size}"


def _trend_notes(report: dict[str, Any], trend: dict[str, Any]) -> str:
    """Why two runs' figures may differ for reasons other than the documents' extraction."""
    notes = []
    skipped = {f["figure"]: f for f in trend["figures"]}.get("skipped")
    if skipped and skipped["change"]:
        notes.append(f"this run skipped {skipped['current']} unchanged documents (previous run: "
                     f"{skipped['previous']}); pages, tables, rows and chunks count only the "
                     "documents a run processed")
    if trend.get("previous_config_fingerprint") not in (None, report.get("config_fingerprint")):
        notes.append("the configuration changed since the previous run")
    if trend.get("previous_rowkeeper_version") not in (None, report.get("rowkeeper_version")):
        notes.append(f"the previous run used rowkeeper {trend['previous_rowkeeper_version']}")
    return "".join(f'<p class="muted">Note: {_e(n)}.</p>' for n in notes)


def trend_html(report: dict[str, Any]) -> str:
    """This run's figures beside the previous run's in the same folder, with the direction of
    change (green when it is good news, red when bad)."""
    trend = report.get("trend")
    if not trend:
        return '<p class="muted">No previous report in this folder to compare with.</p>'
    rows = "".join(
        f'<tr><th>{_e(f["figure"].replace("_", " "))}</th><td>{_e(_fmt(f["figure"], f["previous"]))}</td>'
        f'<td>{_e(_fmt(f["figure"], f["current"]))}</td>'
        f'<td class="{_e(f["tone"])}">{_e(_change(f))}</td></tr>' for f in trend["figures"])
    return (f'<h3>Trend</h3><p class="muted">previous run finished {_e(trend["previous_finished_at"])} '
            f'(its report kept as <code>{_e(trend["kept_as"])}</code>)</p><table class="grid trend">'
            f"<tr><th>figure</th><th>previous run</th><th>this run</th><th>change</th></tr>{rows}</table>"
            f"{_trend_notes(report, trend)}")


def first_rows_html(t: dict[str, Any]) -> str:
    """Column names and types over the first body rows, so a person can check them against the page."""
    head = "".join(f"<th>{_e(c) or '<i class=muted>(unnamed)</i>'}</th>" for c in t["columns"])
    types = "".join(f"<td><code>{_e(ty)}</code></td>" for ty in t["column_types"])

    def cell(v: str) -> str:
        return _e(v if len(v) <= MAX_CELL_CHARS else v[:MAX_CELL_CHARS] + "…")

    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in r) + "</tr>" for r in t["sample_rows"])
    shown = len(t["sample_rows"])
    note = f"first {shown} of {t['n_rows']} rows" if shown < t["n_rows"] else f"all {t['n_rows']} rows"
    return (f'<div class="rows"><table class="grid first"><thead><tr>{head}</tr>'
            f'<tr class="types">{types}</tr></thead><tbody>{body}</tbody></table></div>'
            f'<p class="muted">{note}</p>')


def _self_contained(sc: dict[str, Any] | None) -> str:
    if not sc:
        return ""
    why = f" ({sc['unnamed']} values under unnamed columns)" if sc.get("unnamed") else ""
    missing = "; ".join(sc.get("missing", [])[:5])
    lost = f'<br><span class="muted">not readable from a row chunk alone: {_e(missing)}</span>' if missing else ""
    return f"<p>self-contained: {sc['fraction']:.1%}{_e(why)}{lost}</p>"


def table_html(doc: dict[str, Any], t: dict[str, Any], views: PageViews) -> str:
    """One table: page thumbnails with its box, first rows with column types, checks, merged pieces."""
    anchor = f"t-{t['table_id']}"
    thumbs = "".join(f'<div id="{_e(anchor)}-p{page}">{views.thumbnail(t["table_id"], page)}</div>'
                     for page in t["pages"])
    checks = "".join(
        f'<li class="check {"pass" if c["passed"] else "fail"}">{"✔" if c["passed"] else "✘"} '
        f'{_e(c["name"])} <span class="muted">{_e(c.get("detail"))}</span>'
        + (f'<br><span class="err">failing: {_e("; ".join(c["failures"]))}</span>' if c.get("failures") and not c["passed"] else "")
        + "</li>" for c in t["checks"])
    meta = [" > ".join(t.get("section_path") or []), f"{t['n_rows']} rows", f"extractor {t['extractor']}"]
    meta = [m for m in meta if m]
    merged = ""
    if len(t["pages"]) > 1 or len(t["merged_from"]) > 1:
        links = " + ".join(f'<a href="#{_e(anchor)}-p{p}">piece on page {p}</a>' for p in t["pages"])
        merged = f"<p>merged from {len(t['merged_from'])} pieces: {links}</p>"
    return (f'<div class="tbl {"" if t["passed"] else "failing"}" id="{_e(anchor)}">'
            f'<div class="thumbs">{thumbs}</div><div>'
            f'<h4>{_e(t["table_id"])} {_e(t.get("caption") or "")}</h4>'
            f'<p class="muted">{_e(" · ".join(meta))}</p>{merged}{first_rows_html(t)}'
            f'<ul>{checks}</ul>{_self_contained(t.get("self_contained"))}</div></div>')


def document_html(doc: dict[str, Any], budget: Budget) -> str:
    """One document: status, error or tables (failing first), then its enlarged pages."""
    status = doc["status"]
    head = (f'<h3><span class="status {status}">{_e(status.replace("_", " "))}</span> '
            f'{_e(doc["source"])}</h3><p class="muted">{doc["pages"]} pages ({_e(doc["kind"] or "-")}), '
            f'{doc["n_tables"]} tables, {doc["n_chunks"]} chunks, {doc["seconds"]} s · '
            f'<code>{_e(doc["doc_id"][:12])}</code></p>')
    err = f'<p class="err">{_e(doc["error"])}</p>' if doc.get("error") else ""
    err += warnings_html(doc.get("warnings") or ())
    views = PageViews(doc, budget)
    tables = "".join(table_html(doc, t, views) for t in doc["tables"])
    back = f"d-{doc['doc_id'][:12]}"
    return (f'<section class="doc {status}" id="{back}">{head}{err}{tables}'
            f"{views.enlarged(back)}{views.styles()}</section>")


def warnings_html(warnings: Sequence[str]) -> str:
    """A document's warnings (text not reaching output, deadline cut-offs, cut cells), as a list."""
    if not warnings:
        return ""
    items = "".join(f"<li>{_e(w)}</li>" for w in warnings)
    return f'<ul class="warn" title="warnings (also in documents.jsonl)">{items}</ul>'


def diff_html(backfill: dict[str, Any]) -> str:
    """The backfill diff: totals, then each changed document's tables."""
    s = backfill["summary"]
    rows = "".join(f"<tr><th>{_e(k.replace('_', ' '))}</th><td>{_e(v)}</td></tr>" for k, v in s.items())
    docs = []
    for d in backfill["documents"]:
        if not d["changed"]:
            continue
        items = [f"<li>table added: {_e(t['table_id'])} {_e(t['caption'])}</li>" for t in d["tables_added"]]
        items += [f'<li class="err">table lost: {_e(t["table_id"])} {_e(t["caption"])}</li>' for t in d["tables_lost"]]
        if d.get("chunks_added") or d.get("chunks_lost"):
            items.append(f"<li>chunks {d['chunks_before']}→{d['chunks_after']} "
                         f"(+{d['chunks_added']} −{d['chunks_lost']})</li>")
        for t in d["tables_changed"]:
            cells = "; ".join(f"row {c['row']} {c['column']}: {c['before']!r} → {c['after']!r}" for c in t["cell_samples"])
            flips = "; ".join(f"{f['check']} {f['before']}→{f['after']}" for f in t["checks_flipped"])
            items.append(f"<li>{_e(t['table_id'])}: rows {t['rows_before']}→{t['rows_after']}, "
                         f"{t['cells_changed']} cells changed {_e(cells)} {_e(flips)}</li>")
        docs.append(f'<section class="doc"><h3>{_e(d["source"])} <span class="muted">{_e(d["action"])}, '
                    f'{d["regressions"]} regressions</span></h3><ul>{"".join(items)}</ul></section>')
    return f'<h2>Backfill diff</h2><table class="grid">{rows}</table>{"".join(docs)}'


def render_html(report: dict[str, Any]) -> str:
    """The whole page (flows.report_page: bounded however many documents the report has)."""
    from rowkeeper.flows.report_page import render

    return render(report)


def write_html(report: dict[str, Any], path: str) -> None:
    """Write the page atomically."""
    from rowkeeper.flows.report_page import ReportPage

    with ReportPage(report, path) as page:
        for doc in report["documents"]:
            page.add(doc)
