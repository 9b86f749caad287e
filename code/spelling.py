"""Step 4, before retrieving: a misspelt word of the question read as the word the documents hold.  [provided]

`misspelt(question, vocabulary)` finds the question's lowercase words that neither the
documents nor an English dictionary (pyspellchecker's word list) know, "telemetery" or
"umsak", and reads each as a word one edit away (a letter dropped, added or changed, or two
swapped) that the documents hold: "telemetry", "umask". `respelled` writes them in, and the
pipeline searches and answers with that text (rag.ask). `document_words` is the documents'
vocabulary, read from their BM25 indexes (as stems, the form BM25 searches).

Never changed: a word the dictionary knows, a capitalised word or one with digits or a hyphen
(a name or a code typed on purpose: "R800" is no "R300"), a stop word or a word one slip from
one (it searches for nothing), and a word with no neighbour in the documents (a question about
what they never mention should still find nothing). A neighbour outside the dictionary counts
only where the stemmer cut its ending to make the documents' form, so a word no document writes
("estimatour", indexed as "estimator") is never read in.

What it CANNOT do: mend a typo that makes another real word ("three" for "there"), two typos in
one word, or a misspelt name.

Run alone:  python code/spelling.py "When did the Berlin offise open?"    (against the sample report)
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from functools import lru_cache

import bm25
from cli import run_cli
from config import Config
from store import bm25_folder
from textutils import terms

# A shorter word has too many neighbours one edit away ("cot": cat, cut, cost, coat) to guess.
MIN_WORD_LENGTH = 4


@lru_cache(maxsize=1)
def _dictionary():
    from spellchecker import SpellChecker

    return SpellChecker(distance=1)  # two edits: seconds per long word, and more wrong guesses


def document_words(collections, cfg: Config) -> dict[str, int]:
    """Every term (stemmed, as BM25 indexes it) of the documents behind `collections`, and in
    how many of their chunks it stands."""
    return bm25.vocabulary([f for f in (bm25_folder(c.name, cfg) for c in collections) if bm25.exists(f)])


def misspelt(question: str, vocabulary: dict[str, int]) -> dict[str, str]:
    """{word as typed: the word read instead} for the question's misspelt words. Of the words one
    edit away that the documents hold, a word of the dictionary comes first (before a stem such as
    "wherea"), then the one more of the documents' chunks hold, then the one commoner in English."""
    fixes = {}
    for word in dict.fromkeys(re.findall(r"(?<![\w-])[a-z]+(?![\w-])", question)):
        stems = terms(word)
        if len(word) < MIN_WORD_LENGTH or not stems or set(stems) <= vocabulary.keys():
            continue  # (no stems: a stop word, which searches for nothing)
        dictionary = _dictionary()
        if dictionary.known([word]):
            continue
        near = {c: set(terms(c)) for c in sorted(dictionary.edit_distance_1(word))}
        # A word outside the dictionary only when the stemmer just cut its ending ("mathds" -> "mathd",
        # "newseries" -> "newsery"): "estimatour" is indexed as "estimator" (read as a British
        # spelling), yet no document writes it.
        held = [c for c, t in near.items() if t and t <= vocabulary.keys() and (dictionary.known([c]) or len(t) == 1
                and (c.startswith(stem := min(t)) or stem.endswith("y") and c.startswith(stem[:-1] + "ies")))]
        stop_words = [c for c in dictionary.known(near) if not near[c]]
        # One slip from a stop word ("whera", "wich"): most likely that word, which searches for
        # nothing; unless a word the documents hold starts with it ("reportd": "report", "reported").
        if any(not any(c.startswith(stop) for c in held) for stop in stop_words):
            continue
        if held:
            fixes[word] = max(held, key=lambda c: (bool(dictionary.known([c])),
                                                    min(vocabulary[t] for t in near[c]),
                                                    dictionary.word_usage_frequency(c)))
    return fixes


def respelled(text: str, fixes: dict[str, str]) -> str:
    """The text with the misspelt words of `fixes` replaced."""
    if not fixes:
        return text
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, fixes)) + r")(?![\w-])")
    return pattern.sub(lambda m: fixes[m.group(1)], text)


def main(argv: list[str] | None = None) -> None:
    from chunker import chunk_pages
    from pdf_loader import SAMPLE_PAGES

    question = " ".join(sys.argv[1:] if argv is None else argv) or "When did the Berlin offise open?"
    vocabulary = Counter(t for chunk in chunk_pages(SAMPLE_PAGES, 120, 30, "sample") for t in set(terms(chunk.text)))
    fixes = misspelt(question, vocabulary)
    print(f"{question!r} -> {respelled(question, fixes)!r}  {fixes}")


if __name__ == "__main__":
    run_cli(main)
