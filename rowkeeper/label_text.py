"""The text of a header label: cleaned as a reader reads it (line breaks and runs of spaces
collapsed, letter-spaced CJK and soft hyphens joined) and joined across the lines and rows it
was printed on (a wrapped label, a group label over its sub-labels, one name per column).

Core, so that the transforms' header code and the finders that cut labels (`finder.label_tails`)
read a label's continuation by the same rule (`continues_label`: lower case next, or a
connecting word, hyphen or slash last).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]")
_IDEOGRAPH = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""Kana and Han: scripts written without spaces (Hangul is left alone: it spaces its words)."""
_LETTER_SPACED = re.compile(
    rf"(?<![{_IDEOGRAPH}])[{_IDEOGRAPH}](?:[ \t\u3000]{{1,3}}[{_IDEOGRAPH}])+(?![{_IDEOGRAPH}])")


_OPENING = "（「『【〔［｛〈《"
_CLOSING = "）」』】〕］｝〉》、。，．：；！？"
_SPACED_PUNCT = re.compile(
    rf"(?<=[{_IDEOGRAPH}{_CLOSING}])[ \t\u3000]+(?=[{_OPENING}])"
    rf"|(?<=[{_CLOSING}])[ \t\u3000]+(?=[{_IDEOGRAPH}])")


_CJK_UNIT = re.compile(rf"(?<=[{_IDEOGRAPH}])[ \t\u3000]*([(\[])[ \t\u3000]*"
                       rf"([^()\[\]\s]{{1,8}}|[^()\[\]\s](?:[ \t\u3000][^()\[\]\s]){{1,7}})[ \t\u3000]*([)\]])")
"""A short bracketed unit after a CJK word (`予算( 千円)`, `数量 [個]`, `利益率[ % ]`), its
characters maybe letter-spaced one by one like the label's (`重量[ k g ]`)."""


_SPACED_CODE = re.compile(r"[A-Za-z0-9](?: [A-Za-z0-9])+")
"""A label letter-spaced character by character (`2 0 2 4`, `Q 1`)."""


def spaced_code(text: str) -> bool:
    """A whole cell of single letters and digits one space apart, with a digit: four digits or
    more, or a letter first (`2 0 2 4`, `Q 1`; a few figures `1 0`, `1 2 3` and a figure with
    its unit `3 g` are left alone): a year or a code printed letter-spaced like the CJK labels
    beside it."""
    chars = text.replace(" ", "")
    return bool(_SPACED_CODE.fullmatch(text)) and any(ch.isdigit() for ch in chars) and \
        (chars[0].isalpha() or (chars.isdigit() and len(chars) >= 4))


_PERIOD_LABEL = re.compile(r"(?:FY ?)?(?:19|20|21)\d\d(?:[/-]\d{2,4})?[a-z*]?|FY ?\d\d"
                           r"|(?:[QH][1-4]|[1-4][QH])(?:[/'’-]?(?:\d{2}|(?:19|20|21)\d\d))?", re.I)


def period_label(text: str) -> bool:
    """A period heading a column of figures though it reads like a figure or a code: a year or
    fiscal year (`2023`, `FY2024`, `FY24`, `2012/13`, an estimate's `2025e`), a quarter or a
    half, maybe of a year (`Q1`, `3Q`, `H2`, `Q1/24`, `Q1'24`, `1H23`). The finder's header
    lines (`finder.figure_words`) and the transforms' codes (`headers.reads_as_data`) ask it."""
    return bool(_PERIOD_LABEL.fullmatch(text.strip()))


_GLYPH = rf"(?:[^\W_{_IDEOGRAPH}\uac00-\ud7af]|[%&+./-])"  # kana, Han and Hangul: the CJK rules
_SPACED_WORD = re.compile(rf"{_GLYPH}(?: {_GLYPH}){{2,}}")
"""A label of three glyphs or more letter-spaced one by one (`c h r F`, `E N - V I`,
`P é l d á n y s z á m`): letters of any script, figures and joining marks."""


def spaced_word(text: str) -> bool:
    """A whole cell of three single letters, digits or joining marks or more one space apart,
    two of them letters (of any script: `P é l d á n y s z á m`): a label letter-spaced like
    the CJK labels beside it, or by an OCR layer that read its letters one by one (a reader
    sets a space wherever letter spacing is wider than a word space). A word of several
    letters anywhere in the cell leaves it alone (`A to B`)."""
    return bool(_SPACED_WORD.fullmatch(text)) and sum(ch.isalpha() for ch in text) >= 2


def join_letter_spacing(text: str) -> str:
    """Drop the spaces of letter-spaced CJK (`施 設 種 類` -> `施設種類`): only between single
    kana/Han characters, so words of several characters and Latin words keep their spaces; and
    a space by full-width brackets or punctuation (`金額 （千円）`), which Japanese never sets;
    and the spaces in and before a short bracketed unit after a CJK word (`予算( 千円)`); and
    those of a whole cell letter-spaced with a digit in it (`2 0 2 4`, `Q 1`) or of three
    letters or more (`c h r F`)."""
    if spaced_code(text.strip()) or spaced_word(text.strip()):
        return text.strip().replace(" ", "")
    text = _LETTER_SPACED.sub(lambda m: re.sub(r"[ \t\u3000]+", "", m.group(0)), text)
    text = _CJK_UNIT.sub(lambda m: re.sub(r"[ \t\u3000]", "", "".join(m.groups())), text)  # stray spaces
    return _SPACED_PUNCT.sub("", text)


def join_soft_hyphens(text: str) -> str:
    """Soft hyphens (U+00AD) gone: one at a line break before a lower-case letter joins the
    word's halves without a space (`Reklame\u00ad` / `teil` -> `Reklameteil`); any other is an
    invisible mark that only splits a search term (`\u00adCO2`)."""
    if "\u00ad" not in text:
        return text
    text = re.sub(r"\u00ad\s+(?=\w)", lambda m: "" if m.string[m.end()].islower() else " ", text)
    return text.replace("\u00ad", "")


def _compound_break(before: str, after: str) -> bool:
    """Whether a line break falls after the hyphen of a compound whose next part is capitalised
    (`Non-` / `Negligent` -> `Non-Negligent`): a word's hyphen, no dash set apart, and no
    hyphenation (that goes on in lower case, and is read as printed)."""
    return len(before) >= 2 and before[-1] in "-‐" and before[-2].isalpha() and after[:1].isupper()


@lru_cache(maxsize=8192)
def clean_text(text: str) -> str:
    """Collapse line breaks and runs of spaces; a line break touching a CJK character joins
    without a space ("金額" / "(千円)" -> "金額(千円)"), and so does one after a compound's
    hyphen before a capital (`Non-` / `Negligent`); letter-spaced CJK loses its spaces."""
    text = join_soft_hyphens(text)
    parts = [join_letter_spacing(p.strip()) for p in re.split(r"\s*\n\s*", text.strip()) if p.strip()]
    out = ""
    for p in parts:
        if out and not (_CJK.search(out[-1]) or _CJK.search(p[0]) or _compound_break(out, p)):
            out += " "  # no space where a line break touches a CJK character
        out += p
    return re.sub(r"[ \t\u3000]+", " ", out)


def fill_group_labels(header: Sequence[Sequence[str]], reach: bool = True) -> list[list[str]]:
    """Spread a group label rightwards over the empty slots of the sub-labels it heads.

    Used when the extractor reported no column spans: `["", "BLEU", "", "TER", ""]` over
    `["Model", "EN-DE", "EN-FR", "EN-DE", "EN-FR"]` fills BLEU and TER over both languages.
    A label that spans columns already reaches on over bare ones only with `reach`: not when
    its span came from a rule drawn under it (`UNDERLINED_SPANS`), which ends where the label does.
    """
    out = [list(r) for r in header]
    for i in range(len(out) - 1):
        row, below = out[i], out[i + 1]
        if first_lines_row(row, below):
            continue
        spanned = _spanned(row)
        for c in range(1, len(row)):
            src = c - 1
            if row[c].strip() or not below[c].strip() or not row[src].strip():
                continue
            if spanned and not (reach and src and row[src - 1] == row[src]):
                continue  # `spanners` read the row's labels where they stand: this one heads its own column
            if row[src] == below[src]:
                continue  # a label spanning down ("Model" over both rows) heads its column only
            if src and below[src - 1] == below[src] == below[c]:
                continue  # inside a lower label's span, past its start: a note (`[In thousands]`), no group over part of it
            if any(up[c].strip() and up[c] != up[src] for up in out[:i]):
                continue  # another label above heads column c: a group of a lower level stays inside its own
            if own_line(row[src], below[src], below[c]):
                continue  # the label goes on in its own column ("Concentration" / "(ppm)")
            if below[src].strip():
                row[c] = row[src]
    return out


def first_lines_row(row: Sequence[str], below: Sequence[str]) -> bool:
    """Whether each label of the row is the first line of its own column's label, carried on
    in lower case under it (`Female` / `sterilization`, `Male` / `sterilization`, `Condom/` /
    `Nirodh`): a row of stacked labels' first lines, no group labels; two such at least."""
    own = [(a, b) for a, b in zip(row, below, strict=False) if a.strip()]
    return len(own) >= 2 and all(b.strip() and continues_label(a, b) for a, b in own)


def _spanned(row: Sequence[str]) -> bool:
    """Whether a label in the row spans columns already (its text in two side by side): the
    row's labels were given the columns they head, and one left in its own column heads no
    other (a group label may still reach on over columns its sub-row left bare)."""
    return any(a.strip() and a == b for a, b in zip(row, row[1:], strict=False))


def own_line(label: str, under: str, beside: str) -> bool:
    """Whether `under` is the next line of `label` in its own column: a lone connecting word
    (`linking_line`), its unit in brackets while the text `beside` it is no unit, or the label
    breaking off after a connecting word or hyphen (`Percentage of` / `international`,
    `Under-` / `graduate`): a label stacked line by line, not a group label over the column
    beside it (`Price` over `(net)` and `(gross)` heads both; `Women` over `non-Hispanic` too)."""
    lower, other = under.strip(), beside.strip()
    return linking_line(lower) or lower.startswith("(") and not other.startswith("(") or \
        bool(lower) and breaks_off(label)


def linking_line(text: str) -> bool:
    """A line that is one connecting word (`to`, `of`, `and`): the middle of a label set a
    word a line (`Weight` / `Relative` / `to` / `Controls`), never a label of its own."""
    return bool(_LINK_WORD.fullmatch(text.strip()))


_CONNECTOR = re.compile(r"(?:[-‐–/,&+]|\b(?:and|or|of|in|for|the|to|per|by|with|from|at|on))$", re.I)


_LINK_WORD = re.compile(r"and|or|of|in|for|the|to|per|by|with|from|at|on")


def continues_line(upper: str, lower: str) -> bool:
    """Whether `lower` reads as the next line of the same label as `upper`: it starts in lower
    case, with a bracket or a currency/percent sign, or in a script without case (CJK); or
    `upper` breaks off after a hyphen, slash or connecting word ("Two or" / "more")."""
    head = lower.strip()[:1]
    return continues_label(upper, lower) or bool(head) and (head in "([$€£¥%" or bool(_CJK.match(head)))


def breaks_off(text: str) -> bool:
    """Whether a label line breaks off after a comma, hyphen, slash or connecting word
    (`American Indian/`, `Percentage of`): its next line carries it on."""
    return bool(_CONNECTOR.search(text.strip()))


def continues_label(upper: str, lower: str) -> bool:
    """Whether `lower` carries on the text `upper` as its next line: it starts in lower case
    (Latin, Greek, Cyrillic), or `upper` breaks off after a comma, hyphen, slash or connecting
    word (`Mr. Devesh Tyagi,` / `Director`)."""
    head = lower.strip()[:1]
    return bool(head) and (head.islower() or breaks_off(upper))


def _join(upper: str, lower: str) -> str:
    return clean_text(f"{upper}\n{lower}") if upper.strip() else lower


def wrapped_rows(printed: Sequence[Sequence[str]]) -> list[bool]:
    """Per header row: whether it only continues the text of the row above, as a wrapped line
    of the same cells ("In the last" over "month" -> "In the last month"). It continues when
    each of its labels sits under a label (none under an empty slot or a span's tail) and each
    visibly carries on the label above it (`continues_line`); a row with a capitalised label
    ("Indicators", a centred "Enrollment, in thousands") stays a row.

    `printed` holds each cell's text in its top-left slot only, so a group label spanning
    several columns leaves empty slots that stop the sub-labels under it from being joined.
    """
    out = [False] * len(printed)
    upper = list(printed[0]) if printed else []
    for i in range(1, len(printed)):
        lower = printed[i]
        filled = [c for c, t in enumerate(lower) if t.strip()]
        out[i] = bool(filled) and all(c < len(upper) and upper[c].strip() for c in filled) and \
            all(continues_line(upper[c], lower[c]) for c in filled)
        upper = [_join(u, lower[c]) if c < len(lower) else u for c, u in enumerate(upper)] \
            if out[i] else list(lower)
    return out


def join_rows(rows: Sequence[Sequence[str]], wrapped: Sequence[bool]) -> list[list[str]]:
    """Rows with each wrapped row joined into the row above it, cell by cell (a span's text
    repeated in both rows once)."""
    out: list[list[str]] = []
    for row, cont in zip(rows, wrapped, strict=True):
        if cont and out:
            out[-1] = [u if c >= len(row) or row[c] == u else _join(u, row[c])
                       for c, u in enumerate(out[-1])]
        else:
            out.append(list(row))
    return out


def join_wrapped_header_rows(printed: Sequence[Sequence[str]]) -> list[list[str]]:
    """Header rows as a reader sees the cells: wrapped rows (`wrapped_rows`) joined."""
    return join_rows(printed, wrapped_rows(printed))


def fold_header_rows(header: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """One name per column: the column's header texts top-down, repeats (spans) once."""
    n_cols = max((len(r) for r in header), default=0)
    names = []
    for c in range(n_cols):
        parts: list[str] = []
        for r in header:
            t = clean_text(r[c]) if c < len(r) else ""
            if t and (not parts or parts[-1] != t):
                parts.append(t)
        joined = "".join(f"{' ' if k and not _compound_break(parts[k - 1], t) else ''}{t}" for k, t in enumerate(parts))
        names.append(clean_text(joined))  # single CJK characters stacked read as one word
    return tuple(names)
