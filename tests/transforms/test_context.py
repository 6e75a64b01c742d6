"""Captions, footnotes, section paths and page furniture from text lines (issue 3 item 4)."""

from __future__ import annotations

from rowkeeper.caption_text import is_caption, is_continued
from rowkeeper.models import OutlineEntry, PageInfo, Region, Table
from rowkeeper.transforms.captions import assign_captions, find_caption, find_footnotes
from rowkeeper.transforms.context import (
    content_by_page,
    furniture,
    lines_around_tables,
    lines_outside_tables,
)
from rowkeeper.transforms.headings import body_font_size, heading_key
from rowkeeper.transforms.sections import section_index, section_path_at, with_outline
from tests.transforms.builders import line, pages

BOX = (50.0, 200.0, 545.0, 400.0)


def test_captions_in_five_languages() -> None:
    for text in ("Table 3 Loan terms", "表2 管理費一覧", "Bảng 1 Phí", "1. táblázat Árak",
                 "Tabelle 2 Bestand", "Tab. 4: Kosten"):
        assert is_caption(text), text
    for text in ("Tables and chairs", "Bảng phí quản lý", "1. Introduction"):
        assert not is_caption(text), text
    assert is_continued("Table 5 (continued)") and is_continued("表2（続き）")


def test_caption_above_and_footnotes_below() -> None:
    lines = [line("Table 3 Loan terms", 1, 182, bold=True), line("Body text above.", 1, 150),
             line("※ 税込み", 1, 404, size=7.5), line("wrapped note text", 1, 414, size=7.5),
             line("Next paragraph starts here.", 1, 450)]
    text = content_by_page(lines, pages(1), [(1, BOX)])[1]
    assert find_caption(text, BOX).text == "Table 3 Loan terms"
    assert find_footnotes(text, BOX) == ("※ 税込み wrapped note text",)


def test_running_header_and_page_numbers_are_furniture() -> None:
    lines = []
    for p in (1, 2, 3):
        lines += [line("Handbook 2026", p, 20, size=8), line(f"- {p} -", p, 815, size=8),
                  line(f"Page {p} of 3", p, 800, size=8), line(f"Content {p}", p, 300)]
    skip = furniture(lines, pages(3))
    assert {lines[i].text for i in skip} == {"Handbook 2026", "- 1 -", "- 2 -", "- 3 -",
                                             "Page 1 of 3", "Page 2 of 3", "Page 3 of 3"}


def test_section_path_follows_heading_sizes_and_numbering() -> None:
    lines = [line("Handbook", 1, 60, size=16, bold=True), line("3. Properties", 1, 100, size=14, bold=True),
             line("3.1 Sendai", 1, 130, size=12, bold=True), line("Some text.", 1, 160),
             line("4. Fees", 2, 60, size=14, bold=True)]
    index = section_index(content_by_page(lines, pages(2), []))
    assert section_path_at(index, 1, 300) == ("Handbook", "3. Properties", "3.1 Sendai")
    assert section_path_at(index, 2, 100) == ("Handbook", "4. Fees")


def test_lines_outside_tables() -> None:
    inside, outside = line("13,000", 1, 300, x0=300), line("Prose", 1, 500)
    t = Table(doc_id="d", source="s", table_id="d:t1", pages=(1,), regions=(Region(page=1, bbox=BOX),))
    assert lines_outside_tables([inside, outside], [t]) == (outside,)


def test_a_scanned_pages_runs_inside_a_table_are_not_read_around_it() -> None:
    """The OCR layer gives a table's runs as page text (body size); the steps shaping the table
    and the reading order read the runs around it only, the text layer's lines all."""
    cell, title = line("Rent 1,200", 1, 300, x0=300), line("Supplier overview", 1, 100, size=20)
    scanned, text = (PageInfo(page=1, kind=k, chars=0, image_coverage=1.0) for k in ("scanned", "text"))
    assert lines_around_tables([cell, title], {1: [BOX]}, [scanned]) == [title]
    assert list(lines_around_tables([cell, title], {1: [BOX]}, [text])) == [cell, title]


def test_outline_sections_refined_by_headings_that_are_not_outline_titles() -> None:
    outline = [OutlineEntry(level=1, title="Handbook", page=1),
               OutlineEntry(level=2, title="3. Managed properties", page=2, top=300.0),
               OutlineEntry(level=1, title="Appendix", page=4)]
    headings = [(2, 298.0, ("Handbook", "3. MANAGED PROPERTIES")),  # the same title, typeset
                (3, 100.0, ("Handbook", "3. MANAGED PROPERTIES", "3.1 Tokyo"))]
    index = with_outline(headings, outline)
    assert section_path_at(index, 2, 100.0) == ("Handbook",)
    assert section_path_at(index, 2, 400.0) == ("Handbook", "3. Managed properties")
    assert section_path_at(index, 3, 200.0) == ("Handbook", "3. Managed properties", "3.1 Tokyo")
    assert section_path_at(index, 4, 10.0) == ("Appendix",)
    assert with_outline(headings, []) == headings


def test_stacked_tables_with_captions_below_each_keep_their_own() -> None:
    upper, lower = (50.0, 100.0, 545.0, 200.0), (50.0, 240.0, 545.0, 340.0)
    lines = [line("Table 1 Income", 1, 206, bold=True), line("Table 2 Expenses", 1, 346, bold=True)]
    text = content_by_page(lines, pages(1), [(1, upper), (1, lower)])
    found = assign_captions(text, [(1, upper), (1, lower)])
    assert {i: ln.text for i, ln in found.items()} == {0: "Table 1 Income", 1: "Table 2 Expenses"}


def test_a_caption_line_names_one_table_only() -> None:
    # above the lower table and below the upper one: the lower table's (captions sit above)
    upper, lower = (50.0, 100.0, 545.0, 200.0), (50.0, 240.0, 545.0, 340.0)
    text = content_by_page([line("Table 2 Expenses", 1, 222, bold=True)], pages(1), [(1, upper), (1, lower)])
    found = assign_captions(text, [(1, upper), (1, lower)])
    assert {i: ln.text for i, ln in found.items()} == {1: "Table 2 Expenses"}


def test_side_by_side_tables_take_the_caption_over_their_own_columns() -> None:
    left, right = (50.0, 100.0, 280.0, 200.0), (310.0, 100.0, 545.0, 200.0)
    lines = [line("Table 1 Left", 1, 84, x0=50), line("Table 2 Right", 1, 84, x0=310)]
    text = content_by_page(lines, pages(1), [(1, left), (1, right)])
    found = assign_captions(text, [(1, left), (1, right)])
    assert {i: ln.text for i, ln in found.items()} == {0: "Table 1 Left", 1: "Table 2 Right"}


def test_one_heading_rule() -> None:
    body = 10.0
    assert heading_key(line("Summary", 1, 0, bold=True), body) is not None  # bold, body size
    assert heading_key(line("2. Ausgaben", 1, 0, size=12, bold=True), body) is not None
    assert heading_key(line("施設一覧", 1, 0, size=14), body) is not None
    assert heading_key(line("Hinweis:", 1, 0, bold=True), body) is None  # a lead-in label
    assert heading_key(line("管理費と修繕積立金は月額です。", 1, 0, size=12), body) is None
    assert heading_key(line("Plain short line", 1, 0), body) is None
    assert heading_key(line("Table 2 Fees", 1, 0, size=12, bold=True), body) is None


def test_body_size_from_every_line_when_the_content_has_no_prose() -> None:
    headings = [line("1. Einnahmen", 1, 60, size=12), line("2. Ausgaben", 1, 300, size=12)]
    cells = [line(f"Posten {i}", 1, 80 + 14 * i, size=9) for i in range(8)]
    assert body_font_size(headings, headings + cells) == 9
    prose = [line("The overview shows the figures of the current financial year.", 1, 500)]
    assert body_font_size(headings + prose, cells) == 10


def test_two_column_page_reads_the_left_column_first() -> None:
    from rowkeeper.transforms.sections import document_sections

    prose = "The figures below cover the period and were checked."
    lines = [line("Report 2026", 1, 40, size=16, bold=True),
             line("1. Sales", 1, 100, size=12, bold=True), line("2. Costs", 1, 100, size=12, bold=True, x0=310)]
    lines += [line(prose[:40], 1, 120 + 12 * i, x0=50) for i in range(4)]
    lines += [line(prose[:40], 1, 120 + 12 * i, x0=310) for i in range(4)]
    text = content_by_page(lines, pages(1), [])
    sections = document_sections(text, lines, (), pages(1))
    assert sections.path_at(1, (50.0, 400.0, 280.0, 500.0)) == ("Report 2026", "1. Sales")
    assert sections.path_at(1, (310.0, 400.0, 545.0, 500.0)) == ("Report 2026", "2. Costs")


def test_header_labels_left_out_of_a_table_are_no_headings() -> None:
    from rowkeeper.transforms.headings import heading_lines

    box = (50.0, 200.0, 545.0, 300.0)
    lines = [line("2. Results", 1, 120, size=12, bold=True), line("Site", 1, 186, bold=True),
             line("Volume", 1, 186, bold=True, x0=300), line("Score", 1, 230, bold=True, x0=550)]
    text = content_by_page(lines, pages(1), [(1, box)])
    assert [ln.text for ln in heading_lines(text, 10.0)] == ["2. Results"]


def test_a_heading_atop_the_right_column_comes_after_the_left_columns_title() -> None:
    from rowkeeper.transforms.sections import document_sections

    # the right column's first heading stands higher on the page than the title over the left
    # column; in reading order it comes after everything on the left
    prose = "The figures below cover the period and were checked."
    lines = [line("Report 2026", 1, 48, size=18, bold=True),
             line("1. Sales", 1, 90, size=13, bold=True), line("2. Costs", 1, 44, size=13, bold=True, x0=310)]
    lines += [line(prose[:40], 1, 110 + 12 * i, x0=50) for i in range(6)]
    lines += [line(prose[:40], 1, 64 + 12 * i, x0=310) for i in range(6)]
    text = content_by_page(lines, pages(1), [])
    sections = document_sections(text, lines, (), pages(1))
    assert sections.path_at(1, (50.0, 400.0, 280.0, 500.0)) == ("Report 2026", "1. Sales")
    assert sections.path_at(1, (310.0, 400.0, 545.0, 500.0)) == ("Report 2026", "2. Costs")


def test_narrow_japanese_column_lines_are_prose_not_headings() -> None:
    from rowkeeper.transforms.sections import document_sections

    # 18 characters a line in a column of a two-column page, the body set at 11 points and the
    # table cells at 8.5: an unfinished line of the paragraph is no heading
    para = ["費用には保守、エネルギー及び外部委託を", "含み、減価償却費は含まない。本節では主",
            "な結果をまとめ、前年度と比較する。費用", "には保守、エネルギー及び外部委託を含み"]
    lines = [line("取引先一覧 2023", 1, 76, size=21), line("1. 方法", 1, 124, size=16)]
    lines += [line(t, 1, 150 + 15 * i, size=11) for i, t in enumerate(para)]
    cells = [line(f"仙台センター {i}", 1, 250 + 15 * i, size=8.5, x0=x) for i in range(12) for x in (75, 160)]
    text = content_by_page(lines + cells, pages(1), [(1, (75.0, 248.0, 284.0, 430.0))])
    sections = document_sections(text, lines + cells, (), pages(1))
    assert sections.path_at(1, (75.0, 250.0, 284.0, 430.0)) == ("取引先一覧 2023", "1. 方法")


def test_the_cells_of_one_row_count_as_one_line_between_a_table_and_its_caption() -> None:
    from rowkeeper.transforms.captions import nearest_rows

    cells = [line("Köln", 1, 402), line("730", 1, 402, x0=300), line("12", 1, 402, x0=400)]
    caption = line("Table 2 Costs", 1, 420)
    assert nearest_rows([*cells, caption, line("Further text", 1, 436)]) == [*cells, caption]


def test_captions_atop_two_pages_are_no_running_header() -> None:
    # 'Table 1: Costs' and 'Table 2: Costs' in the top margin of pages 2 and 3 name two tables;
    # a running header repeats its text whole (digits aside: 'Page 2', 'Page 3')
    lines = [line("Handbook 2026", p, 20, size=8) for p in (1, 2, 3)]
    lines += [line("Table 1: Costs by site", 2, 40), line("Table 2: Costs by site", 3, 40),
              line("表1：施設別実績", 2, 52), line("表2：施設別実績", 3, 52)]
    skip = furniture(lines, pages(3))
    assert {lines[i].text for i in skip} == {"Handbook 2026"}
