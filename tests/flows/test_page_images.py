"""Page renders for report.html (flows.crops.render_page): sizes, formats, boxes on turned pages."""

from __future__ import annotations

import base64
from io import BytesIO
from pathlib import Path

import pymupdf

from rowkeeper.flows.crops import render_page


def _pdf(tmp_path: Path, rotate: int) -> str:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.draw_rect(pymupdf.Rect(50, 100, 250, 150), color=(0, 0, 0), width=1)
    page.insert_text((60, 130), "Desk lamp 1,250.00", fontsize=11)
    page.set_rotation(rotate)
    path = tmp_path / f"r{rotate}.pdf"
    doc.save(path)
    return str(path)


def test_a_page_renders_once_per_width_as_jpeg(tmp_path: Path) -> None:
    img = render_page(_pdf(tmp_path, 0), 1, [360, 1400], [(50, 100, 250, 150)])
    assert img is not None and (img.width, img.height) == (595, 842)
    assert all(u.startswith("data:image/jpeg;base64,") for u in img.uris)
    sizes = [len(base64.b64decode(u.split(",", 1)[1])) for u in img.uris]
    assert sizes[0] < sizes[1] < 100_000
    assert img.boxes == ((50, 100, 250, 150),)


def test_boxes_follow_a_turned_page_into_its_shown_coordinates(tmp_path: Path) -> None:
    img = render_page(_pdf(tmp_path, 90), 1, [360], [(50, 100, 250, 150)])
    assert img is not None and (img.width, img.height) == (842, 595)  # shown landscape
    x0, y0, x1, y1 = img.boxes[0]
    assert (round(x1 - x0), round(y1 - y0)) == (50, 200)  # the box turned with the page
    assert 0 <= x0 < x1 <= 842 and 0 <= y0 < y1 <= 595
    # at 1 px per point, the ink (the drawn rectangle and the text inside it) is where the box says
    from PIL import Image

    shown = render_page(_pdf(tmp_path, 90), 1, [842])
    assert shown is not None
    pic = Image.open(BytesIO(base64.b64decode(shown.uris[0].split(",", 1)[1]))).convert("L")
    ink = pic.point(lambda v: 255 if v < 128 else 0).getbbox()
    assert ink is not None and all(abs(a - b) <= 3 for a, b in zip(ink, (x0, y0, x1, y1), strict=True))


def test_an_unreadable_page_gives_no_picture(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"not a pdf")
    assert render_page(str(bad), 1, [360]) is None
    assert render_page(_pdf(tmp_path, 0), 5, [360]) is None
