"""The zoo corpus: which documents exist, their split, and writing them with their truth.

Document k of a family gets its seed from a hash of (family, k), so a document never changes
when families are added. Half of each family's documents are dev and half test (k even/odd
after a hashed shuffle), with independent draws; languages rotate so each split holds every
language in every family.

A second seed range (documents PER_FAMILY .. 2*PER_FAMILY-1 of each family) forms two more
splits drawn the same way: **dev2**, a fresh draw to check that a rule tuned on dev holds on
documents it was not tuned on (tunable, like dev), and **holdout**, measured like test (only at
the start and end of a piece of work, never inspected case by case). Neither changes the
documents of dev and test.

A third range (documents 2*PER_FAMILY .. 3*PER_FAMILY-1, all of them, so twice dev) is **dev3**, tunable
only: once dev and dev2 were read right almost everywhere, a rule tuned on them had nothing left
to learn from, and helpers drew such documents from unused seeds on their own. It is generated
only when asked for (`--split dev3`; not part of `every`), so the figures of the four splits and
the time of a full run stay as they were. A fourth range (**dev4**, 3*PER_FAMILY ..
4*PER_FAMILY-1, all of them) was added the same way once dev3 read .990 recall and names: each
tune-only split is generated only when named. A fifth (**dev5**) was added when dev4 had been
tuned on by a round of fixes: its first run, before anyone tunes on it, says how the round's
rules hold on a draw they never saw; it is tunable from then on. A sixth (**dev6**) was added
the same way once dev5 had been tuned on (2026-12-03), a seventh (**dev7**) once dev6 had, an eighth (**dev8**) once dev7 had, a ninth
(**dev9**) once dev8 had, a tenth (**dev10**) once dev9 had, an
eleventh (**dev11**) once dev10 had, a twelfth (**dev12**) once dev11 had, a thirteenth
(**dev13**) once dev12 had, a fourteenth (**dev14**) once dev13 had, a fifteenth (**dev15**) once
dev14 had, a sixteenth (**dev16**) once dev15 had, a seventeenth (**dev17**) once dev16
had, an eighteenth (**dev18**) once dev17 had, a nineteenth (**dev19**) once dev18 had, a
twentieth (**dev20**) once dev19 had, a twenty-first (**dev21**) once dev20 had, a
twenty-second (**dev22**) once dev21 had, a twenty-third (**dev23**) once dev22 had, and a twenty-fourth (**dev24**) once dev23 had.

Families are appended at the end of FAMILIES, never inserted: a document's language follows its
family's index and its seed the family's name, so an appended family adds documents to every
split (dev, test, dev2, holdout and each tune-only draw) and changes none already there, and
GENERATOR_VERSION stays. Three were appended after v10 for what business tables show and the
first 17 never drew (bench/zoo/cell_families.py): **merged_cells** (body cells merged down over
2-4 rows or across the amounts; truth repeats the text into every slot it covers, as the
CONTRACT reads a merged cell), **wrapped_body** (descriptions over 2-4 lines in their cell;
truth one string, lines joined as every multi-line cell of the zoo is) and **group_rows**
(category label rows between body rows). `python bench/zoo_unchanged.py --base REV` checks that
the older families' PDFs and truth are byte for byte what REV wrote.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from bench.zoo.content import LANGS
from bench.zoo.doc import Builder, TruthDoc
from bench.zoo.families import FAMILIES
from bench.zoo.fonts import pick_face

PER_FAMILY = 18
LAST_DRAW = 24  # devN of the latest draw: add one when a round has tuned on the one before
TUNE_ONLY = tuple(f"dev{i}" for i in range(3, LAST_DRAW + 1))  # splits `every` leaves out: asked for by name
SPLITS = ("dev", "test", "dev2", "holdout", *TUNE_ONLY)
GENERATOR_VERSION = "10"  # bump when a change alters documents already generated


def seed_of(family: str, k: int) -> int:
    """A stable 32-bit seed for document k of a family."""
    return int(hashlib.sha256(f"zoo:{family}:{k}".encode()).hexdigest()[:8], 16)


def plan(per_family: int = PER_FAMILY, extra: bool = False,
         tune_only: tuple[str, ...] = ()) -> list[TruthDoc]:
    """Every document of the zoo (truth skeletons: name, family, language, split, seed): dev
    and test; with `extra`, also dev2 and holdout from the second seed range; each tune-only
    split named in `tune_only` (dev3 .. dev24) from its own further range, all of it tunable."""
    ranges = [(0, per_family, ("dev", "test"))]
    ranges += [(per_family, per_family, ("dev2", "holdout"))] if extra else []
    ranges += [((2 + i) * per_family, per_family, (name, name))
               for i, name in enumerate(TUNE_ONLY) if name in tune_only]
    docs = []
    for first, count, (even, odd) in ranges:
        for f, family in enumerate(FAMILIES):
            order = sorted(range(first, first + count), key=lambda k: seed_of(family, k))
            for rank, k in enumerate(order):
                lang = LANGS[(rank // 2 + f) % len(LANGS)]
                docs.append(TruthDoc(doc=f"{family}-{k:02d}-{lang}", family=family, lang=lang,
                                     split=even if rank % 2 == 0 else odd, seed=seed_of(family, k)))
    return docs


def build(truth: TruthDoc) -> bytes:
    """Write one document; fills in its truth tables and page count."""
    rng = random.Random(truth.seed)
    setup_of, write = FAMILIES[truth.family]
    setup = setup_of(rng)
    sizes = (14.0, 16.0, 18.0) if truth.family == "slide" else (8.0, 8.5, 9.0, 9.5, 10.0, 11.0)
    face = pick_face(truth.lang, rng, sizes)
    b = Builder(truth, rng, setup, face)
    write(b)
    return b.finish()


def materialize(docs: list[TruthDoc], out: Path) -> list[TruthDoc]:
    """Write the documents' PDFs and truth to `out` (reused when already there)."""
    out.mkdir(parents=True, exist_ok=True)
    stamp = out / "VERSION"
    if not stamp.exists() or stamp.read_text() != GENERATOR_VERSION:
        for p in out.glob("*.json"):
            p.unlink()
        stamp.write_text(GENERATOR_VERSION)
    result = []
    for d in docs:
        pdf, truth_file = out / f"{d.doc}.pdf", out / f"{d.doc}.json"
        if pdf.exists() and truth_file.exists():
            result.append(TruthDoc(**_load(truth_file)))
            continue
        pdf.write_bytes(build(d))
        truth_file.write_text(json.dumps(d.to_json(), ensure_ascii=False))
        result.append(d)
    return result


def _load(path: Path) -> dict:
    from bench.zoo.doc import TruthTable

    data = json.loads(path.read_text())
    data["tables"] = [TruthTable(**t) for t in data["tables"]]
    return data
