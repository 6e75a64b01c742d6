"""Which language a scanned page is in, which Han characters it may hold, and the letters'
marks one reading lends another.

The recogniser reads marks as it reads glyphs, carelessly at scan resolution: a page's language
is told from the letters only it writes (`guess_language`), a Japanese reading keeps to the Han
forms the configured languages write (`han_allowed`), and where a second engine reads a page
again, its marks go onto the first reading's letters (`adopt_marks`, `restore_marks`).
"""

from __future__ import annotations

import difflib
import unicodedata

from rowkeeper.glyphs import is_cjk

# letters only Vietnamese writes among the languages read here: đ, ơ, ư, ă (and the breve
# read as a caron), and the precomposed tone-marked vowels of Latin Extended Additional
_VIETNAMESE = frozenset("đĐơƠưƯăĂǎǍ") | frozenset(chr(c) for c in range(0x1EA0, 0x1EFA))
# letters with a double acute: only Hungarian writes them among the languages read here (a
# recogniser that reads some as ö, ü still reads the others: "fő", "első", "idő")
_HUNGARIAN = frozenset("őŐűŰ")


def guess_language(texts: list[str], min_share: float = 0.01, min_count: int = 3, read: float = 1.0) -> str | None:
    """The language a page's recognised text is in, where its letters tell: `vi` (letters only
    Vietnamese uses), `ja` (kana or CJK ideographs); None when nothing tells (Latin script).

    Read from a first recognition pass: a recogniser that lacks a script's letters still
    reads the ones it has (RapidOCR's dictionary has đ, ơ, ư but not ộ or ệ). `read`: the share
    of the page's text (by line width) `texts` are; below 1 the answer is one the rest could not
    overturn were it as dense in letters and held none of the script's (None: not told yet)."""
    letters = [ch for t in texts for ch in t if ch.isalpha()]
    if not letters:
        return None
    total = len(letters) / min(max(read, 1e-6), 1.0)
    viet = sum(ch in _VIETNAMESE for ch in letters)
    cjk = sum(is_cjk(ch) for ch in letters)
    if viet >= min_count and viet >= min_share * total:
        return "vi"
    # Vietnamese letters in the unread part would win over these: settled only once all is read
    if cjk >= min_count and cjk >= min_share * total and read >= 1.0:
        return "ja"
    hungarian = sum(ch in _HUNGARIAN for ch in letters)
    if hungarian >= min_count and hungarian >= min_share * total and read >= 1.0:
        return "hu"
    return None


# The Han characters each language writes, as the codec of its national standard holds them;
# None: any Han character (Chinese, Korean hanja). Japanese: JIS X 0208's 6,355 kanji (Shift_JIS),
# the set Japanese print is written in. JIS X 0213's additions are rare forms, and among them are
# Chinese simplified ones (壳, 减) that a recogniser trained mostly on Chinese reads for 売, 減.
_HAN_SETS: dict[str, str | None] = {"ja": "shift_jis", "zh": None, "ko": None}


def is_han(ch: str) -> bool:
    """Whether `ch` is a CJK ideograph (kana, punctuation and full-width forms are not)."""
    return unicodedata.name(ch, "").startswith("CJK UNIFIED IDEOGRAPH") or \
        unicodedata.name(ch, "").startswith("CJK COMPATIBILITY IDEOGRAPH")


def han_allowed(ch: str, languages: tuple[str, ...]) -> bool:
    """Whether a Han character belongs to one of `languages` (always, when none of them writes Han).

    A multilingual recogniser trained mostly on Chinese reads a Japanese 単 as the simplified
    单, which no Japanese text uses: the languages the user configured say which forms exist."""
    han = [lang for lang in languages if lang in _HAN_SETS]
    if not han or not is_han(ch):
        return True
    for lang in han:
        codec = _HAN_SETS[lang]
        if codec is None:
            return True
        try:
            ch.encode(codec)
            return True
        except UnicodeEncodeError:
            continue
    return False


def _base(ch: str) -> str:
    """A letter without its marks (đ counts as d with a mark)."""
    if ch in "đĐ":
        return "d" if ch == "đ" else "D"
    return "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))


def adopt_marks(text: str, hint: str) -> str:
    """`text` with the marks another reading of the same words (`hint`, by a recogniser trained
    for the page's language) puts on letters both readings mark: RapidOCR reads Hungarian
    "Működési" as "Müködési" and "fő" as "fö", Tesseract's `hun` pack reads the double acutes.
    Only a mark for a mark: a letter one reading leaves bare keeps the first reading (Tesseract
    adds acutes that are not there, "áz" for "az", as often as RapidOCR drops them). Words are
    aligned by their letters without marks, so a speck the other reading took for a word does
    not matter; a word whose letters differ keeps the first reading."""
    a, b = unicodedata.normalize("NFC", text).split(" "), unicodedata.normalize("NFC", hint).split(" ")
    out = list(a)
    bare = difflib.SequenceMatcher(None, [_bare(w) for w in a], [_bare(w) for w in b], autojunk=False)
    for block in bare.get_matching_blocks():
        for k in range(block.size):
            x, y = a[block.a + k], b[block.b + k]
            if len(x) == len(y):
                out[block.a + k] = "".join(q if p != _base(p) and q != _base(q) else p
                                           for p, q in zip(x, y, strict=True))
    return " ".join(out)


def _bare(word: str) -> str:
    return "".join(_base(ch) for ch in word)


def restore_marks(text: str, hint: str) -> str:
    """`text` with the marks another reading of the same words (`hint`) saw on letters `text`
    reads plain: Tesseract `vie` drops the horn and stroke of a bold "Đơn" ("Don") that
    RapidOCR, whose dictionary has đ, ơ, ư, ă, reads. Only where the two readings spell the
    same letters; a mark `text` has is never changed or removed."""
    a, b = unicodedata.normalize("NFC", text), unicodedata.normalize("NFC", hint)
    if len(a) != len(b) or a == b or any(_base(x) != _base(y) for x, y in zip(a, b, strict=True)):
        return text
    return "".join(y if x == _base(x) and len(_base(x)) == 1 else x for x, y in zip(a, b, strict=True))
