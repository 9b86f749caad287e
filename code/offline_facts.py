"""The offline stand-in for an LLM, part 2a: what kind of fact a question asks for, and whether
a sentence states one.  [provided]

`answer_kind(question)` reads the kind from the question's first wh-word, after a clause that
sets a condition ("When a font has no name, which font ...?" asks for a name): number, amount,
date, address, name, yes_no, definition, procedure or other. `carries(kind, text, question)` says
whether a clause of the text states such a fact next to a key term of the question: "eight
suffixes" for "how many suffixes", a duration ("3 days", "after a week") for "how long", a date
for "when", a URL or e-mail address for "what is the homepage", a capital or a code for "which"
or "who", and no other period than asked ("Q4" for "Q3"). A heading or a label states none.
offline_answerer.py uses both to choose the sentence it quotes.

Run alone:  python code/offline_facts.py "How many suffixes are there?" "There are eight suffixes."
"""

from __future__ import annotations

import re
import sys

from cli import run_cli
from config import RAGError
from textutils import (FAMILY_LETTERS, MONTH_ABBREVIATIONS, MONTHS, STOPWORDS, clauses, is_title_case, numbers,
                       same_family, terms)

# Fewer words than this state no fact, whatever they hold: a heading ("Customers."), a label.
MIN_STATEMENT_WORDS = 3
# A title-case line longer than this is no heading but a list of names ("Authors: Andrew Makhorin, ...").
MAX_HEADING_WORDS = 12

_QUANTITY = (r"(total|revenue|income|profit|loss|margin|price|cost|fee|rate|size|amount|share|percent|percentage|"  # nouns
             r"proportion|fraction|sales|spending|budget|salary|width|height|length|weight|speed|temperature)\b")
_KINDS = [  # read from the question's first wh-word on; the first match wins
    ("date", r"when\b(?! (does|do|should|must|can|may|would|could)\b)|(what|which) (year|date|day|month)\b"),
    ("address", r"(what|which|where)\b( [\w'-]+){0,4}? (homepage|home page|website|web site|web page|url|"
                r"(e-?mail|web|internet|ip) address|address)\b"),
    ("amount", r"how (much|big|large|high|fast|far|heavy)\b|(what|which)\b( [\w']+){0,3}? " + _QUANTITY),
    ("number", r"how (many|long|old|often|soon)\b|(what|which) (number|version|release)\b"),
    ("definition", r"what (is|are) (an? |the )?[\w.+-]+( [\w.+-]+)?\?|what does .* (mean|stand for|tell)\b|.*\bdifference between"),
    ("procedure", r"how (do|can|should|would|could) (i|you|we|one)\b|how to\b|what steps\b"
                  r"|what (can|could|should|must|do) (i|you|we|one) do\b"),
    ("other", r"what (does|do|did)\b"),  # "What does ptp compute?": whatever it does, not a name
    ("name", r"(who|whom|whose|where|which|what)\b"),
]
# What answers an "address" question: an e-mail address, a URL, a host name or an IP address.
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+|\b[a-z]+://\S+|\bwww\.\S+|\b[\w-]+(\.[\w-]+)*\.(org|com|net|edu|gov|io|info)\b"
                      r"|\b\d{1,3}(\.\d{1,3}){3}\b", re.I)
_WH = re.compile(r"\b(who|whom|whose|what|which|when|where|why|how)\b")
# A clause that opens the question with "When ...," or "If ...," sets a condition: what is asked
# follows it ("When a font has no name, which font ...?" asks for a name, not a date).
_CONDITION = re.compile(r"\W*(when|whenever|if|once)\b(?! (is|are|was|were|do|does|did|can|could|will|would|should|"
                        r"must|may|has|have|had)\b)\s[^,?]+,\s*(?=\w)", re.I)
_AUXILIARY = re.compile(r"(^|, )(is|are|was|were|do|does|did|can|could|will|would|should|must|may|has|have|had)\b")
_MONTH = re.compile(r"\b(" + "|".join(r"may(?= \d)" if m == "may" else m for m in MONTHS)  # "May 5", not "may be"
                    + r"|(" + "|".join(MONTH_ABBREVIATIONS) + r")\.?|(1[6-9]|20)\d\d)\b", re.I)  # or a year
_CODE = re.compile(r"[\w.$/@^+-]*[._$/@^+][\w.$/@^+-]*\w|[A-Z][\w-]*[A-Z0-9][\w-]*")
_PERIOD = re.compile(r"q[1-4]|(1[6-9]|20)\d\d|\d+(\.\d+){2,}")  # quarters, years, versions
# The kinds whose fact counts only in a clause that also holds a key term of the question.
_BY_KEY_TERM = ("number", "amount", "date", "name", "address")
_TIMED = re.compile(r"how (long|soon|often|old)\b", re.I)
_DURATION = r"(second|minute|hour|day|week|month|year|decade)s?\b"
# A duration said without digits: "after a week", "a few hours", "once a month".
_DURATION_IN_WORDS = re.compile(r"\b(an?|one|few|several)\s+" + _DURATION, re.I)
_HEADING = re.compile(r"([A-Z]\.)?\d+(\.\d+)*\.?( \S+){1,4}")  # "3 Data types.", "C.6 Cygwin"
_COMPARISON = re.compile(r"(than|compared|versus|up from|down from)\b", re.I)
_DEFINES = re.compile(r"(?:\S+ ){0,2}?(is|are|means|stands for|refers to|denotes)\b", re.I)


# A number alone, or a size ("2000x2000"): found by its value. "1.3c", "R800" and "3b" are names.
_PLAIN_NUMBER = r"\d[\d.,]*%?(?:x\d[\d.,]*)*"


def stated_by_value(words: set[str], text: str) -> set[str]:
    """Those of the words that are plain numbers whose values the text's plain numbers state:
    "0" in "radius 0.0", "2000" in "2000x2000", but no "3" in "3b"."""
    stated = {value for number in re.findall(rf"(?<![\w.,]){_PLAIN_NUMBER}(?!\w)", text) for value in numbers(number)}
    return {w for w in words if re.fullmatch(_PLAIN_NUMBER, w) and set(numbers(w)) <= stated}


def without_condition(question: str) -> str:
    """The question less a clause that opens it with a condition ("When ..., ", "If ..., ")."""
    condition = _CONDITION.match(question)
    return question[condition.end():] if condition else question


def what_is_asked(question: str) -> str:
    """The question from its first wh-word after a condition: "With 200 MB/s disks, what
    throughput ...?" asks about throughput; the clause before sets conditions. Words in brackets
    qualify it ("and who suggested it (vcovhc default)?", a follow-up --chat completed)."""
    question = re.sub(r"\s*\([^()]*\)", "", without_condition(question))
    wh = _WH.search(question.lower())
    return question[wh.start():] if wh else question


def answer_kind(question: str) -> str:
    """number, amount, date, address, name, yes_no, definition, procedure or other, from the first
    wh-word after a condition."""
    q = " ".join(without_condition(question).lower().split())
    wh = _WH.search(q)
    if _AUXILIARY.match(q) or (wh is None and _AUXILIARY.search(q)):
        return "yes_no"
    return next((kind for kind, pattern in _KINDS if re.match(pattern, q[wh.start():] if wh else q)), "other")


def _bound_number(clause: str, question: str, strict: bool) -> bool:
    """A number of what is asked: of the thing counted ("eight suffixes"; any number unless
    `strict`), of the quantity named ("what was the revenue"), a duration, a version ("4.2.0")."""
    def counts(nouns: str) -> bool:  # a number at most three words before one of `nouns`, or "number of files is 32"
        return any(numbers(" ".join(words[max(0, n - 3):n])) for n, w in enumerate(words) if re.match(nouns, w, re.I)) \
            or bool(re.search(rf"\bnumber of (?:\S+ )?{nouns}\S*\s+(?:is|are|was|were|=|:)\s+\S*\d", clause, re.I))
    words, counted = clause.split(), re.search(r"how many ([\w-]+)(?: ([\w-]+))?", question, re.I)
    if counted:
        nouns = "|".join(re.escape(w[:FAMILY_LETTERS]) for w in counted.groups() if w and w not in STOPWORDS)
        return not strict or bool(nouns and counts(f"\\W*({nouns})"))
    measured = re.match(r"\W*(?:what|which)\b(?: [\w']+){0,3}? " + _QUANTITY, question, re.I)
    if measured:
        return bool(set(terms(measured.group(1))) & set(terms(clause)))
    if _TIMED.search(question):
        return counts(_DURATION)
    return not re.search(r"\b(version|release)\b", question, re.I) or bool(re.search(r"\d\.\d", clause))


def _states(kind: str, clause: str, question: str, strict: bool) -> bool:
    """Does the clause state a fact of this kind that the question does not give, by a key term?"""
    keys = set(terms(question))
    clause_terms = set(terms(clause))
    if kind in _BY_KEY_TERM and not any(same_family(t, clause_terms) for t in keys):
        return False
    asked, found = keys | set(question.lower().split()), re.findall(r"[\w.$%/@^+-]*\w%?", clause)
    new = [w for w in found if w.lower() not in asked and not set(terms(w)) <= asked]
    values = [v for v in set(numbers(clause)) - set(numbers(question))
              if not (kind == "amount" and _PERIOD.fullmatch(v))]  # a year is no amount
    if kind == "amount" and re.search(r"\bpercent|\bshare\b|\bproportion\b", question, re.I):
        return any("%" in w or "percent" in w.lower() for w in new)
    if kind == "address":
        return bool(_ADDRESS.search(clause))
    if kind in ("number", "amount"):  # a duration said in words ("after a week") is bound as it is
        in_words = bool(_TIMED.search(question) and _DURATION_IN_WORDS.search(clause))
        return in_words or (bool(values) and _bound_number(clause, question, strict))
    if kind == "date":
        return bool(_MONTH.search(" ".join(new)))
    if kind == "definition" and strict:  # bound: the clause says what the term is ("LDL is a set of ...")
        words = clause.split()
        return any(set(terms(w)) & keys and _DEFINES.match(" ".join(words[n + 1:n + 5])) for n, w in enumerate(words))
    if kind == "name":  # a capital that only starts the clause is no name
        if re.match(r"\W*who", question, re.I):  # a person or a body, not a file, an address or a number
            return any(w[:1].isupper() and w in found[1:] and "." not in w and "@" not in w for w in new)
        return bool(values) or any(_CODE.fullmatch(w) or (w[:1].isupper() and w in found[1:]) for w in new)
    return True


def _other_period(text: str, question: str) -> bool:
    """Does the text name other periods than asked, and not the asked one ("Q4" when asked
    about "Q3")? Comparisons ("than in Q3") name a reference, not the text's own period."""
    def periods(part: str) -> set[str]:  # "third quarter" is "q3"
        quarters, ordinal = re.findall(r"\b(first|second|third|fourth) quarter", part, re.I), "first second third fourth"
        return {t for t in terms(part) if _PERIOD.fullmatch(t)} | {f"q{ordinal.split().index(q.lower()) + 1}" for q in quarters}
    stated = set().union(*(periods(c) for c in clauses(text) if not _COMPARISON.match(c)))
    shape = {re.sub(r"\d", "9", t) for t in stated}  # "q3" and "q4" have one shape
    return any(re.sub(r"\d", "9", a) in shape and a not in stated for a in periods(question))


def carries(kind: str, text: str, question: str, strict: bool = True) -> bool:
    """Does a clause of `text` (a comparison's "than ..." names a reference, not the fact) state
    a fact of the asked kind about what was asked? A heading, or a unit under three words, states none."""
    words = len(text.split())
    heading = is_title_case(text) and words <= MAX_HEADING_WORDS or _HEADING.fullmatch(text) or words < MIN_STATEMENT_WORDS
    return not heading and not _other_period(text, question) and any(
        _states(kind, c, question, strict) for c in clauses(text) if not _COMPARISON.match(c))


def main(argv: list[str] | None = None) -> None:
    args = (argv if argv is not None else sys.argv[1:]) or ["How many suffixes are there?", "There are eight suffixes."]
    if len(args) != 2:
        raise RAGError('give a question and a sentence, or nothing: python code/offline_facts.py "How many suffixes '
                       'are there?" "There are eight suffixes."')
    question, text = args
    kind = answer_kind(question)
    print(f"kind: {kind}; the text carries such a fact: {carries(kind, text, question)}")


if __name__ == "__main__":
    run_cli(main)
