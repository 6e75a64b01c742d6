"""Records whose cells wrap over several lines in a borderless table on a scan: one row each.

The aligned finder (`ocr_tables.aligned_tables`) gives every printed line a row, and a line
holding only a record's figures (set level with the record's middle or last line, between the
lines of its wrapped description) a row of its own. The text layer reads such tables with
`finder.wrapped_records.join_wrapped_records`: a record is the band from the line that starts a
new key down to the next one, told by the white between records, which is wider than the
leading inside one. The same function reads the scan's pixel table here, each cell's box
standing for its words.
"""

from __future__ import annotations

from rowkeeper.extractors.finder.wrapped_records import join_wrapped_records
from rowkeeper.extractors.ocr_tables import PxCell, PxTable


def joined_records(table: PxTable) -> PxTable:
    """`table` with each record's wrapped lines joined into the row that starts it (see the
    module); a ruled table, or one with spanning cells, as it is."""
    order = table.aligned_rows()
    if order is None:
        return table
    boxes = [[c.box for c in row] for row in order]
    texts = [[c.text or None for c in row] for row in order]
    words = [[[c.box] if c.text else [] for c in row] for row in order]
    rows, cells, _ = join_wrapped_records(boxes, texts, words)
    if len(rows) == table.n_rows:
        return table
    out = tuple(PxCell(r, k, 1, 1, text or "", box)
                for r, (row, texts_of) in enumerate(zip(rows, cells, strict=True))
                for k, (box, text) in enumerate(zip(row, texts_of, strict=True)))
    return PxTable(table.box, len(rows), table.n_cols, out, table.kind)
