"""A row chunk repeats the notes its row points to by its mark, not every note of the table
(`transforms/row_notes.py`): a long table-wide note repeated into every row chunk made rows
of noted tables lose their BM25 rank to other documents' rows (zoo dev16 borderless_prose-280-ja,
dev17 booktabs-295-ja). The table and row-group chunks keep every note."""

from __future__ import annotations

from pathlib import Path

import rowkeeper
from rowkeeper.transforms.row_notes import row_notes, split_notes
from samples.pdfgen import DocSpec, Heading, TableSpec, build_pdf

SOURCE = "Source: sites opened during the year are counted from their first full month of operation."
MARKED = ["* Figures are rounded; totals may differ from the sum of the rows.",
          "** Audited by the controlling department."]


def _doc(path: Path) -> Path:
    rows = [["Osaka depot", "515,822", "75,047.9"], ["Fukuoka plant*", "160,581", "3,780.7"],
            ["Nagano centre**", "860,916", "84,176.3"], ["Kyoto branch", "28,660", "64,381.9"]]
    pdf = build_pdf(DocSpec(title="Operating report", blocks=[
        Heading("2. Sites"),
        TableSpec(caption="Table 1 Quarterly results by site", header=[["Site", "Score", "Unit price"]],
                  rows=rows, footnotes=[SOURCE, *MARKED])]))
    path.write_bytes(pdf)
    return path


def test_a_row_chunk_repeats_the_notes_of_its_marks_only(tmp_path: Path) -> None:
    out = rowkeeper.extract(str(_doc(tmp_path / "notes.pdf")))
    (table,) = out.tables
    rows = {c.metadata["row_key"]: c.text for c in out.chunks if c.kind == "row"}
    assert "Notes:" not in rows["Osaka depot"] and "Notes:" not in rows["Kyoto branch"]
    assert MARKED[0] in rows["Fukuoka plant*"] and MARKED[1] not in rows["Fukuoka plant*"]
    assert MARKED[1] in rows["Nagano centre**"] and MARKED[0] not in rows["Nagano centre**"]
    assert all("Table 1 Quarterly results by site" in t and "Site: " in t for t in rows.values())
    for c in out.chunks:
        if c.kind in ("table", "row_group") and c.table_id == table.table_id:
            assert SOURCE in c.text and MARKED[1] in c.text


def test_notes_are_cut_at_their_marks() -> None:
    notes = split_notes(["*数値は四捨五入している。 **以下の数値は確認済み。", "Quelle: Controlling"])
    assert notes == [("*", "*数値は四捨五入している。"), ("**", "**以下の数値は確認済み。"), ("", "Quelle: Controlling")]
    assert row_notes(notes, ["長野センター**", "860,916"]) == ["**以下の数値は確認済み。"]
    assert row_notes(notes, ["大阪倉庫", "515,822"]) == []
