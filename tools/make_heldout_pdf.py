"""Maintenance: build data/heldout/rulebook.pdf, the held-out evaluation set's PDF.

The held-out set is a fictional board-game rule book ("Tidewater Traders", four pages) with
20 questions (15 answerable, 5 unanswerable). It is a different genre from the sample report
and is NOT to be used for tuning: it exists to measure how the pipeline generalises.

This script renders data/heldout/rulebook_pages.txt (pages separated by a line
`=== PAGE ===`) with `pdf_writer.write_pdf`, one entry per page, then reads the PDF back with
the project's own loader (`pdf_loader.load_pdf_pages`) and checks that:

* the PDF has one page per entry of the text file;
* every answerable question in data/heldout/rulebook_questions.jsonl has its evidence on the
  page it names (lowercase \\w+ word sequences compared, so line wrapping does not matter).

It prints each problem found, or "ok".

Run alone:  python tools/make_heldout_pdf.py            (writes the PDF, then checks it)
            python tools/make_heldout_pdf.py --check    (checks the existing PDF only)
Then:       python code/evaluate.py --pdf data/heldout/rulebook.pdf \\
                --questions data/heldout/rulebook_questions.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "code"))

from config import run_cli  # noqa: E402
from pdf_loader import load_pdf_pages  # noqa: E402
from pdf_writer import write_pdf  # noqa: E402

HELDOUT = REPO_ROOT / "data" / "heldout"
PDF_PATH = HELDOUT / "rulebook.pdf"
PAGES_TXT = HELDOUT / "rulebook_pages.txt"
QUESTIONS = HELDOUT / "rulebook_questions.jsonl"
PAGE_SEPARATOR = "=== PAGE ==="


def _words(text: str) -> str:
    # Line wrapping and hyphen repair change whitespace only; compare the words.
    return " ".join(re.findall(r"\w+", text.lower()))


def read_pages() -> list[str]:
    """The rule book's pages, as written in the text file (separator lines removed)."""
    text = PAGES_TXT.read_text(encoding="ascii")
    return [page.strip() for page in re.split(rf"^{re.escape(PAGE_SEPARATOR)}$", text, flags=re.M)]


def check(pdf: Path = PDF_PATH) -> list[str]:
    """Every problem found, as one line each (empty when the held-out set is consistent)."""
    problems: list[str] = []
    expected = read_pages()
    pages = load_pdf_pages(pdf)
    if len(pages) != len(expected):
        problems.append(f"{pdf.name} has {len(pages)} pages, {PAGES_TXT.name} has {len(expected)}")
    page_words = [_words(p) for p in pages]
    for number, line in enumerate(QUESTIONS.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        item = json.loads(line)
        if not item.get("answerable", True):
            continue
        evidence = _words(item.get("evidence") or item.get("answer", ""))
        page = item.get("page")
        if not evidence:
            problems.append(f"{QUESTIONS.name} line {number}: answerable but no evidence")
        elif not page or page > len(pages):
            problems.append(f"{QUESTIONS.name} line {number}: page {page} is not in the PDF")
        elif evidence not in page_words[page - 1]:
            found = [n for n, words in enumerate(page_words, start=1) if evidence in words]
            problems.append(f"{QUESTIONS.name} line {number}: evidence not on p.{page}"
                            f" (found on {found or 'no page'})")
    return problems


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write and check data/heldout/rulebook.pdf.")
    parser.add_argument("--check", action="store_true", help="only check the existing PDF")
    args = parser.parse_args(argv)
    if not args.check:
        write_pdf(PDF_PATH, read_pages())
        print(f"wrote {PDF_PATH.relative_to(REPO_ROOT)} ({PDF_PATH.stat().st_size} bytes)")
    problems = check()
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    run_cli(main)
