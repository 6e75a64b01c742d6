"""A real local HTTP server for the cloud layers' tests, and response bodies in the vendors'
documented shapes (Azure Document Intelligence analyzeResult, Textract AnalyzeDocument Blocks).

The layers talk to it through their real clients (httpx, boto3 with endpoint_url): the only
fake in these tests is the service at the other end of the socket.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = tuple[int, dict[str, str], Any]
"""(status, headers, body); a dict/list body is sent as JSON."""


@dataclass
class Seen:
    """A request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class FakeService:
    """Scripted replies per (method, path without query): consumed in order, the last repeats."""

    url: str = ""
    scripts: dict[tuple[str, str], list[Reply | Callable[[FakeService], Reply]]] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)

    def script(self, method: str, path: str, *replies: Reply | Callable[[FakeService], Reply]) -> None:
        """Answer `method path` with `replies`, one per request, repeating the last."""
        self.scripts[(method, path)] = list(replies)

    def reply(self, method: str, path: str) -> Reply:
        queue = self.scripts.get((method, path))
        if not queue:
            return 404, {}, {"error": {"code": "NotFound", "message": f"{method} {path}"}}
        r = queue.pop(0) if len(queue) > 1 else queue[0]
        return r(self) if callable(r) else r


def _handler(service: FakeService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            n = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(n) if n else b""
            path = self.path.split("?", 1)[0]
            service.seen.append(Seen(self.command, self.path, dict(self.headers), body))
            target = self.headers.get("X-Amz-Target")
            status, headers, payload = service.reply(self.command, f"{path}#{target}" if target else path)
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            ctype = "application/x-amz-json-1.1" if target else "application/json"
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _serve

        def log_message(self, *args: Any) -> None:  # keep test output quiet
            return

    return Handler


@contextmanager
def serve() -> Iterator[FakeService]:
    """A FakeService listening on 127.0.0.1 (a free port) for the duration of the block."""
    service = FakeService()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(service))
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


# --- documented response shapes --------------------------------------------------------------

@dataclass
class PageTruth:
    """What is on a page, in PDF points: text lines, one table's cells, caption and footnote."""

    size: tuple[float, float]
    lines: Sequence[tuple[str, tuple[float, float, float, float]]]
    cells: Sequence[tuple[int, int, int, int, str, bool, tuple[float, float, float, float]]]
    """(row, col, row_span, col_span, text, is_header, bbox)."""
    table_bbox: tuple[float, float, float, float]
    caption: tuple[str, tuple[float, float, float, float]] | None = None
    footnote: tuple[str, tuple[float, float, float, float]] | None = None
    heading: str | None = None


def _poly_in(b: Sequence[float]) -> list[float]:
    """A bbox in points as an Azure polygon in inches (clockwise from top-left)."""
    x0, y0, x1, y1 = (v / 72.0 for v in b)
    return [round(v, 4) for v in (x0, y0, x1, y0, x1, y1, x0, y1)]


def _region(page: int, b: Sequence[float]) -> list[dict[str, Any]]:
    return [{"pageNumber": page, "polygon": _poly_in(b)}]


def azure_analyze_result(pages: Sequence[PageTruth]) -> dict[str, Any]:
    """An Azure `analyzeResult` (API 2024-11-30, prebuilt-layout) for these pages."""
    out_pages, tables, paragraphs, offset = [], [], [], 0
    for n, pt in enumerate(pages, start=1):
        lines = []
        for text, b in pt.lines:
            lines.append({"content": text, "polygon": _poly_in(b), "spans": [{"offset": offset, "length": len(text)}]})
            if text == pt.heading:
                paragraphs.append({"role": "sectionHeading", "content": text, "boundingRegions": _region(n, b),
                                   "spans": [{"offset": offset, "length": len(text)}]})
            offset += len(text) + 1
        out_pages.append({"pageNumber": n, "angle": 0.0, "width": round(pt.size[0] / 72, 4),
                          "height": round(pt.size[1] / 72, 4), "unit": "inch", "lines": lines, "words": []})
        cells = []
        for r, c, rs, cs, text, header, b in pt.cells:
            cell: dict[str, Any] = {"rowIndex": r, "columnIndex": c, "content": text,
                                    "boundingRegions": _region(n, b), "spans": []}
            if header:
                cell["kind"] = "columnHeader"
            if rs > 1:  # the service omits spans of 1
                cell["rowSpan"] = rs
            if cs > 1:
                cell["columnSpan"] = cs
            cells.append(cell)
        table: dict[str, Any] = {
            "rowCount": max(r + rs for r, _, rs, *_ in pt.cells),
            "columnCount": max(c + cs for _, c, _, cs, *_ in pt.cells),
            "cells": cells, "boundingRegions": _region(n, pt.table_bbox), "spans": []}
        if pt.caption:
            table["caption"] = {"content": pt.caption[0], "boundingRegions": _region(n, pt.caption[1]), "spans": []}
        if pt.footnote:
            table["footnotes"] = [{"content": pt.footnote[0], "boundingRegions": _region(n, pt.footnote[1]),
                                   "spans": []}]
        tables.append(table)
    return {"apiVersion": "2024-11-30", "modelId": "prebuilt-layout", "stringIndexType": "textElements",
            "content": "", "pages": out_pages, "tables": tables, "paragraphs": paragraphs}


def _geom(b: Sequence[float], size: tuple[float, float]) -> dict[str, Any]:
    w, h = size
    box = {"Width": (b[2] - b[0]) / w, "Height": (b[3] - b[1]) / h, "Left": b[0] / w, "Top": b[1] / h}
    poly = [{"X": b[0] / w, "Y": b[1] / h}, {"X": b[2] / w, "Y": b[1] / h},
            {"X": b[2] / w, "Y": b[3] / h}, {"X": b[0] / w, "Y": b[3] / h}]
    return {"BoundingBox": box, "Polygon": poly}


def textract_blocks(pt: PageTruth, merged: bool = True) -> dict[str, Any]:
    """An AnalyzeDocument (FeatureTypes TABLES) response for one page.

    Spanning cells are sent the documented way: one CELL per grid slot (the text in the slots
    it covers) plus a MERGED_CELL whose CHILD ids are those CELLs.
    """
    blocks: list[dict[str, Any]] = []
    ids = iter(f"b{i}" for i in range(100000))

    def word_block(text: str, b: Sequence[float]) -> str:
        i = next(ids)
        blocks.append({"BlockType": "WORD", "Id": i, "Text": text, "Confidence": 99.0, "Geometry": _geom(b, pt.size)})
        return i

    page_id = next(ids)
    line_ids = []
    for text, b in pt.lines:
        i = next(ids)
        blocks.append({"BlockType": "LINE", "Id": i, "Text": text, "Confidence": 99.0, "Geometry": _geom(b, pt.size),
                       "Relationships": [{"Type": "CHILD", "Ids": [word_block(w, b) for w in text.split()]}]})
        line_ids.append(i)
    table_id = next(ids)
    slots, merged_blocks = {}, []
    for r, c, rs, cs, text, header, b in pt.cells:
        kids = []
        for dr in range(rs):
            for dc in range(cs):
                i = next(ids)
                words = [word_block(w, b) for w in text.split()] if (dr, dc) == (0, 0) else []
                cell = {"BlockType": "CELL", "Id": i, "RowIndex": r + dr + 1, "ColumnIndex": c + dc + 1,
                        "RowSpan": 1, "ColumnSpan": 1, "Confidence": 95.0, "Geometry": _geom(b, pt.size)}
                if header:
                    cell["EntityTypes"] = ["COLUMN_HEADER"]
                if words:
                    cell["Relationships"] = [{"Type": "CHILD", "Ids": words}]
                blocks.append(cell)
                slots[(r + dr, c + dc)] = i
                kids.append(i)
        if merged and (rs > 1 or cs > 1):
            merged_blocks.append({"BlockType": "MERGED_CELL", "Id": next(ids), "RowIndex": r + 1, "ColumnIndex": c + 1,
                                  "RowSpan": rs, "ColumnSpan": cs, "Confidence": 90.0, "Geometry": _geom(b, pt.size),
                                  "Relationships": [{"Type": "CHILD", "Ids": kids}]})
    blocks.extend(merged_blocks)
    rels = [{"Type": "CHILD", "Ids": [slots[k] for k in sorted(slots)]}]
    if merged_blocks:
        rels.append({"Type": "MERGED_CELL", "Ids": [m["Id"] for m in merged_blocks]})
    for kind, item in (("TABLE_TITLE", pt.caption), ("TABLE_FOOTER", pt.footnote)):
        if item:
            i = next(ids)
            blocks.append({"BlockType": kind, "Id": i, "Geometry": _geom(item[1], pt.size),
                           "Relationships": [{"Type": "CHILD", "Ids": [word_block(w, item[1]) for w in item[0].split()]}]})
            rels.append({"Type": kind, "Ids": [i]})
    blocks.append({"BlockType": "TABLE", "Id": table_id, "EntityTypes": ["STRUCTURED_TABLE"], "Confidence": 97.0,
                   "Geometry": _geom(pt.table_bbox, pt.size), "Relationships": rels})
    blocks.insert(0, {"BlockType": "PAGE", "Id": page_id, "Geometry": _geom((0, 0, *pt.size), pt.size),
                      "Relationships": [{"Type": "CHILD", "Ids": line_ids + [table_id]}]})
    return {"DocumentMetadata": {"Pages": 1}, "Blocks": blocks, "AnalyzeDocumentModelVersion": "1.0"}


def throttled_textract() -> Reply:
    """Textract's documented throttling answer (HTTP 400, ThrottlingException)."""
    return 400, {"x-amzn-ErrorType": "ThrottlingException"}, {
        "__type": "ThrottlingException", "message": "Rate exceeded"}


def failed_textract() -> Reply:
    """Textract's internal error answer (HTTP 500)."""
    return 500, {"x-amzn-ErrorType": "InternalServerError"}, {
        "__type": "InternalServerError", "message": "Internal server error"}


def page_truth(doc: Any, page: int = 1) -> PageTruth:
    """The truth of a generated text PDF's page, read from its text layer with PyMuPDF."""
    import pymupdf

    from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
    from rowkeeper.extractors.text_layer import read_lines

    table = PyMuPDFExtractor().extract(doc, [page]).tables[0]
    lines = [(ln.text, ln.bbox) for ln in read_lines(doc, [page])]
    with pymupdf.open(doc.path) as pdf:
        size = (pdf[page - 1].rect.width, pdf[page - 1].rect.height)
    above = [ln for ln in lines if ln[1][3] <= table.bbox[1] + 1]
    below = [ln for ln in lines if ln[1][1] >= table.bbox[3] - 1]
    cells = [(c.row, c.col, c.row_span, c.col_span, c.text, c.is_header, c.bbox) for c in table.cells]
    return PageTruth(size=size, lines=[ln for ln in lines if ln[0]], cells=cells, table_bbox=table.bbox,
                     caption=above[-1] if above else None, footnote=below[0] if below else None,
                     heading=lines[1][0] if len(lines) > 1 else None)
