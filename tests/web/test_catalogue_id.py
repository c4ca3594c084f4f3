"""The Indonesian catalogues read as Indonesian, with the glossary of docs/web.md as the referee.

No browser: the catalogues are read as data (an ES module whose default export is an object of
string literals). No English is left in an Indonesian text but the glossary's loanwords, each
where its row allows; no word the glossary rules out appears; undo, cancel and void keep one word
each ("Urungkan", "Batalkan", "batal"); a round is a "ronde" wherever the English says round.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from baccarat.web import STATIC_DIR

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY_HEADING = "## Bahasa Indonesia: glossary"
#: Each pair of catalogues: the English original and its Indonesian.
PAIRS = {
    "page": STATIC_DIR / "js" / "messages",
    "admin": STATIC_DIR / "js" / "admin" / "messages",
    "studio": STATIC_DIR / "js" / "studio" / "messages",
}
PLACEHOLDER = re.compile(r"\{\w+\}")
#: Inline code and file names are not language: `baccarat verify`, record.json, docs/integrity.md.
CODE = re.compile(r"`[^`]*`|\S+[./]\w+(?:\.\w+)*")
WORD = re.compile(r"[A-Za-z]+")
BRACKETS = re.compile(r"\([^)]*\)")

#: Common English words an Indonesian text must not hold (none of them an Indonesian word too:
#: "main", "data", "total", "status", "no" are left out on purpose).
ENGLISH_TEXT = """
    the an and or of to in on at by for from with without into onto is are was were be been
    has have had it its this that these those there here not yes you your yours me we our they
    their he she his her will would can cannot could may must should all any each every some
    none new old last next first now then when where who what why how only more less than too
    very just again also please go done
    bet bets betting stake stakes staked round rounds coup coups table tables win wins won
    winner lose loses lost loss tie ties push pushes pushed pair pairs perfect either hand hands
    card cards deal deals dealt dealing draw draws drawn stand stands burn burned shuffle
    shuffled shuffling deck decks cut face up down third payout payouts pays paid odds commission
    house edge seat guest guests play playing played lobby history rules rule limit limits
    balance deposit deposits withdraw withdrawn account login logout logged sign password
    username session break breaks reality check time hour hours minute minutes second seconds
    day days week weeks month months year years min max mnt dtk md sec secs cancel cancelled
    undo undone clear rebet double confirm close closed open opened back office staff refresh
    find search show hide copy copied download export verify verified failed error refused
    wrong road roads bead plate big small eye boy cockroach pig ask asks scoreboard seed seeds
    commitment digest record records chain anchor report reports turnover revenue gross
    theoretical integrity alert alerts void voided settled settle pending used left ready save
    saved remove set change changed money welcome thanks thank continue leave watch watching
    join take place placed beacon randomness game games shoes players bankers result results
    recent streak streaks longest current sound sounds settings laid strip shift shifts
    """
ENGLISH = frozenset(ENGLISH_TEXT.split())


# ---- reading the catalogues and the glossary ------------------------------------------------


def load_catalogue(path: Path) -> dict[str, Any]:
    """An ES module's default export of string literals (and plural objects), as a dict."""
    source = path.read_text(encoding="utf-8")
    body = source[source.index("export default") + len("export default") :].strip().rstrip(";")
    out: list[str] = []
    i = 0
    while i < len(body):
        if body[i] == '"':
            j = i + 1
            while body[j] != '"':
                j += 2 if body[j] == "\\" else 1
            out.append(body[i : j + 1])
            i = j + 1
        elif body.startswith("//", i):
            i = body.index("\n", i)
        elif body[i].isalpha():
            name = re.match(r"\w+", body[i:])
            assert name is not None
            out.append(json.dumps(name.group()))
            i += name.end()
        else:
            out.append(body[i])
            i += 1
    found: dict[str, Any] = json.loads(re.sub(r",(\s*[}\]])", r"\1", "".join(out)))
    return found


def texts(message: Any) -> list[str]:
    """A message's texts: itself, or each of its plural forms."""
    return [message] if isinstance(message, str) else list(message.values())


def glossary_tables() -> list[list[list[str]]]:
    """The rows (cells) of each table in the glossary section of docs/web.md."""
    doc = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    start = doc.index(GLOSSARY_HEADING)
    end = doc.find("\n## ", start + len(GLOSSARY_HEADING))
    tables: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in doc[start : end if end >= 0 else None].splitlines():
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif rows:
            tables.append(rows[1:])
            rows = []
    if rows:
        tables.append(rows[1:])
    return tables


def ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def loanwords() -> dict[str, str]:
    """Each loanword of the glossary and where it may stand: "everywhere" or "in brackets"."""
    terms, kept = glossary_tables()
    del terms
    found = {word: row[1] for row in kept for word in ticked(row[0])}
    assert set(found.values()) <= {"everywhere", "in brackets"}, found
    return found


def ruled_out() -> dict[str, str]:
    """Each word the glossary rules out, and the word to use instead."""
    terms, _kept = glossary_tables()
    return {word: row[0] for row in terms for word in ticked(row[2])}


def phrase(words: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(words)}(?![\w-])", re.IGNORECASE)


def english_left(text: str, kept: dict[str, str]) -> list[str]:
    """The English words of an Indonesian text, the glossary's loanwords left out."""
    text = CODE.sub(" ", PLACEHOLDER.sub(" ", text))
    # Longest first: "Live Baccarat" before "live".
    for word in sorted(kept, key=len, reverse=True):
        pattern = phrase(word)
        if kept[word] == "everywhere":
            text = pattern.sub(" ", text)
        else:
            text = BRACKETS.sub(lambda m: pattern.sub(" ", m.group()), text)  # noqa: B023
    return [w for w in WORD.findall(text) if w.lower() in ENGLISH]


def catalogue_pairs() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    return [
        (name, load_catalogue(folder / "en.js"), load_catalogue(folder / "id.js"))
        for name, folder in PAIRS.items()
    ]


def indonesian_texts() -> list[tuple[str, str, str]]:
    """(key, English text, Indonesian text) of every message and plural form."""
    found: list[tuple[str, str, str]] = []
    for _name, en, id_ in catalogue_pairs():
        for key, message in id_.items():
            english = " ".join(texts(en.get(key, "")))
            found.extend((key, english, text) for text in texts(message))
    return found


# ---- the tests -------------------------------------------------------------------------------


def test_the_reader_reads_every_key() -> None:
    for name, en, id_ in catalogue_pairs():
        folder = PAIRS[name]
        keys = re.findall(r'^\s*"([\w.-]+)":', (folder / "id.js").read_text(encoding="utf-8"), re.M)
        assert sorted(keys) == sorted(id_), name
        assert len(en) > 100 and set(en) == set(id_), name


def test_the_glossary_is_there_and_parsed() -> None:
    kept = loanwords()
    assert {"Player", "Banker", "shoe", "Squeeze", "Live Baccarat", "Big Road"} <= set(kept)
    assert kept["seed"] == "in brackets"
    out = ruled_out()
    assert {"putaran", "kantor belakang", "mnt", "dtk"} <= set(out)
    # A loanword is there on purpose: every one is either English kept or a name, never a word
    # the glossary rules out.
    assert not {word.lower() for word in kept} & {word.lower() for word in out}


def test_no_english_word_is_left_in_an_indonesian_text() -> None:
    kept = loanwords()
    left = {
        (key, text): words
        for key, _english, text in indonesian_texts()
        if (words := english_left(text, kept))
    }
    assert left == {}


def test_an_indonesian_text_equal_to_its_english_is_only_names_and_symbols() -> None:
    kept = loanwords()
    for key, english, text in indonesian_texts():
        if text.lower() != english.lower():
            continue
        rest = CODE.sub(" ", PLACEHOLDER.sub(" ", text))
        for word in sorted(kept, key=len, reverse=True):
            rest = phrase(word).sub(" ", rest)
        assert [w for w in WORD.findall(rest) if len(w) > 1] == [], (key, text)


def test_no_word_the_glossary_rules_out() -> None:
    out = ruled_out()
    found = [
        (key, word, text)
        for key, _english, text in indonesian_texts()
        for word in out
        if phrase(word).search(CODE.sub(" ", PLACEHOLDER.sub(" ", text)))
    ]
    assert found == []


BATAL = re.compile(r"\bbatal\b", re.IGNORECASE)
BATAL_ROOT = re.compile(r"\b(?:di|mem|pem)?batal(?:kan|an)?\b", re.IGNORECASE)
URUNG_ROOT = re.compile(r"\b(?:di|meng)?urung(?:kan)?\b", re.IGNORECASE)


def test_undo_cancel_and_void_have_one_word_each() -> None:
    """ "Urungkan" undoes a chip, "Batalkan" cancels, and "batal" is only a voided round."""
    for key, english, text in indonesian_texts():
        said = english.lower()
        if BATAL.search(text):
            assert "void" in said, (key, text)
        if BATAL_ROOT.search(text):
            assert "void" in said or "cancel" in said, (key, text)
        if URUNG_ROOT.search(text):
            assert "undo" in said or "undone" in said or "undo" in key, (key, text)
    pairs = catalogue_pairs()
    for _name, en, id_ in pairs:
        for key, message in en.items():
            if key.endswith((".undo", ".cancel", ".double")) and isinstance(message, str):
                word = {"undo": "Urungkan", "cancel": "Batalkan", "double": "Gandakan"}
                assert id_[key] == word[key.rsplit(".", 1)[1]], key
            if key.endswith(("undo_label", "double_label")):
                assert id_[key].startswith(("Urungkan", "Gandakan")), key


ROUND = re.compile(r"\brounds?\b", re.IGNORECASE)


@pytest.mark.parametrize("name", list(PAIRS))
def test_a_round_is_a_ronde(name: str) -> None:
    en = load_catalogue(PAIRS[name] / "en.js")
    id_ = load_catalogue(PAIRS[name] / "id.js")
    missing = [
        key
        for key, message in en.items()
        if any(ROUND.search(PLACEHOLDER.sub(" ", text)) for text in texts(message))
        and not all("ronde" in text.lower() for text in texts(id_[key]))
    ]
    assert missing == []


def test_the_checks_catch_what_they_look_for() -> None:
    """Each check finds a leftover of the kind it is for (so a pass means something)."""
    kept = loanwords()
    assert english_left("Ambil kursi untuk bet", kept) == ["bet"]
    assert english_left("Kantor belakang · back office", kept) == ["back", "office"]
    assert english_left("Seed server", kept) == ["Seed"]
    assert english_left("kode acak (seed) untuk Player di shoe {shoe}", kept) == []
    assert english_left("Pasangan Player, Player Pair", kept) == ["Pair"]
    assert english_left("Unduh record.json atau `baccarat verify`", kept) == []
    assert phrase("putaran").search("Putaran 12") and not phrase("Ganda").search("Gandakan")
    assert BATAL.search("Ronde batal") and not BATAL.search("Batalkan")
