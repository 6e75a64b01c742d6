"""AWS Textract `AnalyzeDocument` with TABLES as a scanned-page layer (extra: cloud).

The synchronous API takes one page per call, so each page asked for is cut into a one-page PDF
and sent on its own, after the run's page budget allows it. Credentials come from the standard
AWS environment variables (or a profile) and are never logged; `endpoint_url` points boto3 at
a VPC endpoint, a proxy, or the tests' local server. botocore's own retries are off: ours
count in the ledger and end in TransientError.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from rowkeeper.boxes import centre_in
from rowkeeper.errors import BadInput, LayerUnavailable, TransientError
from rowkeeper.extractors.cloud_common import PaidApiOptions, RetryableHTTP, pages_pdf
from rowkeeper.extractors.page_model import DocumentModel
from rowkeeper.ids import piece_id
from rowkeeper.models import BBox, Cell, DocumentInput, Extraction, PageKind, RawTable, TextLine

_TRANSIENT = {"ThrottlingException", "ProvisionedThroughputExceededException", "InternalServerError",
              "ServiceUnavailable", "ServiceUnavailableException", "LimitExceededException"}
_AUTH = {"UnrecognizedClientException", "InvalidSignatureException", "AccessDeniedException",
         "ExpiredTokenException", "MissingAuthenticationTokenException"}


class TextractOptions(PaidApiOptions):
    """Options of the Textract layer (config: extract.options.textract); secrets stay in the env."""

    region: str | None = None
    """Default: AWS_REGION / AWS_DEFAULT_REGION."""
    endpoint_url: str | None = None
    """Default: the TEXTRACT_ENDPOINT_URL environment variable, else AWS's public endpoint."""
    price_per_page: float = 0.015
    """USD per page (AnalyzeDocument Tables list price, $15 per 1,000 pages); set your contract's."""


class TextractExtractor:
    """Tables and text lines from AWS Textract AnalyzeDocument (TABLES)."""

    name: ClassVar[str] = "textract"
    handles: ClassVar[frozenset[PageKind]] = frozenset({"scanned"})
    Options: ClassVar[type[BaseModel]] = TextractOptions

    def __init__(self, options: BaseModel | None = None) -> None:
        self.options = options if isinstance(options, TextractOptions) else TextractOptions()
        self.ledger = self.options.ledger("textract")
        self._client: Any = None

    @property
    def version(self) -> str:
        """The API feature set read (AnalyzeDocument TABLES, 2018-06-27 API)."""
        return "analyze-document-tables@2018-06-27"

    def client(self) -> Any:
        """A boto3 Textract client (thread-safe, built once per instance)."""
        if self._client is None:
            self._client = _make_client(self.options)
        return self._client

    def extract(self, doc: DocumentInput, pages: Sequence[int], model: DocumentModel | None = None) -> Extraction:
        """Send each of `pages` (1-based) for table analysis; their tables and text lines (each
        page cut from `model` when the document is open)."""
        client = self.client()
        tables: list[RawTable] = []
        lines: list[TextLine] = []
        for pno in sorted(set(pages)):
            data, sizes = pages_pdf(doc, [pno], model)
            self.ledger.reserve(1)
            blocks = self._analyze(client, data)
            got = extraction_from_textract(blocks, doc, pno, sizes[0], self.version)
            tables.extend(got.tables)
            lines.extend(got.lines)
        return Extraction(tables=tuple(tables), lines=tuple(lines))

    def _analyze(self, client: Any, data: bytes) -> list[dict[str, Any]]:
        return self.options.retried(lambda: _call(client, data), self.ledger)


def _make_client(o: TextractOptions) -> Any:
    """boto3 client from environment credentials; LayerUnavailable when none are set."""
    env = os.environ
    region = o.region or env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
    has_keys = env.get("AWS_ACCESS_KEY_ID") and env.get("AWS_SECRET_ACCESS_KEY")
    if not region or not (has_keys or env.get("AWS_PROFILE")):
        raise LayerUnavailable("textract: not configured: set AWS_ACCESS_KEY_ID and "
                               "AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) and AWS_REGION")
    try:
        import boto3
        from botocore.config import Config
    except ImportError as e:
        raise LayerUnavailable("textract: boto3 is not installed (pip install 'rowkeeper[cloud]')") from e
    cfg = Config(retries={"total_max_attempts": 1, "mode": "standard"},
                 connect_timeout=o.request_timeout_s, read_timeout=o.request_timeout_s)
    return boto3.client("textract", region_name=region, config=cfg,
                        endpoint_url=o.endpoint_url or env.get("TEXTRACT_ENDPOINT_URL") or None)


def _call(client: Any, data: bytes) -> list[dict[str, Any]]:
    """One AnalyzeDocument call, its failures sorted into transient / unavailable / bad input."""
    from botocore.exceptions import ClientError, ConnectionError, HTTPClientError

    try:
        resp = client.analyze_document(Document={"Bytes": data}, FeatureTypes=["TABLES"])
    except ClientError as e:
        code = e.response.get("Error", {}).get("Code", "")
        status = e.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
        if code in _TRANSIENT or status == 429 or status >= 500:
            raise RetryableHTTP(f"textract: {code or 'HTTP'} ({status})") from e
        if code in _AUTH or status == 403:
            raise LayerUnavailable(f"textract: credentials rejected ({code})") from e
        raise BadInput(f"textract: {code}: {e.response.get('Error', {}).get('Message', '')}"[:300]) from e
    except (ConnectionError, HTTPClientError) as e:
        raise TransientError(f"textract: {type(e).__name__} talking to the service") from e
    return list(resp.get("Blocks", []))


def _bbox(block: dict[str, Any], size: tuple[float, float]) -> BBox:
    """Geometry.BoundingBox (ratios of the page, top-left origin) in points."""
    b = block.get("Geometry", {}).get("BoundingBox", {})
    w, h = size
    x0, y0 = b.get("Left", 0.0) * w, b.get("Top", 0.0) * h
    return (round(x0, 2), round(y0, 2), round(x0 + b.get("Width", 0.0) * w, 2),
            round(y0 + b.get("Height", 0.0) * h, 2))


def _related(block: dict[str, Any], kind: str) -> list[str]:
    return [i for r in block.get("Relationships", []) if r.get("Type") == kind for i in r.get("Ids", [])]


def _text(block: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> str:
    """The words under a block, in order (selection marks as [x] / [ ])."""
    out = []
    for i in _related(block, "CHILD"):
        b = by_id.get(i, {})
        if b.get("BlockType") == "WORD":
            out.append(b.get("Text", ""))
        elif b.get("BlockType") == "SELECTION_ELEMENT":
            out.append("[x]" if b.get("SelectionStatus") == "SELECTED" else "[ ]")
    return " ".join(t for t in out if t).strip()


def extraction_from_textract(blocks: Sequence[dict[str, Any]], doc: DocumentInput, pno: int,
                             size: tuple[float, float], version: str) -> Extraction:
    """AnalyzeDocument Blocks of one page as RawTables and the text lines outside them."""
    by_id = {b["Id"]: b for b in blocks if "Id" in b}
    tables = [_table(t, by_id, doc, pno, n + 1, size, version)
              for n, t in enumerate(b for b in blocks if b.get("BlockType") == "TABLE")]
    lines = []
    for b in blocks:
        if b.get("BlockType") != "LINE" or not (b.get("Text") or "").strip():
            continue
        box = _bbox(b, size)
        if any(centre_in(box, t.bbox) for t in tables):
            continue
        lines.append(TextLine(page=pno, bbox=box, text=b["Text"].strip(),
                              font_size=round((box[3] - box[1]) / 1.1, 1)))
    return Extraction(tables=tuple(tables), lines=tuple(lines))


def _table(t: dict[str, Any], by_id: dict[str, dict[str, Any]], doc: DocumentInput, pno: int,
           n: int, size: tuple[float, float], version: str) -> RawTable:
    """One TABLE block: CELLs, MERGED_CELLs folded into spanning cells, header flags."""
    cells = [by_id[i] for i in _related(t, "CHILD") if by_id.get(i, {}).get("BlockType") == "CELL"]
    merged = [by_id[i] for i in _related(t, "MERGED_CELL") if i in by_id]
    covered: set[str] = set()
    out = []
    for m in merged:
        kids = [by_id[i] for i in _related(m, "CHILD") if i in by_id]
        covered.update(k["Id"] for k in kids)
        kids.sort(key=lambda k: (k.get("RowIndex", 1), k.get("ColumnIndex", 1)))
        text = " ".join(x for x in (_text(k, by_id) for k in kids) if x)
        header = any("COLUMN_HEADER" in k.get("EntityTypes", []) for k in kids) or \
            "COLUMN_HEADER" in m.get("EntityTypes", [])
        out.append(_cell(m, text, header, pno, size))
    for c in cells:
        if c["Id"] not in covered:
            out.append(_cell(c, _text(c, by_id), "COLUMN_HEADER" in c.get("EntityTypes", []), pno, size))
    out.sort(key=lambda c: (c.row, c.col))
    titles = _related(t, "TABLE_TITLE")
    footers = _related(t, "TABLE_FOOTER")
    return RawTable(
        piece_id=piece_id(doc.doc_id, pno, n), doc_id=doc.doc_id, page=pno, bbox=_bbox(t, size),
        n_rows=max((c.row + c.row_span for c in out), default=0),
        n_cols=max((c.col + c.col_span for c in out), default=0),
        cells=tuple(out), extractor="textract", extractor_version=version,
        metrics={"has_caption": 1.0 if titles else 0.0, "footnotes": float(len(footers)),
                 "structured": 1.0 if "STRUCTURED_TABLE" in t.get("EntityTypes", []) else 0.0},
    )


def _cell(b: dict[str, Any], text: str, header: bool, pno: int, size: tuple[float, float]) -> Cell:
    return Cell(row=b.get("RowIndex", 1) - 1, col=b.get("ColumnIndex", 1) - 1,
                row_span=b.get("RowSpan", 1), col_span=b.get("ColumnSpan", 1), text=text,
                is_header=header, page=pno, bbox=_bbox(b, size))


