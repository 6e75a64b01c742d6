"""Ruled tables whose column rules are drawn one segment per record and no rule between the
records (a bank statement's ledger): the rules' joints are the records' edges."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document

X = [40, 130, 220, 310, 540]
HEADER = ("Date / Doc No", "Debit", "Credit", "Transactions in detail")
RECORDS = [
    (("01/09/2024", "5215.97152"), "", "3.000", ("267515.010924.122904 Nguyen Thi Mao", "transfer")),
    (("01/09/2024", "5219.24714"), "", "10.000", ("018806.010924 with thanks",)),
    (("02/09/2024", "5212.22965"), "", "10.000", ("055464.020924.064157 for the relief", "of the flood",
                                                  "(by mobile banking)")),
    (("02/09/2024", "5245.21394"), "", "50.000", ("MBVCB.6924605040 family gift",)),
]


def _statement(path: Path, joints: bool) -> None:
    """A framed table: a ruled header box, then records of two or three lines; the column rules
    break at every record's edge (`joints`) or run as one segment from header to foot."""
    doc = pymupdf.open()
    page = doc.new_page()
    top, head, pitch = 60.0, 90.0, 12.0
    edges = [head]
    for *_, note in RECORDS:
        edges.append(edges[-1] + pitch * max(2, len(note)) + 8)
    page.draw_rect(pymupdf.Rect(X[0], top, X[-1], edges[-1]))
    page.draw_line((X[0], head), (X[-1], head))
    for x in X[1:-1]:
        ends = [top, *edges] if joints else [top, head, edges[-1]]
        for a, b in zip(ends, ends[1:], strict=False):
            page.draw_line((x, a), (x, b))
    for j, label in enumerate(HEADER):
        page.insert_text((X[j] + 4, top + 18), label, fontsize=9)
    for (date_no, _debit, credit, note), y in zip(RECORDS, edges, strict=False):
        page.insert_text((X[0] + 4, y + 12), date_no[0], fontsize=8)
        page.insert_text((X[0] + 4, y + 24), date_no[1], fontsize=8)
        page.insert_text((X[2] + 40, y + 18), credit, fontsize=8)
        for k, line in enumerate(note):
            page.insert_text((X[3] + 4, y + 12 + pitch * k), line, fontsize=8)
    doc.save(path)


def _rows(path: Path) -> list[list[str]]:
    result = process_document(load_document(str(path), path.name), load_config(None))
    assert len(result.tables) == 1
    return [list(r) for r in result.tables[0].rows]


def test_records_are_parted_at_the_joints_of_the_column_rules(tmp_path: Path) -> None:
    path = tmp_path / "statement.pdf"
    _statement(path, joints=True)
    rows = _rows(path)
    assert len(rows) == len(RECORDS)
    assert [r[2] for r in rows] == [c for _, _, c, _ in RECORDS]
    assert rows[2][3] == "055464.020924.064157 for the relief of the flood (by mobile banking)"
    assert rows[0][0].split() == ["01/09/2024", "5215.97152"]


def test_unbroken_column_rules_add_no_rows(tmp_path: Path) -> None:
    """The same table with whole column rules: no joint, so nothing parts the records by rule
    (the text lines decide, as before)."""
    from rowkeeper.extractors.finder.rule_joints import joint_row_rules

    path = tmp_path / "whole.pdf"
    _statement(path, joints=False)
    with pymupdf.open(path) as doc:
        page = doc[0]
        assert joint_row_rules(page, (X[0], 60.0, X[-1], 400.0)) == []
    joined = tmp_path / "joined.pdf"
    _statement(joined, joints=True)
    with pymupdf.open(joined) as doc:
        assert len(joint_row_rules(doc[0], (X[0], 60.0, X[-1], 400.0))) == len(RECORDS) - 1


def _grouped(path: Path, per_group: int) -> None:
    """A ruled table of one-line records whose column rules break between groups of
    `per_group` records (a blank line apart), with no row rules: the joints part groups."""
    doc = pymupdf.open()
    page = doc.new_page()
    y, ends = 90.0, [60.0, 90.0]
    for g in range(3):
        for i in range(per_group):
            page.insert_text((X[0] + 4, y + 11), f"Item {g}.{i}", fontsize=8)
            for j in (1, 2, 3):
                page.insert_text((X[j] + 30, y + 11), f"{10 * g + i}.{j}", fontsize=8)
            y += 12
        y += 6
        ends.append(y)
    page.draw_rect(pymupdf.Rect(X[0], 60, X[-1], y))
    page.draw_line((X[0], 90), (X[-1], 90))
    for x in X[1:-1]:
        for a, b in zip(ends, ends[1:], strict=False):
            page.draw_line((x, a), (x, b))
    doc.save(path)


def test_joints_between_groups_of_one_line_records_add_no_rows(tmp_path: Path) -> None:
    from rowkeeper.extractors.finder.rule_joints import joint_row_rules

    for per_group in (1, 3):  # rules drawn row by row; rules broken between groups of rows
        path = tmp_path / f"grouped{per_group}.pdf"
        _grouped(path, per_group)
        with pymupdf.open(path) as doc:
            assert joint_row_rules(doc[0], (X[0], 60.0, X[-1], 300.0)) == []


def test_a_record_whose_detail_names_accounts_stays_one_row(tmp_path: Path) -> None:
    """A record whose amount is set level between its date and its document number and whose
    detail lines name an account and a phone number (long ungrouped digit runs): those are
    identifiers, not figures packed into one cell, so the record is not re-split line by line
    (issue 13, a bank statement's records)."""
    doc = pymupdf.open()
    page = doc.new_page()
    top, head = 60.0, 90.0
    notes = [("659643.050924.095409.CKSOTAIKHOAN", "240905796669677 NGUYEN ANH TUAN",
              "transfer from mobile wallet 84354187547", "0011001932418"),
             ("169403.050924.095608.Nguyen Viet Xuan", "transfer"),
             ("311493.050924.083516.VU DUC TIEP", "transfer"),
             ("631428.050924.093117.NGUYEN THI NUONG", "transfer")]
    edges = [head]
    for note in notes:
        edges.append(edges[-1] + 12.0 * max(2, len(note)) + 8)
    page.draw_rect(pymupdf.Rect(X[0], top, X[-1], edges[-1]))
    page.draw_line((X[0], head), (X[-1], head))
    for x in X[1:-1]:
        ends = [top, *edges]
        for a, b in zip(ends, ends[1:], strict=False):
            page.draw_line((x, a), (x, b))
    for j, label in enumerate(HEADER):
        page.insert_text((X[j] + 4, top + 18), label, fontsize=9)
    for i, (note, y) in enumerate(zip(notes, edges, strict=False)):
        page.insert_text((X[0] + 4, y + 9), "05/09/2024", fontsize=8)
        page.insert_text((X[0] + 4, y + 19.5), f"5218.4350{i}", fontsize=8)
        page.insert_text((X[2] + 40, y + 14.5), f"{3 + i}.000", fontsize=8)  # level between the two
        for k, line in enumerate(note):
            page.insert_text((X[3] + 4, y + 15.5 + 12.0 * k), line, fontsize=8)
    path = tmp_path / "accounts.pdf"
    doc.save(path)
    rows = _rows(path)
    assert len(rows) == len(notes)
    assert rows[0][0].split() == ["05/09/2024", "5218.43500"]
    assert rows[0][2] == "3.000"
    assert rows[0][3] == " ".join(notes[0])
