"""The data model of ../shared/CONTRACT.md: frozen records, tuples, provenance on each.

Extractors produce `RawTable` pieces (one per page region) and `TextLine`s; transforms turn
pieces into logical `Table`s and `Chunk`s; sinks write a `DocumentResult` per document.
Records carry no live handles: a PDF is referred to by path and sha256 (`doc_id`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

BBox = tuple[float, float, float, float]
"""`[x0, top, x1, bottom]` in PDF points, origin at the page's top-left corner."""

PageKind = Literal["text", "scanned"]
DocKind = Literal["text", "scanned", "mixed"]
DocStatus = Literal["ok", "failed", "skipped_unchanged"]
ColumnType = Literal["integer", "decimal", "percent", "currency", "date", "text", "empty"]
ChunkKind = Literal["table", "row_group", "row", "text"]
NUMERIC_TYPES: frozenset[str] = frozenset({"integer", "decimal", "percent", "currency"})


class Record(BaseModel):
    """Base of every record: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class DocumentInput(Record):
    """A PDF to process: where it is and what its bytes hash to."""

    path: str
    source: str
    doc_id: str
    size: int = 0
    password: str | None = None


class PageInfo(Record):
    """Classification of one page, with the figures it was decided on."""

    page: int
    kind: PageKind
    chars: int
    image_coverage: float
    garbled_ratio: float = 0.0
    width: float = 0.0
    height: float = 0.0
    rotation: int = 0


class Attempt(Record):
    """One extractor layer tried on some pages, and whether its output was adequate."""

    extractor: str
    pages: tuple[int, ...]
    seconds: float
    accepted: bool
    reason: str
    tables: int = 0


class Cell(Record):
    """A grid cell; spans follow the extractor's structure (not yet expanded)."""

    row: int
    col: int
    row_span: int = 1
    col_span: int = 1
    text: str = ""
    is_header: bool = False
    page: int | None = None
    bbox: BBox | None = None
    bold: bool | None = None
    font_size: float | None = None


class TextLine(Record):
    """A line of page text outside tables: source of captions, section paths, text chunks."""

    page: int
    bbox: BBox
    text: str
    font_size: float = 0.0
    bold: bool = False
    bold_lead: tuple[int, float, float] | None = None
    """A line that starts in bold print and goes on in regular print (a form's key a word
    space from its value, `Angebotsnr. Talweg`): the characters of `text` in bold, the x
    where the bold ink ends and the x where the regular text starts; None otherwise."""


class OutlineEntry(Record):
    """One bookmark of the PDF's outline: the author's own section structure."""

    level: int
    """1 for a top-level entry, 2 for its children, ..."""
    title: str
    page: int
    """1-based page the entry points to."""
    top: float = 0.0
    """Where on that page it points (points from the top; 0 when the entry names no place)."""


DECLARED_HEADER_ROWS = "declared_header_rows"
"""RawTable.metrics key: the header rows the PDF itself declares (a tagged table's THead or
rows of TH cells); the header then is those rows."""


DECLARED_TABLE = "declared_table"
"""RawTable.metrics key: the object number of the tagged Table element a piece is read from;
pieces on consecutive pages with the same one are one table, as the PDF declares."""


LAYOUT_FRAME = ("layout_x0", "layout_top", "layout_x1", "layout_bottom")
"""RawTable.metrics keys: the box of a ruled layout (label and paragraph cells) the table was
set in, one of its cells, which the extractor read and gave up as no table: the table answers
for that ruled area (cascade coverage)."""


UNDERLINED_SPANS = "underlined_spans"
"""RawTable.metrics key: 1.0 when the extractor gave group labels the columns a rule drawn under
each reaches over (`finder/underlined_labels`): a label's span ends where its rule does, and
the header is not spread past it (`label_text.fill_group_labels`)."""


class RawTable(Record):
    """One table piece on one page, as an extractor found it."""

    piece_id: str
    doc_id: str
    page: int
    bbox: BBox
    n_rows: int
    n_cols: int
    cells: tuple[Cell, ...]
    extractor: str
    extractor_version: str
    metrics: dict[str, float] = Field(default_factory=dict)
    """Extractor-reported quality figures, e.g. Camelot's accuracy and whitespace."""
    caption: TextLine | None = None
    """The caption the PDF itself declares for the table (a tagged table's Caption element):
    the table's caption in place of the line the caption finder would give it."""

    def grid(self) -> list[list[str]]:
        """The cell texts as an n_rows x n_cols grid, spans not expanded ('' elsewhere)."""
        out = [[""] * self.n_cols for _ in range(self.n_rows)]
        for c in self.cells:
            if 0 <= c.row < self.n_rows and 0 <= c.col < self.n_cols:
                out[c.row][c.col] = c.text
        return out


class Extraction(Record):
    """What one extractor returned for a set of pages."""

    tables: tuple[RawTable, ...] = ()
    lines: tuple[TextLine, ...] = ()
    notes: tuple[tuple[int, str], ...] = ()
    """(page, why): what the layer left out of a page's reading (a tagged table refused); a
    page with notes and no table is one the layer declines (the next layers read it)."""


class Region(Record):
    """Where a piece of a logical table lies: page and bbox."""

    page: int
    bbox: BBox


class Check(Record):
    """One validation check; `failures` lists offending cells or rows, like pandera."""

    name: str
    passed: bool
    detail: str = ""
    failures: tuple[str, ...] = ()


class Validation(Record):
    """All checks of a table; passed when every check passed."""

    passed: bool = True
    checks: tuple[Check, ...] = ()


class Table(Record):
    """A logical table after cross-page merge (CONTRACT.md tables.jsonl)."""

    doc_id: str
    source: str
    table_id: str
    pages: tuple[int, ...]
    regions: tuple[Region, ...]
    caption: str | None = None
    section_path: tuple[str, ...] = ()
    header_rows: int = 0
    columns: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    cells: tuple[Cell, ...] = ()
    column_types: tuple[ColumnType, ...] = ()
    extractor: str = ""
    extractor_version: str = ""
    merged_from: tuple[str, ...] = ()
    validation: Validation = Validation()
    footnotes: tuple[str, ...] = ()
    header_grid: tuple[tuple[str, ...], ...] = ()
    """The header rows before folding (peer_score uses it to score multi-row headers)."""
    values: tuple[tuple[float | None, ...], ...] = ()
    """Parsed numbers parallel to `rows` (None for non-numeric cells); `value_num` in sinks."""


class Chunk(Record):
    """A retrieval chunk (CONTRACT.md chunks.jsonl)."""

    chunk_id: str
    doc_id: str
    source: str
    table_id: str | None
    kind: ChunkKind
    text: str
    metadata: dict[str, Any] = Field(default_factory=dict)


class ImageRef(Record):
    """An image drawn on a page (read from the PDF): evidence when it lies inside a table."""

    image_id: str
    page: int
    bbox: BBox
    width: int = 0
    """Pixel size of the embedded image (0 when unknown)."""
    height: int = 0
    crop_path: str | None = None
    """Where the flow wrote its crop, relative to the run folder (None before it is written)."""


class DocumentRecord(Record):
    """One line of documents.jsonl: status, classification, attempts, error."""

    doc_id: str
    source: str
    status: DocStatus
    kind: DocKind | None = None
    pages: tuple[PageInfo, ...] = ()
    attempts: tuple[Attempt, ...] = ()
    error: str | None = None
    fingerprint: str | None = None
    seconds: float = 0.0
    n_tables: int = 0
    n_chunks: int = 0
    warnings: tuple[str, ...] = ()
    """What was read but could not be kept or trusted (a page whose text reached no chunk, a
    layer cut off at its deadline, a table rejected as noise): never a silent loss."""


class DocumentResult(Record):
    """Everything written for one document: the unit a sink replaces atomically."""

    document: DocumentRecord
    tables: tuple[Table, ...] = ()
    chunks: tuple[Chunk, ...] = ()
    lines: tuple[TextLine, ...] = ()
    images: tuple[ImageRef, ...] = ()
    """Images on the document's pages; those inside tables are chunk evidence."""


def to_json_dict(record: BaseModel) -> dict[str, Any]:
    """A record as plain JSON types (tuples become lists)."""
    return record.model_dump(mode="json")
