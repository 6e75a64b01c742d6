"""report.html: the run report as one self-contained page a person can scan in a minute.

Summary first, failed documents and failing tables first, and per table a thumbnail of its
page(s) with the table's box drawn in red (rendered with PyMuPDF, embedded as data URIs), its
columns and types, its checks (failing ones highlighted) and links between merged pieces.
No script, no external file: it opens anywhere, offline, and attaches to a ticket as is.
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Iterable
from typing import Any

from rowkeeper.config import env_passwords

MAX_THUMBNAILS = 200
"""Beyond this many page images the page would be too heavy; failing tables get them first."""
THUMB_WIDTH = 360

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}
main{padding:16px 24px;max-width:1400px}
.figs{display:flex;flex-wrap:wrap;gap:10px;margin:10px 0 18px}
.fig{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:8px 12px;min-width:110px}
.fig b{display:block;font-size:22px}.fig span{color:#5b6472;font-size:12px}
.fig.bad b{color:#b3261e}.fig.good b{color:#1b7f3b}
table.grid{border-collapse:collapse;background:#fff;margin:6px 0}
.grid td,.grid th{border:1px solid #dde1e7;padding:3px 8px;text-align:left;vertical-align:top}
.doc{background:#fff;border:1px solid #dde1e7;border-radius:6px;margin:12px 0;padding:10px 14px}
.doc.failed{border-left:5px solid #b3261e}.doc.ok{border-left:5px solid #1b7f3b}
.doc.skipped_unchanged{border-left:5px solid #9aa3af}
.status{font-weight:600;text-transform:uppercase;font-size:12px;padding:1px 6px;border-radius:4px}
.status.failed{background:#fde7e5;color:#b3261e}.status.ok{background:#e3f4e8;color:#1b7f3b}
.status.skipped_unchanged{background:#eceff3;color:#5b6472}
.tbl{display:flex;gap:16px;border-top:1px solid #eef0f3;padding:10px 0}
.tbl.failing{background:#fff6f5}.thumbs img{display:block;border:1px solid #c9ced6;margin-bottom:6px}
.check.fail{color:#b3261e;font-weight:600}.check.pass{color:#1b7f3b}
code{background:#eef0f3;padding:0 3px;border-radius:3px}.muted{color:#5b6472}
.err{color:#b3261e}
"""


def _e(x: Any) -> str:
    return html.escape("" if x is None else str(x))


def page_thumbnail(source: str, page: int, boxes: Iterable[tuple[float, ...]],
                   width: int = THUMB_WIDTH) -> str | None:
    """A PNG data URI of `page` (1-based) with `boxes` drawn in red, or None if unreadable."""
    import pymupdf

    try:
        with pymupdf.open(source) as pdf:
            if pdf.needs_pass and not any(pdf.authenticate(p) for p in env_passwords()):
                return None
            pg = pdf[page - 1]
            for box in boxes:  # drawn on the in-memory copy only; the file is never saved
                pg.draw_rect(pymupdf.Rect(box), color=(0.85, 0.1, 0.1), width=2.5)
            scale = width / max(pg.rect.width, 1)
            png = pg.get_pixmap(matrix=pymupdf.Matrix(scale, scale)).tobytes("png")
    except Exception:  # noqa: BLE001 - a missing thumbnail must not cost the report
        return None
    return "data:image/png;base64," + base64.b64encode(png).decode()


def _figure(label: str, value: Any, tone: str = "") -> str:
    return f'<div class="fig {tone}"><b>{_e(value)}</b><span>{_e(label)}</span></div>'


def summary_html(t: dict[str, Any]) -> str:
    """The totals as figure tiles, bad news in red."""
    rate = t.get("self_contained_rate")
    tiles = [
        _figure("documents", t["documents"]), _figure("ok", t["ok"], "good"),
        _figure("failed", t["failed"], "bad" if t["failed"] else ""),
        _figure("skipped unchanged", t["skipped"]), _figure("pages", t["pages"]),
        _figure("tables", t["tables"]),
        _figure("tables failing checks", t["tables_failing_checks"], "bad" if t["tables_failing_checks"] else "good"),
        _figure("chunks", t["chunks"]), _figure("escalations", t["escalations"]),
        _figure("seconds", round(t["seconds"], 1)), _figure("pages/s", t["pages_per_second"] or "-"),
        _figure("est. cloud cost USD", t["estimated_cloud_cost_usd"]),
        _figure("self-contained rate", "-" if rate is None else f"{rate:.1%}"),
    ]
    rows = [("pages by kind", t["pages_by_kind"]), ("pages by accepted layer", t["pages_by_layer"]),
            ("escalation reasons (pages)", t["escalation_reasons"])]
    kv = "".join(f"<tr><th>{_e(k)}</th><td>{_e(', '.join(f'{a}: {b}' for a, b in v.items()) or '-')}</td></tr>"
                 for k, v in rows)
    return f'<div class="figs">{"".join(tiles)}</div><table class="grid">{kv}</table>'


def table_html(doc: dict[str, Any], t: dict[str, Any], budget: list[int]) -> str:
    """One table: page thumbnails with its box, columns and types, checks, merged pieces."""
    anchor = f"t-{t['table_id']}"
    thumbs = []
    for page in t["pages"]:
        boxes = [tuple(r["bbox"]) for r in t["regions"] if r["page"] == page]
        uri = page_thumbnail(doc["source"], page, boxes) if budget[0] > 0 else None
        budget[0] -= 1
        img = (f'<img id="{_e(anchor)}-p{page}" src="{uri}" width="{THUMB_WIDTH}" '
               f'alt="page {page} with the table outlined">' if uri else "")
        thumbs.append(f'{img}<a href="#{_e(anchor)}-p{page}">page {page}</a>')
    cols = "".join(f"<tr><td>{_e(c) or '<i>(unnamed)</i>'}</td><td><code>{_e(ty)}</code></td></tr>"
                   for c, ty in zip(t["columns"], t["column_types"], strict=False))
    checks = "".join(
        f'<li class="check {"pass" if c["passed"] else "fail"}">{"✔" if c["passed"] else "✘"} '
        f'{_e(c["name"])} <span class="muted">{_e(c.get("detail"))}</span>'
        + (f'<br><span class="err">failing: {_e("; ".join(c["failures"]))}</span>' if c.get("failures") and not c["passed"] else "")
        + "</li>" for c in t["checks"])
    merged = ""
    if len(t["pages"]) > 1 or len(t["merged_from"]) > 1:
        links = " + ".join(f'<a href="#{_e(anchor)}-p{p}">piece on page {p}</a>' for p in t["pages"])
        merged = f"<p>merged from {len(t['merged_from'])} pieces: {links}</p>"
    sc = t.get("self_contained")
    sc_line = f"<p>self-contained: {sc['fraction']:.1%}</p>" if sc else ""
    return (f'<div class="tbl {"" if t["passed"] else "failing"}" id="{_e(anchor)}">'
            f'<div class="thumbs">{"".join(thumbs)}</div><div>'
            f'<h4>{_e(t["table_id"])} {_e(t.get("caption") or "")}</h4>'
            f'<p class="muted">{_e(" > ".join(t.get("section_path") or []))} · {t["n_rows"]} rows · '
            f'extractor {_e(t["extractor"])}</p>{merged}'
            f'<table class="grid"><tr><th>column</th><th>type</th></tr>{cols}</table>'
            f'<ul>{checks}</ul>{sc_line}</div></div>')


def document_html(doc: dict[str, Any], budget: list[int]) -> str:
    """One document: status, error or tables (failing first)."""
    status = doc["status"]
    head = (f'<h3><span class="status {status}">{_e(status.replace("_", " "))}</span> '
            f'{_e(doc["source"])}</h3><p class="muted">{doc["pages"]} pages ({_e(doc["kind"] or "-")}), '
            f'{doc["n_tables"]} tables, {doc["n_chunks"]} chunks, {doc["seconds"]} s · '
            f'<code>{_e(doc["doc_id"][:12])}</code></p>')
    err = f'<p class="err">{_e(doc["error"])}</p>' if doc.get("error") else ""
    tables = "".join(table_html(doc, t, budget) for t in doc["tables"])
    return f'<section class="doc {status}">{head}{err}{tables}</section>'


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
    """The whole page."""
    budget = [MAX_THUMBNAILS]
    docs = "".join(document_html(d, budget) for d in report["documents"])
    diff = diff_html(report["backfill"]) if report.get("backfill") else ""
    title = f"rowkeeper {report.get('command', 'run')} report"
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<link rel="icon" href="data:,"><title>{_e(title)}</title><style>{_CSS}</style></head>'
            f"<body><header><h1>{_e(title)}</h1><div>{_e(report.get('out'))} · finished "
            f"{_e(report.get('finished_at'))} · rowkeeper {_e(report.get('rowkeeper_version'))}</div></header>"
            f"<main><h2>Summary</h2>{summary_html(report['totals'])}{diff}"
            f"<h2>Documents</h2>{docs}</main></body></html>")


def write_html(report: dict[str, Any], path: str) -> None:
    """Write the page atomically."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(render_html(report))
    os.replace(tmp, path)
