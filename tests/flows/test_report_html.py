"""report.html on real runs over generated PDFs (a Japanese two-page table, a headerless table, an
encrypted file that fails): first rows, enlarged pages with table and cell boxes, the trend
against the previous run, and in a real headless browser (Debian's chromium) that it loads,
shows the values, opens the enlarged page with its boxes and draws Japanese as glyphs."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rowkeeper.config import load_config
from rowkeeper.flows.ingest import ingest_plain
from rowkeeper.flows.report_html import _CSS
from samples import pdfgen

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DOCS_SHOT = Path(__file__).resolve().parents[2] / "docs" / "report.png"
HEADERLESS = [["R&D <lab>", "21.6", "0.40"], ["A-2", "22.1", "0.38"], ["A-3", "19.8", "0.41"],
              ["A-4", "20.5", "0.39"]]


def _headerless_pdf() -> bytes:
    table = pdfgen.TableSpec(header=[], rows=HEADERLESS)
    return pdfgen.build_pdf(pdfgen.DocSpec(title="Sensor log", blocks=[pdfgen.Heading("Readings"), table]))


@pytest.fixture(scope="module")
def report_dir(pdf_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two runs into one folder: borderless.pdf alone, then with the others added (a trend)."""
    d = tmp_path_factory.mktemp("html_in")
    out = tmp_path_factory.mktemp("html_out")
    shutil.copy(pdf_dir / "borderless.pdf", d / "borderless.pdf")
    ingest_plain([str(d)], load_config().with_out(str(out)))
    for name in ("ruled.pdf", "two_page.pdf", "ruled_encrypted.pdf"):
        shutil.copy(pdf_dir / name, d / name)
    (d / "headerless.pdf").write_bytes(_headerless_pdf())
    ingest_plain([str(d)], load_config().with_out(str(out)))
    return out


def _page(report_dir: Path) -> str:
    return (report_dir / "report.html").read_text(encoding="utf-8")


def _tables(report_dir: Path) -> dict[str, dict]:
    rows = [json.loads(line) for line in (report_dir / "tables.jsonl").read_text(encoding="utf-8").splitlines()]
    return {Path(t["source"]).name: t for t in rows}


def _zoom(page: str, doc_id: str, n: int) -> str:
    m = re.search(rf'<div class="zoom" id="z-{doc_id[:12]}-p{n}">.*?</div>', page)
    assert m, f"no enlarged view of page {n}"
    return m.group(0)


def test_report_is_self_contained_with_failures_first(report_dir: Path) -> None:
    page = _page(report_dir)
    srcs = re.findall(r'(?:src|href)="([^"#][^"]*)"', page)
    assert srcs and all(s.startswith("data:") for s in srcs)  # pictures embedded, nothing fetched
    # ruled, headerless: 1 page each, two_page: pages 1 and 2; each an enlarged view and a
    # thumbnail (a CSS background, once per page however many tables show it)
    assert len(re.findall(r'<img src="data:image/jpeg', page)) == 4
    assert len(re.findall(r"background-image:url\(data:image/jpeg", page)) == 4
    assert page.index("ruled_encrypted.pdf") < page.index("two_page.pdf")  # failures first
    assert "merged from 2 pieces" in page and 'href="#t-' in page
    assert "encrypted PDF" in page
    assert (report_dir / "report.html").stat().st_size < 1_500_000  # 4 pages: sane


def test_first_rows_of_every_table_are_shown_escaped(report_dir: Path) -> None:
    page = _page(report_dir)
    assert "<th>物件名</th><th>管理費</th><th>修繕積立金</th>" in page
    assert "<td>サンハイツ泉1</td><td>13,000</td><td>11,500</td>" in page
    assert "<td>01-002</td><td>Office chair</td><td>14,900.00</td><td>7</td>" in page
    assert "<td>R&amp;D &lt;lab&gt;</td><td>21.6</td>" in page and "<lab>" not in page
    assert page.count("<i class=muted>(unnamed)</i>") == 3
    assert "first 5 of 40 rows" in page and "all 5 rows" in page


def test_enlarged_page_draws_every_table_box_and_cell(report_dir: Path) -> None:
    page, tables = _page(report_dir), _tables(report_dir)
    t = tables["two_page.pdf"]
    for n in (1, 2):
        zoom = _zoom(page, t["doc_id"], n)
        assert 'src="data:image/jpeg;base64,' in zoom
        cells = sum(1 for c in t["cells"] if c["page"] == n and c["bbox"])
        assert zoom.count('<rect class="cell"') == cells > 0
        assert zoom.count('<rect class="tb"') == 1
    # the thumbnail links to it
    assert f'href="#z-{t["doc_id"][:12]}-p2"' in page


def test_unnamed_columns_are_not_self_contained(report_dir: Path) -> None:
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    t = next(t for d in report["documents"] for t in d["tables"] if d["source"].endswith("headerless.pdf"))
    assert t["columns"] == ["", "", ""]
    assert t["self_contained"]["unnamed"] == 8 and t["self_contained"]["fraction"] == round(4 / 12, 6)
    assert report["totals"]["self_contained_unnamed_cells"] == 8
    assert report["totals"]["self_contained_rate"] < 1.0
    assert "self-contained: 33.3% (8 values under unnamed columns)" in _page(report_dir)


def test_trend_against_the_previous_run_in_the_same_folder(report_dir: Path) -> None:
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    previous = json.loads((report_dir / "report.previous.json").read_text(encoding="utf-8"))
    assert previous["totals"]["documents"] == 1
    figures = {f["figure"]: f for f in report["trend"]["figures"]}
    assert (figures["documents"]["previous"], figures["documents"]["current"]) == (1, 5)
    assert figures["documents"]["direction"] == "up"
    assert (figures["failed"]["change"], figures["failed"]["tone"]) == (1, "bad")
    assert (figures["rows"]["previous"], figures["rows"]["current"]) == (4, 4 + 40 + 5)
    page = _page(report_dir)
    assert "<h3>Trend</h3>" in page and '<td class="bad">▲ +1</td>' in page
    assert "this run skipped 1 unchanged documents" in page


def test_css_names_an_installed_cjk_font() -> None:
    assert "'IPAGothic'" in _CSS and "'Noto Sans CJK JP'" in _CSS


def _chromium(*args: str, url: str, tmp: Path, size: str = "1280,2400") -> subprocess.CompletedProcess:
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run",
            f"--user-data-dir={tmp / 'profile'}", "--enable-logging=stderr", "--v=0",
            f"--window-size={size}", "--hide-scrollbars"]
    return subprocess.run([*base, *args, url], capture_output=True, text=True, timeout=120)


def _shot(url: str, tmp: Path, name: str, size: str = "1280,2400") -> object:
    from PIL import Image

    shot = tmp / name
    _chromium(f"--screenshot={shot}", url=url, tmp=tmp, size=size).check_returncode()
    return Image.open(shot).convert("RGB")


def _count(img: object, rgb: tuple[int, int, int], tol: int = 40) -> int:
    return sum(1 for p in img.getdata() if all(abs(a - b) <= tol for a, b in zip(p, rgb, strict=True)))  # type: ignore[attr-defined]


def _content_bottom(img: object) -> int:
    """The last pixel row that is not page background (Japanese two_page.pdf is the last document)."""
    w, h = img.size  # type: ignore[attr-defined]
    bg = img.getpixel((w - 1, h - 1))  # type: ignore[attr-defined]
    for y in range(h - 1, 0, -1):
        if any(img.getpixel((x, y)) != bg for x in range(0, w, 4)):  # type: ignore[attr-defined]
            return y
    return h


@pytest.mark.browser
def test_report_in_chromium_shows_values_enlarged_boxes_and_cjk(report_dir: Path, tmp_path: Path) -> None:
    if CHROMIUM is None:
        pytest.skip("chromium not installed (scripts/install.sh test installs it)")
    url = (report_dir / "report.html").resolve().as_uri()
    dom = _chromium("--dump-dom", url=url, tmp=tmp_path)
    assert dom.returncode == 0
    assert re.search(r"<b>5</b><span>documents</span>", dom.stdout)
    assert re.search(r"<b>1</b><span>failed</span>", dom.stdout)
    for value in ("Desk lamp", "38,500.00", "物件名", "サンハイツ泉1", "R&amp;D &lt;lab&gt;", "表2 管理費一覧"):
        assert value in dom.stdout
    assert [ln for ln in dom.stderr.splitlines() if ":CONSOLE" in ln] == []

    two_page = _tables(report_dir)["two_page.pdf"]
    zoom_id = f"z-{two_page['doc_id'][:12]}-p1"
    closed = _shot(url, tmp_path, "report.png")
    opened = _shot(f"{url}#{zoom_id}", tmp_path, "zoom.png", size="1280,1000")
    # the enlarged page covers the window: white page, the table's red box and blue cell lines
    assert _count(opened, (209, 17, 17), 30) > 1500 and _count(opened, (21, 101, 192), 45) > 1500
    assert _count(opened, (255, 255, 255), 3) > 0.3 * 1280 * 1000
    assert _count(closed, (21, 101, 192), 45) < 0.1 * _count(opened, (21, 101, 192), 45)  # cells: enlarged only
    if os.environ.get("ROWKEEPER_UPDATE_DOCS"):  # README's pictures: top, the Japanese table, enlarged
        whole = _shot(url, tmp_path, "whole.png", size="1280,6000")
        bottom = _content_bottom(whole)
        japanese = whole.crop((0, max(0, bottom - 1300), 1280, bottom + 10))  # type: ignore[attr-defined]
        for img, name in ((closed, "report.png"), (japanese, "report-japanese.png"),
                          (opened, "report-enlarged.png")):
            img.quantize(colors=128).save(DOCS_SHOT.with_name(name), optimize=True)  # type: ignore[attr-defined]


def _glyph_pixels(tmp: Path, name: str, env: dict[str, str] | None = None) -> tuple[int, int, int]:
    """Ink of 物 and of 件 drawn in the report's CSS, and how many pixels differ between them."""
    from PIL import Image

    probe = tmp / f"{name}.html"
    spans = "".join(f'<span style="position:absolute;left:{20 + 120 * i}px;top:20px;font-size:80px;'
                    f'line-height:1">{ch}</span>' for i, ch in enumerate("物件"))
    probe.write_text(f'<!doctype html><meta charset="utf-8"><style>{_CSS}</style>'
                     f'<body style="background:#fff">{spans}</body>', encoding="utf-8")
    shot = tmp / f"{name}.png"
    args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
            f"--user-data-dir={tmp / name}", "--window-size=300,200", f"--screenshot={shot}", probe.as_uri()]
    subprocess.run(args, capture_output=True, timeout=120, check=True, env={**os.environ, **(env or {})})
    img = Image.open(shot).convert("L")
    a, b = (list(img.crop((20 + 120 * i, 20, 100 + 120 * i, 100)).getdata()) for i in range(2))
    diff = sum(1 for p, q in zip(a, b, strict=True) if abs(p - q) > 100)
    return sum(p < 128 for p in a), sum(p < 128 for p in b), diff


@pytest.mark.browser
def test_japanese_renders_as_glyphs_in_the_report_font_stack(tmp_path: Path) -> None:
    """Tofu draws every missing character as the same box; real glyphs of different characters
    differ. Two characters in the report's own CSS: different shapes with the installed fonts,
    equal boxes when fontconfig sees no CJK font (the check can tell the two apart)."""
    if CHROMIUM is None:
        pytest.skip("chromium not installed (scripts/install.sh test installs it)")
    ink_a, ink_b, differing = _glyph_pixels(tmp_path, "fonts")
    assert ink_a > 300 and ink_b > 300  # something drawn
    assert differing > 0.3 * min(ink_a, ink_b)  # two different shapes, not two equal boxes
    dejavu = Path("/usr/share/fonts/truetype/dejavu")
    if dejavu.is_dir():  # the control: no CJK font visible -> tofu, equal boxes
        conf = tmp_path / "fonts.conf"
        conf.write_text(f'<?xml version="1.0"?><fontconfig><dir>{dejavu}</dir>'
                        f"<cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>", encoding="utf-8")
        *_, tofu_differing = _glyph_pixels(tmp_path, "tofu", {"FONTCONFIG_FILE": str(conf)})
        assert tofu_differing < 0.1 * differing


def test_enlarged_pages_stop_at_the_byte_budget(report_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rowkeeper.flows import report_html

    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    full = report_html.render_html(report)
    monkeypatch.setattr(report_html, "MAX_ENLARGED_BYTES", 1)
    small = report_html.render_html(report)
    assert small.count('<div class="zoom"') == 0 < full.count('<div class="zoom"') == 4
    assert small.count("background-image:url(data:image/") == 4  # thumbnails stay
    assert "click to enlarge" not in small


def test_a_documents_warnings_are_shown_in_the_page(tmp_path: Path) -> None:
    """A blank scan is ok with a warning in documents.jsonl; report.html shows it too."""
    import pymupdf

    d, out = tmp_path / "in", tmp_path / "out"
    d.mkdir()
    doc = pymupdf.open()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 400, 560), 0)
    pix.clear_with(255)
    doc.new_page(width=595, height=842).insert_image(pymupdf.Rect(0, 0, 595, 842), pixmap=pix)
    doc.save(d / "blank_scan.pdf")
    ingest_plain([str(d)], load_config().with_out(str(out)))
    page = (out / "report.html").read_text(encoding="utf-8")
    m = re.search(r'<ul class="warn"[^>]*>(.*?)</ul>', page)
    assert m and m.group(1) == "<li>page 1: scanned page, no layer read any text</li>"
    assert '<div class="fig bad"><b>1</b><span>documents with warnings</span></div>' in page


def test_one_picture_budget_serves_the_report_and_the_pages_rendered_ahead():
    from rowkeeper.flows.report_html import THUMB_WIDTH, ZOOM_WIDTH, Budget

    budget = Budget(thumbnails=3, enlarged=2, enlarged_bytes=100)
    first = budget.take()
    assert first == (THUMB_WIDTH, ZOOM_WIDTH)
    assert budget.settle(first, None)  # not rendered: given back whole
    assert (budget.thumbnails, budget.enlarged) == (3, 2)
    assert budget.settle(budget.take(), 60)
    second = budget.take()
    assert not budget.settle(second, 60)  # would overshoot the bytes: thumbnail only
    assert budget.take() == (THUMB_WIDTH,)  # no page enlarged after that
    assert budget.take() == ()  # the thumbnails are spent
