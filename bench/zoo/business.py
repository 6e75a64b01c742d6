"""Words of the business tables the families after generator v10 draw, per language: benefit
schedules and price lists whose first column groups rows (a category over its items), the
descriptions that wrap in a price list or a service schedule, and the words set in a cell merged
across columns ("n/a", "included")."""

from __future__ import annotations

import random

from bench.zoo.fonts import greedy_lines

# (group label, its items): a benefit schedule's categories and a price list's departments
GROUPS = {
    "en": (("Hospitalisation", ("per day", "surgery", "intensive care", "outpatient", "ambulance")),
           ("Outpatient care", ("consultation", "diagnostics", "physiotherapy", "medication")),
           ("Dental", ("check-up", "fillings", "crowns", "orthodontics")),
           ("Maternity", ("prenatal care", "delivery", "postnatal care")),
           ("Office supplies", ("paper", "toner", "binders", "pens", "labels")),
           ("Cleaning", ("floor care", "window cleaning", "sanitary rooms", "waste disposal"))),
    "de": (("Krankenhaus", ("pro Tag", "Operation", "Intensivstation", "ambulant", "Krankentransport")),
           ("Ambulante Behandlung", ("Beratung", "Diagnostik", "Physiotherapie", "Arzneimittel")),
           ("Zahnbehandlung", ("Vorsorge", "Füllungen", "Kronen", "Kieferorthopädie")),
           ("Mutterschaft", ("Vorsorge", "Entbindung", "Nachsorge")),
           ("Büromaterial", ("Papier", "Toner", "Ordner", "Stifte", "Etiketten")),
           ("Reinigung", ("Bodenpflege", "Fensterreinigung", "Sanitärräume", "Entsorgung"))),
    "hu": (("Kórházi ellátás", ("naponta", "műtét", "intenzív ellátás", "járóbeteg", "betegszállítás")),
           ("Járóbeteg-ellátás", ("konzultáció", "diagnosztika", "gyógytorna", "gyógyszer")),
           ("Fogászat", ("szűrés", "tömés", "korona", "fogszabályozás")),
           ("Szülés", ("terhesgondozás", "szülés", "gyermekágy")),
           ("Irodaszer", ("papír", "toner", "iratrendező", "toll", "címke")),
           ("Takarítás", ("padlóápolás", "ablaktisztítás", "mosdók", "hulladékszállítás"))),
    "vi": (("Nằm viện", ("mỗi ngày", "phẫu thuật", "hồi sức", "ngoại trú", "xe cứu thương")),
           ("Điều trị ngoại trú", ("khám bệnh", "chẩn đoán", "vật lý trị liệu", "thuốc")),
           ("Nha khoa", ("khám định kỳ", "trám răng", "bọc răng", "chỉnh nha")),
           ("Thai sản", ("khám thai", "sinh con", "chăm sóc sau sinh")),
           ("Văn phòng phẩm", ("giấy", "mực in", "bìa hồ sơ", "bút", "nhãn")),
           ("Vệ sinh", ("lau sàn", "lau kính", "nhà vệ sinh", "thu gom rác"))),
    "ja": (("入院", ("日額", "手術", "集中治療", "通院", "救急搬送")),
           ("外来", ("診察", "検査", "リハビリ", "薬剤")),
           ("歯科", ("定期検診", "充填", "クラウン", "矯正")),
           ("出産", ("妊婦健診", "分娩", "産後ケア")),
           ("事務用品", ("用紙", "トナー", "ファイル", "ボールペン", "ラベル")),
           ("清掃", ("床清掃", "窓清掃", "衛生設備", "廃棄物処理"))),
}
GROUP_NAME = {"en": ("Benefit", "Category", "Section"), "de": ("Leistung", "Bereich", "Gruppe"),
              "hu": ("Szolgáltatás", "Kategória", "Csoport"), "vi": ("Quyền lợi", "Nhóm", "Danh mục"),
              "ja": ("区分", "分類", "項目")}
ITEM_NAME = {"en": ("Item", "Service", "Detail"), "de": ("Position", "Art", "Einzelheit"),
             "hu": ("Tétel", "Megnevezés", "Részlet"), "vi": ("Hạng mục", "Nội dung", "Chi tiết"),
             "ja": ("内容", "品目", "明細")}
DESCRIPTION_NAME = {"en": ("Description", "Scope of service", "Details"),
                    "de": ("Beschreibung", "Leistungsumfang", "Erläuterung"),
                    "hu": ("Leírás", "Szolgáltatás tartalma", "Megjegyzés"),
                    "vi": ("Mô tả", "Phạm vi dịch vụ", "Diễn giải"),
                    "ja": ("内容", "摘要", "仕様")}
SPAN_WORDS = {"en": ("n/a", "included", "not covered", "on request"),
              "de": ("entfällt", "inklusive", "nicht versichert", "auf Anfrage"),
              "hu": ("nincs", "benne foglaltatik", "nem fedezett", "igény szerint"),
              "vi": ("không áp dụng", "đã bao gồm", "không chi trả", "theo yêu cầu"),
              "ja": ("対象外", "込み", "補償なし", "別途見積")}
# a description is an action on an object, then zero to two qualifiers
ACTIONS = {
    "en": ("Annual inspection of", "Replacement of", "Supply and installation of", "Cleaning of",
           "Repair of", "Delivery of", "Calibration of", "Monthly maintenance of"),
    "de": ("Jährliche Prüfung der", "Austausch der", "Lieferung und Montage der", "Reinigung der",
           "Instandsetzung der", "Lieferung der", "Kalibrierung der", "Monatliche Wartung der"),
    "hu": ("Éves felülvizsgálat:", "Csere:", "Szállítás és beépítés:", "Tisztítás:", "Javítás:",
           "Kiszállítás:", "Kalibrálás:", "Havi karbantartás:"),
    "vi": ("Kiểm tra hằng năm", "Thay thế", "Cung cấp và lắp đặt", "Vệ sinh", "Sửa chữa",
           "Giao hàng", "Hiệu chuẩn", "Bảo trì hằng tháng"),
    "ja": ("年次点検", "交換", "納入及び設置", "清掃", "修理", "配送", "校正", "月次保守"),
}
OBJECTS = {
    "en": ("the cooling system", "all fire doors", "the main switchboard", "LED ceiling lights",
           "the passenger lift", "ventilation filters", "the water softener", "emergency lighting",
           "the loading dock gate", "office chairs"),
    "de": ("Kühlanlage", "Brandschutztüren", "Hauptverteilung", "LED-Deckenleuchten",
           "Personenaufzüge", "Lüftungsfilter", "Enthärtungsanlage", "Notbeleuchtung",
           "Rolltore an der Rampe", "Bürostühle"),
    "hu": ("hűtőrendszer", "tűzgátló ajtók", "főelosztó", "LED mennyezeti lámpák", "személyfelvonó",
           "szellőzőszűrők", "vízlágyító", "vészvilágítás", "rakodókapu", "irodai székek"),
    "vi": ("hệ thống làm mát", "cửa chống cháy", "tủ điện chính", "đèn trần LED", "thang máy",
           "bộ lọc thông gió", "máy làm mềm nước", "đèn chiếu sáng khẩn cấp", "cổng bốc dỡ hàng",
           "ghế văn phòng"),
    "ja": ("冷却設備", "防火扉", "主配電盤", "LED天井照明", "乗用エレベーター", "換気フィルター",
           "軟水装置", "非常用照明", "荷捌き場シャッター", "事務用椅子"),
}
QUALIFIERS = {
    "en": ("including parts and labour", "at all three sites", "outside opening hours",
           "with a written test report", "as agreed in the framework contract",
           "excluding access equipment", "with disposal of old parts", "within five working days"),
    "de": ("einschließlich Material und Arbeitszeit", "an allen drei Standorten",
           "außerhalb der Öffnungszeiten", "mit schriftlichem Prüfbericht",
           "gemäß Rahmenvertrag", "ohne Hubarbeitsbühne", "mit Entsorgung der Altteile",
           "innerhalb von fünf Werktagen"),
    "hu": ("az alkatrészekkel és a munkadíjjal együtt", "mindhárom telephelyen",
           "nyitvatartási időn kívül", "írásos vizsgálati jegyzőkönyvvel", "a keretszerződés szerint",
           "emelőgép nélkül", "a régi alkatrészek elszállításával", "öt munkanapon belül"),
    "vi": ("bao gồm vật tư và nhân công", "tại cả ba địa điểm", "ngoài giờ làm việc",
           "kèm biên bản kiểm tra", "theo hợp đồng khung", "không gồm thiết bị nâng",
           "kèm thu gom linh kiện cũ", "trong vòng năm ngày làm việc"),
    "ja": ("部品代及び作業費を含む", "全3拠点", "営業時間外に実施", "点検報告書を提出",
           "基本契約に基づく", "高所作業車は別途", "撤去品の処分を含む", "5営業日以内に対応"),
}


def description(lang: str, rng: random.Random) -> str:
    """A service or product description of one to three clauses ("Replacement of all fire
    doors, including parts and labour"); Japanese without spaces ("防火扉の交換（部品代…）")."""
    act, obj = rng.choice(ACTIONS[lang]), rng.choice(OBJECTS[lang])
    quals = rng.sample(QUALIFIERS[lang], rng.randint(0, 2))
    if lang == "ja":
        return f"{obj}の{act}" + "".join(f"（{q}）" if i == 0 else f"、{q}" for i, q in enumerate(quals))
    return ", ".join([f"{act} {obj}", *quals])


def wrap_cell(text: str, measure, max_width: float) -> list[str]:
    """Lines of a cell at `max_width` (measure(text) -> points): broken at spaces, or for
    Japanese between any two characters except inside a run of Latin letters and digits
    ("LED", "5営業日" breaks before 5, never inside)."""
    if " " in text:
        tokens, sep = text.split(" "), " "
    else:
        tokens, sep = [], ""
        for ch in text:
            if tokens and ch.isascii() and ch.isalnum() and tokens[-1][-1:].isascii() and tokens[-1][-1:].isalnum():
                tokens[-1] += ch
            else:
                tokens.append(ch)
    return greedy_lines(tokens, sep, lambda line: measure(line) > max_width,
                        lambda tok: tok not in "、。）")  # no line opens with a closing mark
