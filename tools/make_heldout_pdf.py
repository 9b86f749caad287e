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
import re
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO_ROOT / "code"), str(REPO_ROOT / "code" / "tests")]

from cli import run_cli  # noqa: E402
from pdf_loader import load_pdf_pages  # noqa: E402
from make_sample_pdf import evidence_problems  # noqa: E402 - the same evidence check
from pdf_writer import write_pdf  # noqa: E402

HELDOUT = REPO_ROOT / "data" / "heldout"
PDF_PATH = HELDOUT / "rulebook.pdf"
PAGES_TXT = HELDOUT / "rulebook_pages.txt"
QUESTIONS = HELDOUT / "rulebook_questions.jsonl"
PAGE_SEPARATOR = "=== PAGE ==="


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
    return problems + evidence_problems(QUESTIONS, pages)


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
