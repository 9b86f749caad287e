"""The offline stand-in for an LLM, part 3b: a claim's phrases, and where the context states their facts.  [provided]

offline_verifier.py compares a claim with its context phrase by phrase. `phrases_of` splits a
text into clauses and the parts "and"/"or" join; `best_match` finds the context phrase that
says most of a claim phrase; `bound` asks whether each number of a claim phrase is stated in
that phrase ("Revenue was 21%." is not supported by "Q3 revenue 4.2M, margin 21%."), and each
name in it, or in a clause of the same sentence joined to it by "if", "because", "when" ...
("Ben Ortiz wrote the first parser." is not supported by "Ana Lima wrote the first parser. Ben
Ortiz joined in 2019.").
`words_of` and `content_of` are the words compared.

What it CANNOT do: tell which of two names a claim swaps when the context's phrases around them
differ by one word ("The Beta model is for sparse data." against "The Alpha and Beta models are
for dense data, and the Gamma model is for sparse data."): the name itself tips the match.

Run alone:  python code/offline_chat.py    (the stand-in answering and verifying)
"""

from __future__ import annotations

import re

from textutils import NEGATIONS, anchors, clauses, numbers, same_family, spelled_out, split_sentences, terms

# textutils' negations, and "nothing" and "!=" ("without" and "with no" negate a noun: offline_verifier
# reads them apart).
NEGATION = re.compile(r"\b(" + "|".join(sorted(NEGATIONS - {"without", "n't"} | {"nothing"})) + r")\b|n't\b|!=", re.I)
_NUMBER_UNITS = {"percent", "thousand", "million", "billion"}
# "and"/"or" between phrases, not inside a count ("two or more", "one or two", "5 or 6").
_PHRASE = re.compile(r":\s+|\s+(?:and|or)\s+(?!\d|(?:more|fewer|less|two|three|four|five|six|seven|eight|nine|ten)\b)"
                     r"|\s+(?=(?:because|due to|so that)\b)")
_PREPOSITION = re.compile(r"(since|from|until|in|on|at|after|before|during|for|by|with)\b", re.I)


def words_of(text: str) -> set[str]:
    """Content words, with "META-POST" read as "METAPOST", "left to right" as one word, and one
    form for the stems textutils leaves apart ("copi"/"copy", "dat"/"date")."""
    text = re.sub(r"\b(left|right)[\s-]+to[\s-]+(left|right)\b", r"\1to\2", text, flags=re.I)
    return {re.sub(r"(?<=\w\w)(i|e)$", lambda m: "y" if m.group(1) == "i" else "", w)
            for w in terms(re.sub(r"(?<=\w)-(?=\w)", "", text))}


def content_of(text: str) -> set[str]:
    """The words a claim must have covered: not its numbers (bound on their own) nor its negations
    (compared phrase by phrase: "cannot" is covered by "unable to")."""
    return {w for w in words_of(text) if not (w[0].isdigit() or numbers(w) or w in _NUMBER_UNITS or NEGATION.fullmatch(w))}


def phrases_of(text: str, whole: bool = False) -> list[str]:
    """Clauses, split again at ": " and at "and"/"or" between words; a phrase that opens with a
    preposition ("Since March 2016, ...") belongs to the next one, and when `whole`, one opening
    with "but" to the one before."""
    parts = [p for sentence in split_sentences(text) for c in clauses(sentence) for p in _PHRASE.split(c) if p.strip()]
    for n in range(len(parts) - 1, -1, -1):
        if n + 1 < len(parts) and _PREPOSITION.match(parts[n]) and len(parts[n].split()) <= 4:
            parts[n:n + 2] = [f"{parts[n]} {parts[n + 1]}"]
        elif whole and n > 0 and parts[n].startswith("but "):
            parts[n - 1:n + 1] = [f"{parts[n - 1]} {parts[n]}"]
    return parts


def best_match(part: str, candidates: list[str]) -> str:
    """The candidate sharing the most content words with `part` (names count double); on a tie,
    the one stating its numbers."""
    words, names = content_of(part), anchors(part)
    return max(candidates, key=lambda c: (sum(1 + (w in names) for w in words & words_of(c)),
                                          set(numbers(part)) <= set(numbers(c))))


# A clause that opens with one of these belongs to the clause beside it: "because the tool runs
# faster" says it of the Linux that "We recommend Linux" names.
_SUBORDINATE = re.compile(r"(because|since|if|when|whenever|unless|while|although|though|once|so that)\b", re.I)


def bound(claim: str, span: str) -> bool:
    """Is each number of the claim stated in the span phrase that best matches its claim phrase,
    and each name in that phrase, or in a clause of its sentence that one of them opens with
    "if", "because", "when" ... (_SUBORDINATE)?"""
    span = spelled_out(span, span)  # as the claim is: "the DPO reviews ..." after "Data Protection Officer:"
    phrases, joined = phrases_of(span), []
    for sentence in split_sentences(span):
        units: list[list[str]] = []
        for part in phrases_of(sentence):
            if units and (_SUBORDINATE.match(part) or _SUBORDINATE.match(units[-1][-1])):
                units[-1].append(part)
            else:
                units.append([part])
        joined += [" ".join(unit) for unit in units]

    def stated(part: str) -> bool:
        said = best_match(part, joined)
        named = words_of(said) | set(terms(said))
        return set(numbers(part)) <= set(numbers(best_match(part, phrases))) and all(
            same_family(n, named) for n in anchors(part) if not n[0].isdigit())
    return all(stated(part) for part in phrases_of(claim) if numbers(part) or anchors(part))
