"""Maintenance: the dev set asked with typos, to measure how the pipeline copes with misspelt questions.

Each question gets one typo in each of TYPOS_PER_QUESTION of its lowercase words of five
letters or more (chosen by a random generator seeded with the question, so every run asks the
same): a letter dropped, two swapped, one doubled, or a vowel changed. The questions were
written before spelling.py existed and the typos are not chosen by what it can mend.
Prints the same table as `python code/evaluate.py --devset`; compare the two.

Run alone:  python tools/typo_devset.py [--split tune] [--json OUT]    (uses RAG_INDEX_DIR as set)
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "code"))

import devset  # noqa: E402
from cli import ArgumentParser, run_cli  # noqa: E402
from config import get_config  # noqa: E402

TYPOS_PER_QUESTION = 2
VOWELS = "aeiou"


def typo(word: str, rng: random.Random) -> str:
    """The word with one slip of the fingers, never at its first letter."""
    i = rng.randrange(1, len(word) - 1)
    slip = rng.choice(["drop", "swap", "double", "vowel"])
    vowels = [j for j in range(1, len(word)) if word[j] in VOWELS]
    if slip == "swap":
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if slip == "double":
        return word[:i] + word[i] + word[i:]
    if slip == "vowel" and vowels:
        j = rng.choice(vowels)
        return word[:j] + rng.choice([v for v in VOWELS if v != word[j]]) + word[j + 1:]
    return word[:i] + word[i + 1:]


def with_typos(item: dict) -> dict:
    """The question item with its question misspelt (the same typos on every run)."""
    question = item["question"]
    rng = random.Random(hashlib.sha256(question.encode()).hexdigest())
    words = list(re.finditer(r"\b[a-z]{5,}\b", question))
    for found in sorted(rng.sample(words, min(TYPOS_PER_QUESTION, len(words))), key=lambda m: -m.start()):
        question = question[:found.start()] + typo(found.group(0), rng) + question[found.end():]
    return {**item, "question": question}


def main(argv: list[str] | None = None) -> None:
    parser = ArgumentParser(description="The dev set asked with two typos per question.")
    parser.add_argument("--split", action="append", choices=devset.SPLITS, help="only this half (repeatable)")
    parser.add_argument("--json", metavar="OUT", help="also write {summary, results} to OUT")
    args = parser.parse_args(argv)
    report = devset.run(get_config(), splits=tuple(args.split or devset.SPLITS), rewrite=with_typos)
    devset.print_devset(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    run_cli(main)
