"""What a table caption's text reads like (`Table 3 …`, `表2 …`, `1. táblázat …`) and a
continuation's mark (`(continued)`, `（続き）`): read by the transforms that place captions and
by the tagged layer, which takes a paragraph set next to a Table element as its caption when
it reads as one."""

from __future__ import annotations

import re

CAPTION = re.compile(
    r"^(?:(?:table|exhibit|tab\.|tabelle|tableau|tabla|tabella|tabel|tabulka|bảng|biểu|표)\s*[:：]?\s*"
    r"(?:[\d０-９]+(?:[.\-][\d０-９]+)*|(?-i:[IVXLC]+|[A-Z]\d*))(?=[\s.:：)\-]|$)"
    r"|(?:表|図表)\s*[\d０-９]+(?:[\-－.][\d０-９]+)?"
    r"|[\d]+(?:\.\d+)*\.?\s*(?:táblázat|tabelle)"
    r"|(?:tábla|táblázat)\s*\d+)",
    re.I,
)
CONTINUED = re.compile(
    r"continued|\bcont(?:'d|\.|inued)|続き|続く|つづき|fortsetzung|forts\.|folytatás|"
    r"tiếp theo|\(tt\)|\(suite\)|continuación",
    re.I,
)


def is_caption(text: str) -> bool:
    """Whether a line reads like a table caption ('Table 3 …', '表2 …', '1. táblázat …')."""
    return bool(CAPTION.match(text.strip()))


def is_caption_label(text: str) -> bool:
    """Whether a line is a caption's label alone, its title set elsewhere ('Table 18.',
    'Table 2:', 'Table A-1 –'): nothing but punctuation after the label."""
    m = CAPTION.match(text.strip())
    return bool(m) and not text.strip()[m.end():].strip(" .:：-–—)")


def is_continued(text: str) -> bool:
    """Whether a caption marks a continuation ('Table 5 (continued)', '表2（続き）')."""
    return bool(CONTINUED.search(text))
