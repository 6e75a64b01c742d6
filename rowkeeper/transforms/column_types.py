"""Locale-aware cell parsing and per-column type inference.

A cell parses to a kind (`integer`, `decimal`, `percent`, `currency`, `date`, `text`, `empty`)
and, for numeric kinds, a float. Whether `.` or `,` is the decimal mark is decided per column
from the column's own evidence (`12,5` or `1.234,5` settle it), else from a document-level
default (other columns' evidence, then the language of the page text): `1.234` in a German
document is one thousand two hundred thirty-four.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from rowkeeper.models import ColumnType

DecimalMark = Literal[".", ","]

# Cells that mean "no value" in business tables; they do not count against a column's type.
PLACEHOLDERS = frozenset({"-", "–", "—", "―", "−", "--", "n/a", "na", "n.a.", "nil", "none",
                          "*", "…", "...", "x", "/", "—/—", "ー", "－", "null", "k.a.", "nd"})
_CURRENCY_SYMBOLS = "$€£¥₫₩₹₽₺₴₪฿"
_CURRENCY_WORDS = ("eur", "usd", "jpy", "huf", "vnd", "gbp", "chf", "cny", "rmb", "krw", "sek",
                   "nok", "dkk", "pln", "czk", "ron", "aud", "cad", "sgd", "hkd", "vnđ",
                   "đ", "円", "元", "万円", "千円", "百万円", "億円", "ドル", "kč", "zł", "kr",
                   "us$", "a$", "c$", "s$", "hk$", "r$", "dm", "fr.")
_CURRENCY_RE = "|".join(sorted((re.escape(w) for w in _CURRENCY_WORDS), key=len, reverse=True))
_CUR_PREFIX = re.compile(rf"^(?:[{_CURRENCY_SYMBOLS}]|(?i:{_CURRENCY_RE})(?=[\s\d]))\s*")
# "Ft" (forint) only capitalised: "12 ft" is a length.
_CUR_SUFFIX = re.compile(rf"\s*(?:[{_CURRENCY_SYMBOLS}]|(?i:{_CURRENCY_RE})|Ft)$")
_NUM = re.compile(r"^\d[\d.,' ]*$|^[.,]\d+$")
_SCI = re.compile(r"^(\d+(?:[.,]\d+)?)[eE]([+-]?\d+)$")
TYPE_THRESHOLD = 0.75
"""A column is typed numeric/date when this share of its non-empty cells is; validation then
asks for `min_type_conformity` (0.9), so a 75-90% column is typed but flagged."""
_MONTHS = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
_DATE_PATTERNS = (
    re.compile(r"^(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})\.?$"),
    re.compile(r"^(?P<y>\d{4})\. ?(?P<m>\d{1,2})\. ?(?P<d>\d{1,2})\.?$"),
    re.compile(r"^(?P<d>\d{1,2})[./-](?P<m>\d{1,2})[./-](?P<y>\d{4})$"),
    re.compile(r"^(?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})日$"),
    re.compile(r"^(?P<y>\d{4})년 ?(?P<m>\d{1,2})월 ?(?P<d>\d{1,2})일$"),
    re.compile(r"^(?:ngày )?(?P<d>\d{1,2}) tháng (?P<m>\d{1,2}) năm (?P<y>\d{4})$", re.I),
    re.compile(r"^(?P<d>\d{1,2})\.? (?P<mon>[a-zäé]{3,9})\.? (?P<y>\d{4})$", re.I),
    re.compile(r"^(?P<mon>[a-z]{3,9})\.? (?P<d>\d{1,2}),? (?P<y>\d{4})$", re.I),
)
_GERMAN_MONTHS = {"jän": 1, "mär": 3, "mai": 5, "okt": 10, "dez": 12}


@dataclass(frozen=True)
class Parsed:
    """One cell's kind and number (None unless numeric)."""

    kind: ColumnType
    value: float | None = None


_NOTE_MARK = re.compile(r"(?<=[\d%])[\u00b2\u00b3\u00b9\u2070\u2074-\u2079]+$")
"""A note mark in superscript digits after a figure (`24.91²`): no digits of the figure."""


def normalize(text: str) -> str:
    """NFKC (full-width digits, nbsp/thin spaces), one space between words, stripped; a
    superscript note mark after a figure left out (NFKC would make digits of it)."""
    t = unicodedata.normalize("NFKC", _NOTE_MARK.sub("", text.rstrip())).replace("\u2212", "-").replace("\u2012", "-")
    return re.sub(r"\s+", " ", t).strip()


def _is_date(t: str) -> bool:
    for pat in _DATE_PATTERNS:
        m = pat.match(t)
        if not m:
            continue
        g = m.groupdict()
        month = int(g["m"]) if g.get("m") else _month(g.get("mon") or "")
        if 1 <= month <= 12 and 1 <= int(g["d"]) <= 31 and 1800 <= int(g["y"]) <= 2200:
            return True
    return False


def _month(name: str) -> int:
    key = name[:3].lower()
    return _MONTHS.get(key) or _GERMAN_MONTHS.get(key, 0)


def decimal_evidence(text: str) -> DecimalMark | None:
    """The decimal mark this cell proves (`12,5` -> ','; `1,234.5` -> '.'), or None if ambiguous."""
    core = _strip_decorations(normalize(text))[0]
    if core is None or not _NUM.match(core):
        return None
    dot, comma = core.rfind("."), core.rfind(",")
    if dot >= 0 and comma >= 0:
        return "." if dot > comma else ","
    sep: DecimalMark | None = "." if dot >= 0 else "," if comma >= 0 else None
    if sep is None or core.count(sep) > 1:
        return None
    head, tail = core.rsplit(sep, 1)
    head = head.replace(" ", "").replace("'", "")
    if len(tail) != 3 or head in ("", "0") or len(head) > 3:
        return sep  # not a thousands group: 12,5 / 0.125 / 1234.567
    return None


def _strip_decorations(t: str) -> tuple[str | None, bool, bool, bool]:
    """(core number text or None, negative, percent, currency) after removing signs and units."""
    neg = pct = cur = False
    if t.startswith("(") and t.endswith(")"):
        neg, t = True, t[1:-1].strip()
    if t and t[0] in "△▲":  # Japanese accounting marks for negative amounts
        neg, t = True, t[1:].strip()
    for _ in range(2):
        if t.endswith("%"):
            pct, t = True, t[:-1].strip()
        m = _CUR_SUFFIX.search(t)
        if m and m.start() > 0:
            cur, t = True, t[: m.start()].strip()
        m = _CUR_PREFIX.match(t)
        if m:
            cur, t = True, t[m.end():].strip()
        if t and t[0] in "-+":
            neg, t = neg or t[0] == "-", t[1:].strip()
    if t.startswith("(") and t.endswith(")"):
        neg, t = True, t[1:-1].strip()
    return (t or None), neg, pct, cur


def _number(core: str, mark: DecimalMark) -> tuple[float, bool] | None:
    """(value, has_fraction) for a bare number written with decimal mark `mark`, else None."""
    m = _SCI.match(core)
    if m:
        return float(m.group(1).replace(",", ".") + "e" + m.group(2)), True
    if not _NUM.match(core):
        return None
    thousands = "," if mark == "." else "."
    if core.count(mark) > 1:
        return None
    whole, _, frac = core.partition(mark)
    groups = re.split(rf"[{re.escape(thousands)} ']", whole)
    if len(groups) > 1 and (not 1 <= len(groups[0]) <= 3 or any(len(g) != 3 for g in groups[1:])):
        return None
    if not all(g.isdigit() for g in groups if g) or (frac and not frac.isdigit()):
        return None
    digits = "".join(groups) or "0"
    return float(f"{digits}.{frac}" if frac else digits), bool(frac)


@functools.lru_cache(maxsize=1 << 16)
def parse_cell(text: str, mark: DecimalMark = ".") -> Parsed:
    """Parse one cell with the column's decimal mark (memoised: tables repeat their values)."""
    t = normalize(text)
    if not t or t.lower() in PLACEHOLDERS:
        return Parsed("empty")
    if _is_date(t):
        return Parsed("date")
    core, neg, pct, cur = _strip_decorations(t)
    num = _number(core, mark) if core else None
    if num is None:
        return Parsed("text")
    value = -num[0] if neg else num[0]
    if pct:
        return Parsed("percent", value)
    if cur:
        return Parsed("currency", value)
    return Parsed("decimal" if num[1] else "integer", value)


def column_decimal_mark(cells: Sequence[str], default: DecimalMark = ".") -> DecimalMark:
    """The decimal mark a column's own cells prove by majority, else `default`."""
    votes = Counter(m for c in cells if (m := decimal_evidence(c)))
    if not votes:
        return default
    return "," if votes[","] > votes["."] else "."


def document_decimal_mark(columns: Sequence[Sequence[str]], text: str = "") -> DecimalMark:
    """A document-wide default: numeric evidence first, then the language of its text."""
    votes = Counter(m for col in columns for c in col if (m := decimal_evidence(c)))
    if votes:
        return "," if votes[","] > votes["."] else "."
    return "," if language_uses_decimal_comma(text) else "."


_COMMA_WORDS = frozenset(
    "und der die das mit für von nicht ist auf den des tabelle seite summe gesamt preis menge "
    "betrag datum anzahl és az egy nem vagy táblázat oldal összesen összeg dátum mennyiség "
    "và các của được cho với bảng trang tổng cộng ngày giá et le la les des du pour avec sur "
    "tableau montant prix y el los las para con tabla importe precio fecha een het van voor".split()
)
_DOT_WORDS = frozenset(
    "the and of to for with in on is are by from table page total amount price date this "
    "that which per at as".split()
)


def language_uses_decimal_comma(text: str) -> bool:
    """True when the text reads as German, Hungarian, Vietnamese, French... (decimal comma)."""
    markers = sum(text.count(ch) for ch in "äöüßőűăơưđạảấầẩẫậắằẳẵặẹẻẽếềểễệịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ")
    latin = sum(ch.isalpha() and ord(ch) < 0x250 for ch in text)
    words = re.findall(r"[^\W\d_]+", text.lower())
    comma = sum(w in _COMMA_WORDS for w in words)
    dot = sum(w in _DOT_WORDS for w in words)
    if comma or dot:
        return comma > dot
    return latin > 0 and markers / latin > 0.005


def column_type(kinds: Sequence[ColumnType], threshold: float) -> ColumnType:
    """The type that at least `threshold` of the non-empty cells conform to, else `text`."""
    filled = [k for k in kinds if k != "empty"]
    if not filled:
        return "empty"
    n = len(filled)
    counts = Counter(filled)
    numeric = sum(counts[k] for k in ("integer", "decimal", "percent", "currency"))
    if counts["date"] / n >= threshold:
        return "date"
    if numeric / n < threshold:
        return "text"
    for special in ("percent", "currency"):
        if counts[special] * 2 >= numeric:
            return special
    return "decimal" if counts["decimal"] else "integer"


def conforms(kind: ColumnType, col: ColumnType) -> bool:
    """Whether a cell of `kind` is acceptable in a column typed `col`."""
    if kind == "empty" or col in ("text", "empty") or kind == col:
        return True
    numeric = {"integer", "decimal", "percent", "currency"}
    return col in numeric and kind in numeric


def infer_column_types(
    rows: Sequence[Sequence[str]], threshold: float = TYPE_THRESHOLD, default_mark: DecimalMark = ".",
    across: Collection[tuple[int, int]] = (),
) -> tuple[tuple[ColumnType, ...], tuple[tuple[float | None, ...], ...]]:
    """Column types and parsed numbers (parallel to `rows`) for a body grid. `across`: the
    (row, column) slots of body cells merged across columns; their words (`included` over the
    amounts) are no value of any one column and do not vote while the column holds others."""
    n_cols = max((len(r) for r in rows), default=0)
    columns = [[r[c] if c < len(r) else "" for r in rows] for c in range(n_cols)]
    types: list[ColumnType] = []
    parsed_cols: list[list[Parsed]] = []
    for c, col in enumerate(columns):
        mark = column_decimal_mark(col, default_mark)
        parsed = [parse_cell(t, mark) for t in col]
        kinds = [p.kind for p in parsed]
        own = [k for i, k in enumerate(kinds) if k != "text" or (i, c) not in across]
        types.append(column_type(own if any(k != "empty" for k in own) else kinds, threshold))
        parsed_cols.append(parsed)
    values = tuple(
        tuple(_value(parsed_cols[c][i], types[c]) for c in range(n_cols)) for i in range(len(rows))
    )
    return tuple(types), values


def _value(p: Parsed, col: ColumnType) -> float | None:
    numeric = {"integer", "decimal", "percent", "currency"}
    return p.value if col in numeric and p.kind in numeric else None
