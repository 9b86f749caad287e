"""Text helpers shared by the loader, the chunker, the retriever, the faithfulness check and the
offline model: TeX accents, sentence splitting and content words.  [provided]

Run alone:  python code/textutils.py "Some text. Another sentence, e.g. this one."
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import lru_cache

from cli import run_cli

# TeX sets an accent as a glyph before its letter ("Z¨urich"); NFKC would leave a space and a loose mark.
_SPACING_ACCENTS = dict(zip("\u00a8\u00b4`\u02c6\u02dc\u02c7\u02d8\u02d9\u02da\u02dd\u00b8\u02db",
                            "\u0308\u0301\u0300\u0302\u0303\u030c\u0306\u0307\u030a\u030b\u0327\u0328"))
# An acute accent typed for an apostrophe ("company´s", "don´t") is one.
_ACUTE_APOSTROPHE = re.compile(r"(?<=[A-Za-z])\u00b4(?=(?:s|t|ll|re|ve|d|m)\b)")
# A backtick counts only inside a word ("probl`eme"): "`echo'" is an old-style quote.
_ACCENT_LETTER = re.compile(f"([{''.join(_SPACING_ACCENTS).replace('`', '')}]|(?<=[A-Za-z])`)([A-Za-z\u0131])")


def _accented(match: re.Match) -> str:
    """"¨u" -> "ü", "¨ı" -> "ï" where Unicode has that letter; else (a backtick before code) unchanged."""
    letter = unicodedata.normalize("NFC", match.group(2).replace("\u0131", "i") + _SPACING_ACCENTS[match.group(1)])
    return letter if len(letter) == 1 else match.group(0)


def tex_accents_joined(text: str) -> str:
    """"Z¨urich" -> "Zürich", "rˆole" -> "rôle", "company´s" -> "company's"."""
    return _ACCENT_LETTER.sub(_accented, _ACUTE_APOSTROPHE.sub("'", text))


# A TeX font without a Unicode map gives its codes through as they are. In Knuth's OT1 layout,
# ligatures are at 0x0B-0x0F and accents at 0x12-0x17 and 0x7F; the same codes are math symbols
# in the symbol fonts ("x \x15 y" is x >= y), so only codes inside a word, or opening one, are
# read as text. The newer T1 layout has its ligatures at 0x1B-0x1F (OT1's "œ", "ø", ...) and
# quotes at 0x10/0x11: a text is read as T1 when more of its words hold T1's ligature codes.
_TEX_LIGATURES = {"\x0b": "ff", "\x0c": "fi", "\x0d": "fl", "\x0e": "ffi", "\x0f": "ffl"}
_TEX_ACCENTS = {"\x12": "`", "\x13": "\u00b4", "\x14": "\u02c7", "\x15": "\u02d8", "\x17": "\u02da", "\x7f": "\u00a8"}
_T1_LIGATURES = {"\x1b": "ff", "\x1c": "fi", "\x1d": "fl", "\x1e": "ffi", "\x1f": "ffl"}
_T1_SIGNS = {"\x10": "\u201c", "\x11": "\u201d", "\x15": "\u2013", "\x16": "\u2014"}


def _in_words(ligatures: dict[str, str], signs: dict[str, str], between_letters: bool) -> re.Pattern:
    codes, marks = "".join(ligatures), "".join(signs)
    return re.compile(f"(?<=[A-Za-z])([{codes}])|([{codes}])(?=[a-z]{{2}})|"
                      + (f"(?<=[A-Za-z])([{marks}])(?=[A-Za-z])" if between_letters else f"([{marks}])"))


_TEX_CODE = _in_words(_TEX_LIGATURES, _TEX_ACCENTS, between_letters=True)
_T1_CODE = _in_words(_T1_LIGATURES, _T1_SIGNS, between_letters=False)


def _ligatures(pattern: re.Pattern, text: str) -> int:
    return sum(m.group(3) is None for m in pattern.finditer(text))


def tex_font_codes_read(text: str) -> str:
    """"speci\x0ced" -> "specified", "\x0cle" -> "file", "E\x13en" -> "E´en" (tex_accents_joined:
    "Eén"); in a T1 text, "scienti\x1cc" -> "scientific"."""
    t1 = any(code in text for code in _T1_LIGATURES) and _ligatures(_T1_CODE, text) > _ligatures(_TEX_CODE, text)
    pattern, ligatures, signs = (_T1_CODE, _T1_LIGATURES, _T1_SIGNS) if t1 else (_TEX_CODE, _TEX_LIGATURES, _TEX_ACCENTS)
    return pattern.sub(lambda m: ligatures.get(m.group(1) or m.group(2)) or signs[m.group(3)], text)


MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
# A month's short forms: "Feb", and "Sept" beside "Sep".
MONTH_ABBREVIATIONS = tuple(m[:3] for m in MONTHS if m != "may") + ("sept",)
# A full stop after one of these does not end a sentence.
_ABBREVIATIONS = {
    "e.g", "i.e", "etc", "vs", "mr", "mrs", "ms", "dr", "prof", "inc", "ltd", "co", "corp", "st", "no", "fig",
    "approx", "dept", "est", "al", "cf", "p", "pp", "vol", "ca", *MONTH_ABBREVIATIONS,
}
# These abbreviate only before a number ("No. 5", "Fig. 3"); before a word they are words.
_BEFORE_A_NUMBER = {"no", "fig", "vol", "pp"}
# A sentence ends at . ! ? before a capital, a digit or a list bullet, and a colon ends one
# before a bullet ("you may: - Sail ...").
_BOUNDARY = re.compile(r"[.!?][\"')\]]*(?=\s+(?:[-*\u2022\u2013]\s+)?[\"'(\[]?[A-Z0-9])"
                       r"|:(?=\s+[-*\u2022\u2013]\s+\S)")
PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
# "1 . 0": a decimal point spaced out like the rest of a code listing in a monospaced font.
_SPACED_POINT = re.compile(r"\d \. \d")
# ". . .": TeX's spaced ellipsis, one mark; its last dot ends no sentence ("A . . . Z", "0 . . . 9").
_SPACED_ELLIPSIS = re.compile(r"\. \. \.")
# A sentence that is only a section or item number so far ("3." in "3. Setting Up") goes on.
_ENUMERATOR = re.compile(r"\s*\(?(?:\d{1,3}(?:\.\d{1,3})*|[A-Za-z])\.$")


def _ends_with_abbreviation(text: str, dot: int) -> bool:
    start = dot  # the word before the dot, read backwards: a search from the text's start made
    while start and not text[start - 1].isspace():  # splitting a paragraph quadratic in its length
        start -= 1
    if start == dot:
        return False
    w = text[start:dot].lower().lstrip("(\"'[")
    if w in _BEFORE_A_NUMBER:  # "No. 5" goes on; "Answer Yes or No. Margin was 21%." ends
        return text[dot + 1:dot + 12].lstrip()[:1].isdigit()
    # Single letters and dotted initials ("U.S", "J") are abbreviations, not sentence ends.
    return w in _ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.)*[a-z]", w) is not None


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) character spans of the sentences of `text`, whitespace trimmed.
    Paragraph breaks (blank lines) always end a sentence."""
    spans: list[tuple[int, int]] = []
    para_start = 0
    for para_end in [m.start() for m in PARAGRAPH_BREAK.finditer(text)] + [len(text)]:
        start = para_start
        for m in _BOUNDARY.finditer(text, para_start, para_end):
            if text[m.start()] == "." and (_ends_with_abbreviation(text, m.start())
                                           or _ENUMERATOR.match(text, start, m.start() + 1)
                                           or _SPACED_POINT.match(text, m.start() - 2)
                                           or _SPACED_ELLIPSIS.match(text, m.start() - 4)):
                continue
            spans.append((start, m.end()))
            start = m.end()
        spans.append((start, para_end))
        para_start = para_end
    trimmed = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            trimmed.append((s, e))
    return trimmed


_STATEMENT_VERBS = {"is", "was", "are", "were", "has", "have", "had", "will", "would", "can",
                    "could", "be", "been", "does", "did"}


def is_title_case(line: str) -> bool:
    """Like a heading: most words capitalised ("Quarterly Report: Overview and Outlook") and no
    verb that makes a statement ("Operating income was 0.88M EUR." and "Dr. Anna Weber is CFO."
    are sentences). Numbers count neither way."""
    words = [w for w in line.split() if w[0].isalpha()]
    if len(words) < 2 or any(w.lower().strip(".,:;") in _STATEMENT_VERBS for w in words):
        return False
    return sum(w[0].isupper() for w in words) >= 0.7 * len(words)


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, each with its inner whitespace collapsed to single spaces."""
    return [" ".join(text[s:e].split()) for s, e in sentence_spans(text)]


# ------------------------------------------------------------------------- content words

STOPWORDS = set("""a an the and or but if then than of to in on at by for with from into onto over
under about as is are was were be been being am do does did doing have has had having it its it's
this that these those there here their them they he she him her his hers we our us you your i me my
what which who whom whose when where why how much many any some all each every either neither
both few more most other such no nor not only own same so too very can could should would may
might must will shall just also s t don didn doesn isn wasn weren aren haven hasn hadn won wouldn
per via vs e.g i.e etc please tell say said according document report context question answer
""".split())
NEGATIONS = {"not", "no", "never", "none", "nor", "without", "cannot", "unable", "n't", "neither", "nobody"}
# Direction words mapped onto one canonical form, so "rose 8%" supports "increased 8%" and a
# claim of "down" against a context of "up" is caught as an opposite.
_DIRECTION = {w: "up" for w in ("up", "increase", "increased", "increases", "rise", "rose", "risen",
                                "grew", "grow", "grown", "growth", "gain", "gained", "higher", "more",
                                "above", "expand", "expanded", "improved", "improve")}
_DIRECTION.update({w: "down" for w in ("down", "decrease", "decreased", "decreases", "fall", "fell",
                                       "fallen", "decline", "declined", "drop", "dropped", "lower",
                                       "less", "below", "shrank", "shrink", "reduced", "worsened")})
_NUMBER = re.compile(r"^\d")
_TOKEN = re.compile(r"[a-z0-9]+(?:[.,'][a-z0-9]+)*%?")


# A month is one word however it is written: "Feb 2007" states "February 2007".
_MONTHS = {name: name[:3] for name in MONTHS + ("sept",) if name != "may"}


# British spellings read as the American ones, so "colour" finds "color" and "licence" "license":
# -our, -ise/-yse (and their forms), -tre/-bre, -ogue, and the four nouns in -ence.
_BRITISH = [(re.compile(pattern), american) for pattern, american in (
    (r"(?<=\w{3})our(s|ed|ing|ful|ite|ites)?$", r"or\1"), (r"(?<=\w\w)([iy])s(e|es|ed|ing|ation|ations)$", r"\1z\2"),
    (r"(?<=\w\w)(t|b)re(s|d)?$", r"\1er\2"), (r"(?<=\w\w)ogue(s)?$", r"og\1"),
    (r"^(lic|def|off|pret)ence(s|d)?$", r"\1ense\2"))]


@lru_cache(maxsize=1 << 16)  # a text repeats its words: each is spelled and stemmed once
def _stem(word: str) -> str:
    for pattern, american in _BRITISH:
        word = pattern.sub(american, word)
    if word in _MONTHS:
        return _MONTHS[word]
    if _NUMBER.match(word) or len(word) <= 3:
        return word
    if word in _DIRECTION:
        return _DIRECTION[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if re.search(r"(s|x|z|ch|sh)es$", word):
        return word[:-2]
    for suffix in ("ing", "ed", "ly", "s"):
        if word.endswith(suffix) and not word.endswith("ss") and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def terms(text: str) -> list[str]:
    """Content words of `text`, lowercased and lightly stemmed; numbers kept whole ("4.2m", "21%")."""
    words = _TOKEN.findall(text.lower().replace("\u2019", "'"))
    return [_stem(w.removesuffix("'s")) for w in words if w not in STOPWORDS and w.removesuffix("'s")]


# Words sharing this many first letters are of one family ("registered"/"registrant",
# "miscompiles"/"miscompiled"): the light stemmer leaves such pairs apart.
FAMILY_LETTERS = 6


def same_family(word: str, found: set[str]) -> bool:
    """Is the word in `found`, or one of its family (the same first FAMILY_LETTERS letters)?"""
    stem = word[:FAMILY_LETTERS]
    return word in found or (len(word) >= FAMILY_LETTERS and any(f.startswith(stem) for f in found))


def anchors(text: str) -> set[str]:
    """Numbers and proper names: the words a faithful answer may not change."""
    found = {t for t in terms(text) if any(ch.isdigit() for ch in t)}
    # A comma with no space after it joins, as in terms(): "WIDE,HEL" is one name there, so here.
    words = re.findall(r"\b[\w'.%-]+(?:,[\w'.%-]+)*\b", text)
    for i, word in enumerate(words):
        clean = word.strip(".'")
        if i > 0 and clean[:1].isupper() and clean.lower() not in STOPWORDS and len(clean) > 1:
            found.update(terms(clean))
    return found


# A clause ends at ";" or ", ", and before a comparison ("21%, compared with 17% in Q3 2023"),
# but not inside a bound ("more than 85%" is the fact, not a reference):
# a number or name belongs to the subject of its own clause (a list after ":" to the clause).
# An apposition restates what the clause before names ("Day 0, namely 1 January 4713 BC"): it stays.
_CLAUSE = re.compile(r";\s+|,\s+(?!(?:namely|i\.e\.|that is)\b)"
                     r"|(?<!\bmore)(?<!\bless)(?<!\bfewer)\s+(?=than\b)|\s+(?=than\s+\D)"  # not "more than 85%"
                     r"|\s+(?=(?:compared (?:with|to)|whereas|while|versus|but)\b)")


def clauses(sentence: str) -> list[str]:
    """The clauses of a sentence: "Q3 revenue was 4.2M, margin 21%." -> ["Q3 revenue was 4.2M", "margin 21%."]."""
    return [c for c in _CLAUSE.split(sentence) if c.strip()]


_NUMBER_WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                            "thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_NUMBER_WORDS.update({w: 10 * n for n, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)})
_NUMBER_WORDS.update(half=0.5, twice=2, double=2, dozen=12, hundred=100, thousand=1000)
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}
_NUMERAL = re.compile(r"(?<![\w.])(?<![A-Za-z]-)(\d+(?:\.\d+){2,}|\d+(?:,\d{3})+(?!\d)|\d*\.?\d+)(?:\s?(k|mn?|bn|thousand|million|billion)\b)?"
                      r"|\b(" + "|".join(_NUMBER_WORDS) + r")(?:-(" + "|".join(list(_NUMBER_WORDS)[1:10]) + r"))?\b", re.I)

# "a small one", "that one": a determiner, then at most a word that is no verb ("This is one" counts)
_PRONOUN_ONE = re.compile(r"\b(?:a|an|the|this|that|each|every|any|no|which|another)\s+(?:(?!(?:is|was|are|were|be|"
                          r"been|has|had|have|do|does|did)\b)[a-z]+\s+)?$", re.I)


def numbers(text: str) -> list[str]:
    """The numbers of a text, written one way: "4.2M", "4.2 million" and "4,200,000" are all
    "4.2e+06"; "ten" and "10%" are "10", "fifty-three" is "53", "half" is "0.5"; a version
    ("3.2.2") stays as written; "UTF-8" names something; "one" in "a small one" stands for a noun."""
    found = []
    for match in _NUMERAL.finditer(text):
        digits, scale, word, unit = (group or "" for group in match.groups())
        if word and word.lower() == "one" and _PRONOUN_ONE.search(text, 0, match.start()) and text[match.end():][:1] != "-":
            continue  # "a small one", "that one": a pronoun, no count (but "a one-line summary" counts)
        if digits.count(".") > 1:
            found.append(digits)
            continue
        value = float(digits.replace(",", "")) if digits else _NUMBER_WORDS[word.lower()] + _NUMBER_WORDS.get(unit.lower(), 0)
        found.append(f"{value * _SCALE.get(scale.lower(), 1):.6g}")
    return found


def spelled_out(text: str, context: str) -> str:
    """`text` with each acronym that `context` spells out by its initials replaced by the words
    ("Who is the CFO?" -> "Who is the Chief Financial Officer?")."""
    for acronym in set(re.findall(r"\b[A-Z](?:&?[A-Z]){1,4}\b", text)):
        letters = acronym.replace("&", "")
        words = re.search(r"\b" + letters[0] + r"[a-z]+" + "".join(
            rf"\s+(?:(?:and|&|of)\s+)?[{c}{c.lower()}][a-z]+" for c in letters[1:]) + r"\b", context)
        text = re.sub(rf"\b{re.escape(acronym)}\b", words.group(0), text) if words else text
    return text


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    text = " ".join(args) or "Q3 revenue was 4.2M, up 8% YoY. The U.S. team grew, e.g. in sales. Margin was 21%."
    for sentence in split_sentences(text):
        print(f"{sentence!r}\n    terms: {terms(sentence)}  anchors: {sorted(anchors(sentence))}")


if __name__ == "__main__":
    run_cli(main)
