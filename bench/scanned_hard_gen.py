"""Cases of bench/scanned_hard.py: generated business tables in five languages, scanned hard.

Each case is a text PDF (samples.pdfgen) with exact ground truth and a degraded scan of some
or all of its pages: 150-200 dpi, paper tone, sensor noise and speckle, a slight blur,
JPEG q62-75, rotation up to 1 degree, some pages in colour, some with a round stamp beside
the table. Languages ja/en/vi/hu/de print numbers the local way (1,250.00 / 1.250,00 /
1 250 / 1.250.000). Table kinds: ruled, borderless, and ruled with a two-row header (a
spanning group label over sub-labels, a stub label spanning both rows), and ruled between
rows only inside a frame (no column rules: one "cell" per row to a rule finder). Mixed documents run
one table over text page -> scanned page -> text page. The split is by seed: odd seeds are
the test part (only measured), even seeds the dev part (tuned on).
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import numpy as np
import pymupdf
from PIL import Image as PILImage
from PIL import ImageDraw, ImageFilter

from samples.pdfgen import DocSpec, Heading, Paragraph, TableSpec, build_pdf

LANGS = ("en", "ja", "vi", "hu", "de")
KINDS = ("ruled", "borderless", "two_row", "rows_ruled")

WORDS = {
    "en": {"cols": ["Code", "Item", "Unit price", "Quantity", "Amount"],
           "items": ["Desk lamp", "Office chair", "Standing desk", "Monitor arm", "Filing cabinet",
                     "Laser printer", "Whiteboard", "Paper shredder", "Bookshelf", "Coat stand",
                     "Meeting table", "Desk drawer"],
           "regions": ["North", "South", "East", "West", "Central", "Overseas"],
           "stub": "Region", "halves": ["H1", "H2"],
           "title": "Purchase summary", "heading": "2. Equipment",
           "para": "The figures below are taken from the signed delivery notes and exclude tax.",
           "caption": "Table 3 Equipment purchases"},
    "ja": {"cols": ["品番", "品名", "単価", "数量", "金額"],
           "items": ["事務机", "会議用椅子", "書類棚", "ホワイトボード", "レーザープリンター", "電気スタンド",
                     "シュレッダー", "本棚", "コート掛け", "会議テーブル", "モニターアーム", "引き出し"],
           "regions": ["北海道", "東北", "関東", "中部", "近畿", "九州"],
           "stub": "地域", "halves": ["上期", "下期"],
           "title": "購入実績", "heading": "2. 備品", "para": "以下の金額は納品書に基づく税抜きの金額です。",
           "caption": "表3 備品購入一覧"},
    "vi": {"cols": ["Mã hàng", "Tên sản phẩm", "Đơn giá", "Số lượng", "Thành tiền"],
           "items": ["Bàn làm việc", "Ghế văn phòng", "Đèn bàn", "Tủ hồ sơ", "Máy in laser",
                     "Bảng trắng", "Máy hủy giấy", "Kệ sách", "Giá treo áo", "Bàn họp",
                     "Giá đỡ màn hình", "Ngăn kéo bàn"],
           "regions": ["Miền Bắc", "Miền Trung", "Miền Nam", "Tây Nguyên", "Đồng bằng", "Hải ngoại"],
           "stub": "Khu vực", "halves": ["Quý một", "Quý hai"],
           "title": "Tổng hợp mua sắm", "heading": "2. Thiết bị văn phòng",
           "para": "Số liệu dưới đây lấy từ phiếu giao hàng đã ký và chưa bao gồm thuế.",
           "caption": "Bảng 3 Thiết bị đã mua"},
    "hu": {"cols": ["Kód", "Megnevezés", "Egységár", "Mennyiség", "Összeg"],
           "items": ["Íróasztal", "Irodai szék", "Asztali lámpa", "Iratszekrény", "Lézernyomtató",
                     "Fehér tábla", "Iratmegsemmisítő", "Könyvespolc", "Fogas", "Tárgyalóasztal",
                     "Monitortartó kar", "Fiók"],
           "regions": ["Észak", "Dél", "Kelet", "Nyugat", "Közép", "Külföld"],
           "stub": "Régió", "halves": ["Első félév", "Második félév"],
           "title": "Beszerzési összesítő", "heading": "2. Eszközök",
           "para": "Az alábbi összegek az aláírt szállítólevelekből származnak, áfa nélkül.",
           "caption": "3. táblázat Beszerzett eszközök"},
    "de": {"cols": ["Nr.", "Bezeichnung", "Einzelpreis", "Menge", "Betrag"],
           "items": ["Schreibtisch", "Bürostuhl", "Schreibtischlampe", "Aktenschrank", "Laserdrucker",
                     "Whiteboard", "Aktenvernichter", "Bücherregal", "Garderobe", "Besprechungstisch",
                     "Monitorhalterung", "Schublade"],
           "regions": ["Nord", "Süd", "Ost", "West", "Mitte", "Ausland"],
           "stub": "Region", "halves": ["Halbjahr 1", "Halbjahr 2"],
           "title": "Beschaffungsübersicht", "heading": "2. Ausstattung",
           "para": "Die Beträge stammen aus den unterschriebenen Lieferscheinen, ohne Mehrwertsteuer.",
           "caption": "Tabelle 3 Beschaffte Ausstattung"},
}


def number(value: int, lang: str, decimals: int = 0) -> str:
    """`value` (in hundredths when `decimals`) printed the way `lang` prints numbers."""
    whole, frac = (value // 100, value % 100) if decimals else (value, 0)
    groups = f"{whole:,}"
    sep, dec = {"en": (",", "."), "ja": (",", "."), "de": (".", ","), "vi": (".", ","), "hu": (" ", ",")}[lang]
    text = groups.replace(",", sep)
    return f"{text}{dec}{frac:02d}" if decimals else text


@dataclass(frozen=True)
class Case:
    """One benchmark document: its PDF, which pages are scanned, and the truth of its table."""

    name: str
    lang: str
    kind: str
    seed: int
    split: str
    pdf: bytes
    scanned_pages: tuple[int, ...]
    columns: tuple[str, ...]
    header_rows: int
    rows: tuple[tuple[str, ...], ...]
    mixed: bool = False


def _item_rows(lang: str, n: int, rng: random.Random) -> list[list[str]]:
    w = WORDS[lang]
    items = rng.sample(w["items"], min(n, len(w["items"])))
    while len(items) < n:
        items.append(f"{rng.choice(w['items'])} {len(items) + 1}")
    rows = []
    for i, item in enumerate(items):
        price = rng.randrange(1_000, 4_000_000) if lang != "vi" else rng.randrange(50, 9_000) * 1000
        qty = rng.randrange(1, 250)
        dec = 2 if lang in ("en", "de") else 0
        amount = price * qty
        rows.append([f"{rng.randrange(10, 99)}-{100 + i * 7 + rng.randrange(7):03d}", item,
                     number(price, lang, dec), str(qty), number(amount, lang, dec)])
    return rows


def _table(lang: str, kind: str, n_rows: int, rng: random.Random) -> tuple[TableSpec, tuple[str, ...]]:
    """The table spec and its folded column names."""
    w = WORDS[lang]
    if kind == "two_row":
        years = [str(2024 + rng.randrange(2)), ""]
        years[1] = str(int(years[0]) + 1)
        h1, h2 = w["halves"]
        header = [[w["stub"], years[0], "", years[1], ""], ["", h1, h2, h1, h2]]
        regions = rng.sample(w["regions"], min(n_rows, len(w["regions"])))
        rows = [[r] + [number(rng.randrange(100, 99_999), lang) for _ in range(4)] for r in regions]
        spec = TableSpec(caption=w["caption"], header=header, rows=rows,
                         spans=[(0, 0, 2, 1), (0, 1, 1, 2), (0, 3, 1, 2)],
                         col_widths=[135, 90, 90, 90, 90])
        cols = (w["stub"], f"{years[0]} {h1}", f"{years[0]} {h2}", f"{years[1]} {h1}", f"{years[1]} {h2}")
        return spec, cols
    rows = _item_rows(lang, n_rows, rng)
    spec = TableSpec(caption=w["caption"], header=[list(w["cols"])], rows=rows, ruled=kind == "ruled",
                     col_widths=[60, 160, 95, 65, 115])
    return spec, tuple(w["cols"])


def rule_rows(pdf: bytes, n_rows: int, row_height: float) -> bytes:
    """Frame the page's last `n_rows` text rows and rule between them (no column rules)."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    page = doc[0]
    words = page.get_text("words")
    bottom = max(w[3] for w in words)
    # rows are drawn on a fixed pitch: the table is the last n_rows pitches above its last word
    y1 = bottom + (row_height - (words[-1][3] - words[-1][1])) / 2
    y0 = y1 - n_rows * row_height
    x0 = min(w[0] for w in words if w[1] >= y0) - 4
    x1 = max(w[2] for w in words if w[1] >= y0) + 12
    page.draw_rect(pymupdf.Rect(x0, y0, x1, y1), color=(0, 0, 0), width=0.7)
    for k in range(1, n_rows):
        page.draw_line((x0, y0 + k * row_height), (x1, y0 + k * row_height), color=(0, 0, 0), width=0.5)
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


def _stamp(size: int, colour: tuple[int, int, int], rng: random.Random) -> PILImage.Image:
    """A round rubber stamp (two rings, a bar, no legible text) as an RGBA image."""
    img = PILImage.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    a = rng.randrange(150, 210)
    c = (*colour, a)
    d.ellipse((2, 2, size - 3, size - 3), outline=c, width=max(3, size // 30))
    d.ellipse((size // 7, size // 7, size - size // 7, size - size // 7), outline=c, width=max(2, size // 50))
    d.rectangle((size // 5, size * 9 // 20, size * 4 // 5, size * 11 // 20), fill=c)
    return img.rotate(rng.uniform(-30, 30), resample=PILImage.BICUBIC)


def degrade(page: pymupdf.Page, rng: random.Random, colour: bool, stamp: bool,
            avoid: tuple[float, float, float, float] | None) -> tuple[bytes, int]:
    """One page as a hard scan: JPEG bytes and the dpi used."""
    dpi = rng.choice((150, 160, 175, 200))
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False)
    img = PILImage.frombytes("RGB", (pix.width, pix.height), pix.samples)
    if stamp:
        size = int(dpi * 1.1)
        s = _stamp(size, (200, 30, 40) if colour else (60, 60, 60), rng)
        # beside the table's bottom right, never over a cell (the truth would be ambiguous)
        top = int((avoid[3] if avoid else 600) * dpi / 72) + int(0.15 * dpi)
        left = img.width - size - int(0.6 * dpi) - rng.randrange(int(0.8 * dpi))
        img.paste(s, (max(left, 0), min(top, img.height - size)), s)
    img = img.rotate(rng.uniform(0.3, 1.0) * rng.choice((-1, 1)), resample=PILImage.BICUBIC, fillcolor=(255, 255, 255))
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.6)))
    arr = np.asarray(img, dtype=np.float32) / 255.0
    paper = np.array([rng.uniform(0.9, 0.97), rng.uniform(0.87, 0.95), rng.uniform(0.78, 0.9)]) if colour \
        else np.full(3, rng.uniform(0.86, 0.95))
    ink = np.array([0.1, 0.12, 0.3]) if colour else np.full(3, rng.uniform(0.05, 0.2))
    arr = paper * arr + ink * (1 - arr)  # white -> paper tone, black -> ink tone
    gen = np.random.default_rng(rng.randrange(1 << 30))
    arr += gen.normal(0, rng.uniform(0.02, 0.045), arr.shape[:2])[..., None]
    specks = gen.random(arr.shape[:2]) < rng.uniform(0.0005, 0.002)
    arr[specks] = gen.uniform(0.0, 0.5, (int(specks.sum()), 1))
    out = PILImage.fromarray((arr.clip(0, 1) * 255).astype("uint8"), "RGB")
    if not colour:
        out = out.convert("L")
    buf = io.BytesIO()
    out.save(buf, format="JPEG", quality=rng.randrange(62, 76))
    return buf.getvalue(), dpi


def scan_pages(pdf: bytes, pages: set[int], rng: random.Random, colour: bool, stamp: bool) -> bytes:
    """`pdf` with the 1-based `pages` replaced by hard scans (image only, no text layer)."""
    src = pymupdf.open(stream=pdf, filetype="pdf")
    out = pymupdf.open()
    for i, page in enumerate(src):
        if i + 1 not in pages:
            out.insert_pdf(src, from_page=i, to_page=i)
            continue
        tabs = page.find_tables().tables
        avoid = tuple(tabs[-1].bbox) if tabs else None
        jpeg, _ = degrade(page, rng, colour, stamp, avoid)
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=jpeg)
    data = out.tobytes(garbage=3, deflate=True, no_new_id=True)  # no random /ID: same seed, same bytes
    out.close()
    src.close()
    return data


def single_case(i: int) -> Case:
    """Case `i`: one scanned page, language and kind cycling, colour every fourth page."""
    lang, kind = LANGS[i % len(LANGS)], KINDS[(i // len(LANGS)) % len(KINDS)]
    rng = random.Random(1000 + i)
    w = WORDS[lang]
    spec, cols = _table(lang, kind, rng.randrange(6, 13), rng)
    doc = DocSpec(title=w["title"], blocks=[Heading(w["heading"]), Paragraph(w["para"]), spec])
    colour, stamp = i % 4 == 3, i % 4 in (1, 3)
    text = build_pdf(doc)
    if kind == "rows_ruled":
        text = rule_rows(text, len(spec.header) + len(spec.rows), spec.row_height)
    pdf = scan_pages(text, {1}, rng, colour, stamp)
    return Case(f"{i:02d}-{lang}-{kind}{'-colour' if colour else ''}", lang, kind, i,
                "test" if i % 2 else "dev", pdf, (1,), cols, len(spec.header),
                tuple(tuple(r) for r in spec.rows))


def mixed_case(j: int) -> Case:
    """Mixed document `j`: one long table over text page -> scanned page -> text page."""
    lang = LANGS[j % len(LANGS)]
    kind = "ruled" if j % 3 != 2 else "borderless"
    rng = random.Random(2000 + j)
    w = WORDS[lang]
    spec, cols = _table(lang, kind, 0, rng)
    rows = _item_rows(lang, 110, rng)
    spec = TableSpec(caption=spec.caption, header=spec.header, rows=rows, ruled=spec.ruled,
                     col_widths=spec.col_widths, repeat_header=j % 2 == 0)
    doc = DocSpec(title=w["title"], blocks=[Heading(w["heading"]), Paragraph(w["para"]), spec])
    text = build_pdf(doc)
    n_pages = pymupdf.open(stream=text, filetype="pdf").page_count
    assert n_pages == 3, (lang, n_pages)
    pdf = scan_pages(text, {2}, rng, colour=j % 4 == 3, stamp=False)
    seed = 100 + j
    return Case(f"m{j}-{lang}-{kind}-mixed", lang, kind, seed, "test" if seed % 2 else "dev", pdf, (2,),
                cols, 1, tuple(tuple(r) for r in rows), mixed=True)


def cases(n_single: int = 40, n_mixed: int = 6) -> list[Case]:
    """Every case of the benchmark, dev and test."""
    return [single_case(i) for i in range(n_single)] + [mixed_case(j) for j in range(n_mixed)]


def page_image(pdf: bytes, page: int) -> bytes:
    """The scan image embedded in a scanned page (what a scanner delivered)."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    xref = doc[page - 1].get_images()[0][0]
    data = doc.extract_image(xref)["image"]
    doc.close()
    return data

