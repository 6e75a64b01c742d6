"""Words, numbers and dates per language for the layout zoo: everything a family draws from.

Each language brings its own vocabulary (section titles, column names, row keys, prose), its
caption label and its locale's number, currency and date formats, so that a table reads like one
written in that language rather than English with swapped words.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

LANGS = ("en", "de", "hu", "vi", "ja")


@dataclass(frozen=True)
class Lang:
    """One language: vocabulary and locale formats."""

    code: str
    table_label: str  # "Table {n}" pattern; {n} is the number
    sections: tuple[str, ...]
    text_columns: tuple[str, ...]
    metrics: tuple[tuple[str, str], ...]  # (name, unit)
    keys: tuple[str, ...]
    key_suffixes: tuple[str, ...]
    captions: tuple[str, ...]
    prose: tuple[str, ...]
    form_keys: tuple[str, ...]
    statement_items: tuple[str, ...]
    total_word: str
    thousands: str
    decimal: str
    currency: tuple[str, str]  # (prefix, suffix)
    date_style: str


EN = Lang(
    "en", "Table {n}",
    ("Overview", "Results", "Operating costs", "Regional sales", "Staffing", "Maintenance",
     "Procurement", "Energy use", "Outlook", "Methods", "Evaluation", "Appendix"),
    ("Item", "Region", "Supplier", "Category", "Site", "Owner", "Status"),
    (("Revenue", "USD"), ("Quantity", "units"), ("Unit price", "USD"), ("Weight", "kg"),
     ("Share", "%"), ("Lead time", "days"), ("Cost", "USD"), ("Volume", "m3"), ("Score", ""),
     ("Margin", "%"), ("Headcount", ""), ("Budget", "USD"), ("Power", "kW")),
    ("North Ridge", "Harbor View", "Maple Court", "Stone Bridge", "Cedar Park", "Lakeside",
     "Riverside", "Oak Hill", "Westgate", "Elm Street", "Pine Valley", "Bay Point", "Fairfield",
     "Kingsway", "Brookfield", "Summit", "Glenwood", "Ashford", "Millbrook", "Redwood"),
    ("depot", "plant", "office", "store", "line", "unit", "hub"),
    ("Quarterly figures by site", "Operating costs per region", "Supplier overview",
     "Energy consumption", "Headcount and budget", "Maintenance schedule", "Key indicators"),
    ("The figures below cover the reporting period and were checked by the controlling team.",
     "Values are rounded; totals may differ slightly from the sum of the rows.",
     "Sites opened during the year are included from their first full month of operation.",
     "This section summarises the main results and compares them with the previous year.",
     "Costs include maintenance, energy and external services but exclude depreciation.",
     "All amounts are stated before tax unless a note says otherwise."),
    ("Customer", "Address", "Contact", "Phone", "Quote no.", "Date", "Valid until", "Project"),
    ("Net sales", "Cost of sales", "Gross profit", "Selling expenses", "Administrative expenses",
     "Other operating income", "Operating result", "Financial expenses", "Income tax"),
    "Total", ",", ".", ("$", ""), "iso",
)
DE = Lang(
    "de", "Tabelle {n}",
    ("Überblick", "Ergebnisse", "Betriebskosten", "Umsatz nach Regionen", "Personal", "Wartung",
     "Beschaffung", "Energieverbrauch", "Ausblick", "Methodik", "Auswertung", "Anhang"),
    ("Artikel", "Region", "Lieferant", "Kategorie", "Standort", "Verantwortlich", "Status"),
    (("Umsatz", "EUR"), ("Menge", "Stück"), ("Stückpreis", "EUR"), ("Gewicht", "kg"),
     ("Anteil", "%"), ("Lieferzeit", "Tage"), ("Kosten", "EUR"), ("Volumen", "m3"),
     ("Bewertung", ""), ("Marge", "%"), ("Mitarbeiter", ""), ("Budget", "EUR"),
     ("Leistung", "kW")),
    ("Nordhafen", "Lindenhof", "Bergheim", "Waldstraße", "Seeblick", "Mühlbach", "Talweg",
     "Eichenau", "Rosenau", "Kirchberg", "Altstadt", "Sonnenhang", "Birkenweg", "Hafenkai",
     "Marktplatz", "Buchenallee", "Auwald", "Ostring", "Feldkamp", "Weidenhof"),
    ("Lager", "Werk", "Büro", "Filiale", "Linie", "Halle"),
    ("Quartalszahlen nach Standort", "Betriebskosten je Region", "Lieferantenübersicht",
     "Energieverbrauch", "Personal und Budget", "Wartungsplan", "Kennzahlen"),
    ("Die folgenden Zahlen betreffen den Berichtszeitraum und wurden vom Controlling geprüft.",
     "Die Werte sind gerundet; Summen können geringfügig von der Zeilensumme abweichen.",
     "Im Laufe des Jahres eröffnete Standorte sind ab dem ersten vollen Monat enthalten.",
     "Dieser Abschnitt fasst die wichtigsten Ergebnisse zusammen und vergleicht sie mit dem Vorjahr.",
     "Die Kosten umfassen Wartung, Energie und Fremdleistungen, jedoch keine Abschreibungen."),
    ("Kunde", "Anschrift", "Ansprechpartner", "Telefon", "Angebotsnr.", "Datum", "Gültig bis",
     "Projekt"),
    ("Umsatzerlöse", "Herstellungskosten", "Bruttoergebnis", "Vertriebskosten",
     "Verwaltungskosten", "Sonstige Erträge", "Betriebsergebnis", "Finanzaufwand", "Steuern"),
    "Summe", ".", ",", ("", " €"), "dmy_dot",
)
HU = Lang(
    "hu", "{n}. táblázat",
    ("Áttekintés", "Eredmények", "Működési költségek", "Regionális értékesítés", "Létszám",
     "Karbantartás", "Beszerzés", "Energiafelhasználás", "Kilátások", "Módszertan", "Értékelés",
     "Melléklet"),
    ("Tétel", "Régió", "Szállító", "Kategória", "Telephely", "Felelős", "Állapot"),
    (("Árbevétel", "Ft"), ("Mennyiség", "db"), ("Egységár", "Ft"), ("Tömeg", "kg"),
     ("Részesedés", "%"), ("Szállítási idő", "nap"), ("Költség", "Ft"), ("Térfogat", "m3"),
     ("Pontszám", ""), ("Árrés", "%"), ("Létszám", "fő"), ("Keret", "Ft"),
     ("Teljesítmény", "kW")),
    ("Északi telep", "Dunapart", "Hegyalja", "Kőhíd", "Tölgyes", "Tópart", "Folyópart",
     "Szőlőhegy", "Nyugati kapu", "Fő utca", "Fenyves", "Öböl", "Mezőföld", "Királyút",
     "Patakvölgy", "Csúcs", "Erdőszél", "Hársfa", "Malomárok", "Vörösfenyő"),
    ("raktár", "üzem", "iroda", "bolt", "sor", "egység"),
    ("Negyedéves adatok telephelyenként", "Működési költségek régiónként",
     "Szállítói áttekintés", "Energiafogyasztás", "Létszám és keret", "Karbantartási terv",
     "Fő mutatók"),
    ("Az alábbi adatok a beszámolási időszakra vonatkoznak, és a kontrolling ellenőrizte őket.",
     "Az értékek kerekítettek; az összesen sor kissé eltérhet a sorok összegétől.",
     "Az év közben nyitott telephelyek az első teljes hónaptól szerepelnek.",
     "Ez a fejezet összefoglalja a fő eredményeket, és összeveti őket az előző évvel.",
     "A költségek tartalmazzák a karbantartást és az energiát, az értékcsökkenést nem."),
    ("Ügyfél", "Cím", "Kapcsolattartó", "Telefon", "Ajánlatszám", "Dátum", "Érvényes",
     "Projekt"),
    ("Nettó árbevétel", "Értékesítés költsége", "Bruttó eredmény", "Értékesítési költségek",
     "Igazgatási költségek", "Egyéb bevételek", "Üzemi eredmény", "Pénzügyi ráfordítás",
     "Társasági adó"),
    "Összesen", " ", ",", ("", " Ft"), "ymd_dot",
)
VI = Lang(
    "vi", "Bảng {n}",
    ("Tổng quan", "Kết quả", "Chi phí vận hành", "Doanh số theo vùng", "Nhân sự", "Bảo trì",
     "Mua sắm", "Sử dụng năng lượng", "Triển vọng", "Phương pháp", "Đánh giá", "Phụ lục"),
    ("Hạng mục", "Khu vực", "Nhà cung cấp", "Loại", "Địa điểm", "Phụ trách", "Trạng thái"),
    (("Doanh thu", "VNĐ"), ("Số lượng", "cái"), ("Đơn giá", "VNĐ"), ("Khối lượng", "kg"),
     ("Tỷ trọng", "%"), ("Thời gian giao", "ngày"), ("Chi phí", "VNĐ"), ("Thể tích", "m3"),
     ("Điểm", ""), ("Biên lợi nhuận", "%"), ("Số nhân viên", "người"), ("Ngân sách", "VNĐ"),
     ("Công suất", "kW")),
    ("Hà Nội", "Hải Phòng", "Đà Nẵng", "Huế", "Cần Thơ", "Nha Trang", "Vũng Tàu", "Quy Nhơn",
     "Biên Hòa", "Thủ Đức", "Bắc Ninh", "Nam Định", "Vinh", "Đà Lạt", "Hạ Long", "Buôn Ma Thuột",
     "Long Xuyên", "Rạch Giá", "Thái Nguyên", "Phan Thiết"),
    ("kho", "nhà máy", "văn phòng", "cửa hàng", "dây chuyền", "chi nhánh"),
    ("Số liệu quý theo địa điểm", "Chi phí vận hành theo khu vực", "Tổng quan nhà cung cấp",
     "Tiêu thụ năng lượng", "Nhân sự và ngân sách", "Kế hoạch bảo trì", "Chỉ tiêu chính"),
    ("Số liệu dưới đây thuộc kỳ báo cáo và đã được bộ phận kiểm soát kiểm tra.",
     "Các giá trị đã được làm tròn; tổng có thể chênh lệch nhỏ so với tổng các dòng.",
     "Các địa điểm mở trong năm được tính từ tháng hoạt động đầy đủ đầu tiên.",
     "Phần này tóm tắt các kết quả chính và so sánh với năm trước.",
     "Chi phí bao gồm bảo trì, năng lượng và dịch vụ thuê ngoài nhưng không gồm khấu hao."),
    ("Khách hàng", "Địa chỉ", "Người liên hệ", "Điện thoại", "Số báo giá", "Ngày", "Hiệu lực",
     "Dự án"),
    ("Doanh thu thuần", "Giá vốn hàng bán", "Lợi nhuận gộp", "Chi phí bán hàng",
     "Chi phí quản lý", "Thu nhập khác", "Lợi nhuận thuần", "Chi phí tài chính",
     "Thuế thu nhập"),
    "Tổng cộng", ".", ",", ("", " ₫"), "dmy_slash",
)
JA = Lang(
    "ja", "表{n}",
    ("概要", "結果", "運営費", "地域別売上", "人員", "保守", "調達", "エネルギー使用量", "見通し",
     "方法", "評価", "付録"),
    ("品目", "地域", "取引先", "区分", "施設", "担当", "状況"),
    (("売上高", "千円"), ("数量", "個"), ("単価", "円"), ("重量", "kg"), ("構成比", "%"),
     ("納期", "日"), ("費用", "千円"), ("容積", "m3"), ("評点", ""), ("利益率", "%"),
     ("人数", "人"), ("予算", "千円"), ("出力", "kW")),
    ("札幌", "仙台", "新潟", "金沢", "名古屋", "京都", "大阪", "神戸", "広島", "高松", "福岡",
     "熊本", "鹿児島", "那覇", "静岡", "岡山", "長野", "富山", "松山", "盛岡"),
    ("倉庫", "工場", "事務所", "店舗", "支店", "センター"),
    ("施設別四半期実績", "地域別運営費", "取引先一覧", "エネルギー消費量", "人員と予算",
     "保守計画", "主要指標"),
    ("以下の数値は報告期間を対象とし、管理部門が確認したものである。",
     "数値は四捨五入しているため、合計が各行の和と一致しない場合がある。",
     "期中に開設した施設は、最初の満月から集計に含めている。",
     "本節では主な結果をまとめ、前年度と比較する。",
     "費用には保守、エネルギー及び外部委託を含み、減価償却費は含まない。"),
    ("顧客名", "住所", "担当者", "電話番号", "見積番号", "日付", "有効期限", "件名"),
    ("売上高", "売上原価", "売上総利益", "販売費", "一般管理費", "営業外収益", "営業利益",
     "支払利息", "法人税等"),
    "合計", ",", ".", ("¥", ""), "ja",
)
LANGUAGES = {x.code: x for x in (EN, DE, HU, VI, JA)}


def group(n: int, sep: str) -> str:
    """An integer with its thousands grouped by `sep` ("" for none)."""
    s = f"{abs(n):,}".replace(",", sep)
    return ("-" if n < 0 else "") + s


def number(lang: Lang, value: float, decimals: int = 0, grouping: bool = True) -> str:
    """A number written the locale's way: 1,234.56 / 1.234,56 / 1 234,56."""
    whole = int(abs(value))
    frac = f"{abs(value) - whole:.{decimals}f}"[2:] if decimals else ""
    text = group(whole, lang.thousands if grouping else "")
    if decimals:
        text += lang.decimal + frac
    return ("-" if value < 0 else "") + text


def money(lang: Lang, value: int) -> str:
    """An amount with the locale's currency symbol (prefix or suffix)."""
    pre, suf = lang.currency
    return f"{pre}{number(lang, value)}{suf}"


def percent(lang: Lang, value: float) -> str:
    """A percentage: 12.5% (en, ja) or 12,5 % (de, hu, vi)."""
    gap = "" if lang.code in ("en", "ja") else " "
    return f"{number(lang, value, 1)}{gap}%"


def date(lang: Lang, rng: random.Random) -> str:
    """A date in the locale's usual form."""
    y, m, d = rng.randint(2019, 2026), rng.randint(1, 12), rng.randint(1, 28)
    return {"iso": f"{y}-{m:02d}-{d:02d}", "dmy_dot": f"{d:02d}.{m:02d}.{y}",
            "ymd_dot": f"{y}. {m:02d}. {d:02d}.", "dmy_slash": f"{d:02d}/{m:02d}/{y}",
            "ja": f"{y}年{m}月{d}日"}[lang.date_style]


def row_keys(lang: Lang, rng: random.Random, n: int) -> list[str]:
    """n distinct row labels ("Harbor View depot 417", "札幌倉庫 52"). The number, as in site
    or item codes, keeps a label unique across the corpus, so that a question naming it has
    one answer among all documents (the retrieval check asks across documents)."""
    joiner = "" if lang.code == "ja" else " "
    pool = [f"{k}{joiner}{s}" for k in lang.keys for s in lang.key_suffixes]
    rng.shuffle(pool)
    codes = rng.sample(range(10, 10_000), n)
    first = rng.random() < 0.3
    return [f"{c} {pool[i % len(pool)]}" if first else f"{pool[i % len(pool)]} {c}"
            for i, c in enumerate(codes)]


def header_name(lang: Lang, name: str, unit: str, style: str) -> str:
    """A column name with its unit: "Cost (USD)", "Kosten [EUR]" or the bare name."""
    if not unit or style == "bare":
        return name
    gap = "" if lang.code == "ja" else " "
    return f"{name}{gap}[{unit}]" if style == "brackets" else f"{name}{gap}({unit})"


def value_for(lang: Lang, rng: random.Random, unit: str, kind: str) -> tuple[str, str]:
    """A cell value and its CONTRACT type for a metric column of the given kind."""
    if kind == "percent":
        return percent(lang, rng.uniform(0, 100)), "percent"
    if kind == "currency":
        return money(lang, rng.randint(100, 9_999_999)), "currency"
    if kind == "decimal":
        return number(lang, rng.uniform(1, 99_999), rng.choice((1, 2))), "decimal"
    if kind == "date":
        return date(lang, rng), "date"
    return number(lang, rng.randint(1, 999_999)), "integer"


def metric_kind(unit: str, rng: random.Random) -> str:
    """The value kind a metric column holds, from its unit (and a draw for plain numbers)."""
    if unit == "%":
        return "percent"
    return rng.choice(("integer", "integer", "decimal", "currency")) if unit else "integer"


def paragraph(lang: Lang, rng: random.Random, sentences: int) -> str:
    """Prose of a few sentences in the language."""
    joiner = "" if lang.code == "ja" else " "
    return joiner.join(rng.choice(lang.prose) for _ in range(sentences))
