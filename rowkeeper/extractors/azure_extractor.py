"""Azure AI Document Intelligence `prebuilt-layout` as a scanned-page layer (extra: cloud).

REST: POST `{endpoint}/documentintelligence/documentModels/{model}:analyze`, then poll the
`Operation-Location` it answers with until the analysis succeeds. Only the pages asked for are
sent (cut into a small PDF) and counted in the cost ledger; the run's page budget is checked
before anything leaves the machine. Endpoint and key come from the environment only and are
never logged.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from rowkeeper.boxes import centre_in
from rowkeeper.errors import BadInput, LayerUnavailable, TransientError
from rowkeeper.extractors.cloud_common import PaidApiOptions, RetryableHTTP, pages_pdf, retry_after
from rowkeeper.extractors.page_model import DocumentModel
from rowkeeper.ids import piece_id
from rowkeeper.models import BBox, Cell, DocumentInput, Extraction, PageKind, RawTable, TextLine

_HEADER_KINDS = {"columnHeader", "stubHead"}
_HEADING_ROLES = {"title", "sectionHeading"}


class AzureOptions(PaidApiOptions):
    """Options of the Azure layer (config: extract.options.azure); secrets stay in the environment."""

    endpoint_env: str = "AZURE_DI_ENDPOINT"
    key_env: str = "AZURE_DI_KEY"
    model_id: str = "prebuilt-layout"
    api_version: str = "2024-11-30"
    price_per_page: float = 0.01
    """USD per page (prebuilt-layout list price, $10 per 1,000 pages); set your contract's."""
    poll_interval_s: float = 1.0
    operation_timeout_s: float = 300.0


class AzureLayoutExtractor:
    """Tables and text lines from Azure Document Intelligence's layout model."""

    name: ClassVar[str] = "azure"
    handles: ClassVar[frozenset[PageKind]] = frozenset({"scanned"})
    Options: ClassVar[type[BaseModel]] = AzureOptions

    def __init__(self, options: BaseModel | None = None) -> None:
        self.options = options if isinstance(options, AzureOptions) else AzureOptions()
        self.ledger = self.options.ledger("azure")

    @property
    def version(self) -> str:
        """Model and API version: a new API version may read tables differently."""
        return f"{self.options.model_id}@{self.options.api_version}"

    def _credentials(self) -> tuple[str, str]:
        o = self.options
        endpoint, key = os.environ.get(o.endpoint_env, ""), os.environ.get(o.key_env, "")
        if not endpoint or not key:
            raise LayerUnavailable(f"azure: not configured: set {o.endpoint_env} and {o.key_env}")
        return endpoint.rstrip("/"), key

    def extract(self, doc: DocumentInput, pages: Sequence[int], model: DocumentModel | None = None) -> Extraction:
        """Send `pages` (1-based) for layout analysis; their tables and text lines (the pages
        cut from `model` when the document is open)."""
        endpoint, key = self._credentials()
        pages = sorted(set(pages))
        data, sizes = pages_pdf(doc, pages, model)
        self.ledger.reserve(len(pages))
        result = self.analyze(endpoint, key, data)
        return extraction_from_azure(result, doc, pages, sizes, self.version)

    def analyze(self, endpoint: str, key: str, data: bytes) -> dict[str, Any]:
        """POST the PDF, poll the operation; the `analyzeResult` object."""
        import httpx

        o = self.options
        url = f"{endpoint}/documentintelligence/documentModels/{o.model_id}:analyze"
        headers = {"Ocp-Apim-Subscription-Key": key, "Content-Type": "application/pdf"}
        with httpx.Client(timeout=o.request_timeout_s) as client:
            def post() -> str:
                r = _send(client, "POST", url, headers, params={"api-version": o.api_version}, content=data)
                op = r.headers.get("Operation-Location") or r.headers.get("operation-location")
                if r.status_code != 202 or not op:
                    raise BadInput(f"azure: analyze answered HTTP {r.status_code} without Operation-Location")
                return op

            op_url = self._retry(post)
            return self._poll(client, op_url, {"Ocp-Apim-Subscription-Key": key})

    def _retry(self, call):  # type: ignore[no-untyped-def]
        return self.options.retried(call, self.ledger)

    def _poll(self, client: Any, op_url: str, headers: dict[str, str]) -> dict[str, Any]:
        """Poll until the operation succeeds; TransientError when it outlives the timeout."""
        deadline = time.monotonic() + self.options.operation_timeout_s
        while True:
            r = self._retry(lambda: _send(client, "GET", op_url, headers))
            body = r.json()
            status = body.get("status", "")
            if status == "succeeded":
                return body.get("analyzeResult") or {}
            if status in ("failed", "canceled"):
                err = body.get("error") or {}
                msg = f"azure: analysis {status}: {err.get('code', '')} {err.get('message', '')}".strip()
                if err.get("code") in ("InternalServerError", "ServiceUnavailable", "Timeout"):
                    raise TransientError(msg)
                raise BadInput(msg)
            if time.monotonic() > deadline:
                raise TransientError(f"azure: analysis still {status or 'pending'} after "
                                     f"{self.options.operation_timeout_s:.0f} s")
            wait = retry_after(r.headers.get("Retry-After"))
            time.sleep(min(wait if wait is not None else self.options.poll_interval_s,
                           self.options.max_delay_s))


def _send(client: Any, method: str, url: str, headers: dict[str, str], **kw: Any) -> Any:
    """One request, its failures sorted: 429/5xx/network transient, 401/403 unavailable."""
    import httpx

    try:
        r = client.request(method, url, headers=headers, **kw)
    except httpx.TransportError as e:
        raise TransientError(f"azure: {type(e).__name__} talking to the service") from e
    if r.status_code == 429 or r.status_code >= 500:
        raise RetryableHTTP(f"azure: HTTP {r.status_code}", retry_after(r.headers.get("Retry-After")))
    if r.status_code in (401, 403):
        raise LayerUnavailable(f"azure: credentials rejected (HTTP {r.status_code}); check the key and endpoint")
    if r.status_code >= 400:
        raise BadInput(f"azure: HTTP {r.status_code}: {_error_text(r)}")
    return r


def _error_text(r: Any) -> str:
    try:
        err = r.json().get("error", {})
        return f"{err.get('code', '')} {err.get('message', '')}".strip()[:300]
    except ValueError:
        return r.text[:300]


def _box(polygon: Sequence[float], factor: float) -> BBox:
    """A polygon [x1, y1, ..., x4, y4] (page units, top-left origin) as a bbox in points."""
    xs, ys = polygon[0::2], polygon[1::2]
    return (round(min(xs) * factor, 2), round(min(ys) * factor, 2),
            round(max(xs) * factor, 2), round(max(ys) * factor, 2))


def _factors(result: dict[str, Any], sizes: Sequence[tuple[float, float]]) -> dict[int, float]:
    """Points per page unit for each page of the sent PDF: 72 per inch, or by width for pixels."""
    out = {}
    for pg in result.get("pages", []):
        n = pg.get("pageNumber", 1)
        if pg.get("unit", "inch") == "inch":
            out[n] = 72.0
        else:
            out[n] = sizes[n - 1][0] / float(pg.get("width") or sizes[n - 1][0])
    return out


def extraction_from_azure(result: dict[str, Any], doc: DocumentInput, pages: Sequence[int],
                          sizes: Sequence[tuple[float, float]], version: str) -> Extraction:
    """An `analyzeResult` (documented shape) as RawTables per page and the text lines outside them."""
    factor = _factors(result, sizes)
    tables: list[RawTable] = []
    for t in result.get("tables", []):
        for sent_page, cells in _cells_by_page(t).items():
            if 1 <= sent_page <= len(pages):
                n = sum(1 for x in tables if x.page == pages[sent_page - 1]) + 1
                tables.append(_piece(t, cells, sent_page, pages, factor.get(sent_page, 72.0), doc, n, version))
    return Extraction(tables=tuple(tables), lines=tuple(_lines(result, pages, factor, tables)))


def _cells_by_page(t: dict[str, Any]) -> dict[int, list[dict[str, Any]]]:
    """A table's cells grouped by the page they lie on (a table may cross a page break)."""
    regions = t.get("boundingRegions") or [{"pageNumber": 1}]
    out: dict[int, list[dict[str, Any]]] = {}
    for c in t.get("cells", []):
        reg = (c.get("boundingRegions") or regions)[0]
        out.setdefault(reg.get("pageNumber", 1), []).append(c)
    return out


def _piece(t: dict[str, Any], cells: list[dict[str, Any]], sent_page: int, pages: Sequence[int],
           factor: float, doc: DocumentInput, n: int, version: str) -> RawTable:
    """The part of an Azure table on one page, rows renumbered from 0."""
    pno = pages[sent_page - 1]
    top = min(c.get("rowIndex", 0) for c in cells)
    out = []
    for c in cells:
        reg = (c.get("boundingRegions") or [{}])[0]
        out.append(Cell(
            row=c.get("rowIndex", 0) - top, col=c.get("columnIndex", 0),
            row_span=c.get("rowSpan", 1), col_span=c.get("columnSpan", 1),
            text=(c.get("content") or "").strip(), is_header=c.get("kind") in _HEADER_KINDS,
            page=pno, bbox=_box(reg["polygon"], factor) if reg.get("polygon") else None,
        ))
    out.sort(key=lambda c: (c.row, c.col))
    region = next((r for r in t.get("boundingRegions", []) if r.get("pageNumber") == sent_page), None)
    boxes = [c.bbox for c in out if c.bbox]
    bbox = _box(region["polygon"], factor) if region and region.get("polygon") else (
        (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        if boxes else (0.0, 0.0, 0.0, 0.0))
    n_rows = max(c.row + c.row_span for c in out)
    return RawTable(
        piece_id=piece_id(doc.doc_id, pno, n), doc_id=doc.doc_id, page=pno, bbox=bbox,
        n_rows=n_rows, n_cols=int(t.get("columnCount", max(c.col + c.col_span for c in out))),
        cells=tuple(out), extractor="azure", extractor_version=version,
        metrics={"has_caption": 1.0 if t.get("caption") else 0.0,
                 "footnotes": float(len(t.get("footnotes") or []))},
    )


def _lines(result: dict[str, Any], pages: Sequence[int], factor: dict[int, float],
           tables: Sequence[RawTable]) -> list[TextLine]:
    """Page lines outside the tables (captions and footnotes included), headings marked bold."""
    heading_spans = [s for p in result.get("paragraphs", []) if p.get("role") in _HEADING_ROLES
                     for s in p.get("spans", [])]
    out = []
    for pg in result.get("pages", []):
        n = pg.get("pageNumber", 1)
        if not 1 <= n <= len(pages):
            continue
        pno, f = pages[n - 1], factor.get(n, 72.0)
        for ln in pg.get("lines", []):
            if not ln.get("polygon") or not (ln.get("content") or "").strip():
                continue
            box = _box(ln["polygon"], f)
            if any(t.page == pno and centre_in(box, t.bbox) for t in tables):
                continue
            off = (ln.get("spans") or [{"offset": -1}])[0].get("offset", -1)
            bold = any(s["offset"] <= off < s["offset"] + s["length"] for s in heading_spans)
            out.append(TextLine(page=pno, bbox=box, text=ln["content"].strip(),
                                font_size=round((box[3] - box[1]) / 1.1, 1), bold=bold))
    return out


