"""From raw per-page pieces to logical tables: the transform chain's entry point.

`assemble_tables` is what the pipeline calls; each step is a pure function in its own module.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.config import TransformConfig
from rowkeeper.ids import table_id
from rowkeeper.models import PageInfo, RawTable, Region, Table, TextLine


def table_from_piece(doc_id: str, source: str, n: int, piece: RawTable) -> Table:
    """A logical table holding one piece, first row taken as the header."""
    grid = piece.grid()
    header = tuple(grid[0]) if grid else ()
    body = tuple(tuple(r) for r in grid[1:])
    return Table(
        doc_id=doc_id,
        source=source,
        table_id=table_id(doc_id, n),
        pages=(piece.page,),
        regions=(Region(page=piece.page, bbox=piece.bbox),),
        header_rows=1 if grid else 0,
        columns=header,
        rows=body,
        cells=piece.cells,
        extractor=piece.extractor,
        extractor_version=piece.extractor_version,
        merged_from=(piece.piece_id,),
    )


def assemble_tables(
    doc_id: str,
    source: str,
    pieces: Sequence[RawTable],
    lines: Sequence[TextLine],
    pages: Sequence[PageInfo],
    config: TransformConfig,
) -> tuple[Table, ...]:
    """Logical tables of a document, in reading order (page, then top)."""
    ordered = sorted(pieces, key=lambda p: (p.page, p.bbox[1], p.bbox[0]))
    return tuple(table_from_piece(doc_id, source, i + 1, p) for i, p in enumerate(ordered))
