"""Maintenance: build data/sample_report.pdf, the sample evaluation set's PDF.  [provided]

Renders `pdf_loader.SAMPLE_PAGES` (the same text as data/sample_report_pages.txt) with
`pdf_writer.write_pdf`, one entry per page, then reads the PDF back with the project's own
loader and checks the evaluation set against it:

* the PDF has one page per entry and the text file matches SAMPLE_PAGES;
* every answerable question in data/sample_questions.jsonl has its evidence on the page it
  names, as pypdf extracts it (so Hit@k is measured against text a user would really get).

Run alone:  python tools/make_sample_pdf.py            (writes the PDF, then checks it)
            python tools/make_sample_pdf.py --check    (checks the committed PDF only)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO_ROOT / "code"), str(REPO_ROOT / "code" / "tests")]

from cli import run_cli  # noqa: E402
from config import RAGError  # noqa: E402
from pdf_loader import PAGE_SEPARATOR, SAMPLE_PAGES, SAMPLE_TEXT, load_pdf_pages  # noqa: E402
from pdf_writer import write_pdf  # noqa: E402

PDF_PATH = REPO_ROOT / "data" / "sample_report.pdf"
PAGES_TXT = REPO_ROOT / "data" / "sample_report_pages.txt"
QUESTIONS = REPO_ROOT / "data" / "sample_questions.jsonl"


def _words(text: str) -> str:
    # Line wrapping and hyphen repair change whitespace only; compare the words.
    return " ".join(re.findall(r"\w+", text.lower()))


def evidence_problems(questions: Path, pages: list[str]) -> list[str]:
    """One line per answerable question whose evidence is not on the page it names (shared
    with tools/make_heldout_pdf.py)."""
    problems: list[str] = []
    page_words = [_words(p) for p in pages]
    for number, line in enumerate(questions.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        item = json.loads(line)
        if not item.get("answerable", True):
            continue
        evidence = _words(item.get("evidence") or item.get("answer", ""))
        page = item.get("page")
        if not evidence:
            problems.append(f"{questions.name} line {number}: answerable but no evidence")
        elif not page or page > len(pages):
            problems.append(f"{questions.name} line {number}: page {page} is not in the PDF")
        elif evidence not in page_words[page - 1]:
            found = [n for n, words in enumerate(page_words, start=1) if evidence in words]
            problems.append(f"{questions.name} line {number}: evidence not on p.{page}"
                            f" (found on {found or 'no page'})")
    return problems


def check(pdf: Path = PDF_PATH) -> list[str]:
    """Every problem found, as one line each (empty when the sample set is consistent)."""
    problems: list[str] = []
    pages = load_pdf_pages(pdf)
    if len(pages) != len(SAMPLE_PAGES):
        problems.append(f"{pdf.name} has {len(pages)} pages, SAMPLE_PAGES has {len(SAMPLE_PAGES)}")
    text_pages = PAGES_TXT.read_text(encoding="utf-8").split(PAGE_SEPARATOR)
    if [_words(p) for p in text_pages] != [_words(p) for p in SAMPLE_PAGES]:
        problems.append(f"{PAGES_TXT.name} differs from pdf_loader.SAMPLE_PAGES")
    return problems + evidence_problems(QUESTIONS, pages)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write and check data/sample_report.pdf.")
    parser.add_argument("--check", action="store_true", help="only check the existing PDF")
    args = parser.parse_args(argv)
    if not args.check:
        # The text as written (SAMPLE_PAGES is it as the loader returns it, headings marked).
        write_pdf(PDF_PATH, [page.strip() for page in SAMPLE_TEXT.read_text(encoding="utf-8").split(PAGE_SEPARATOR)])
        print(f"wrote {PDF_PATH.relative_to(REPO_ROOT)} ({PDF_PATH.stat().st_size} bytes)")
    problems = check()
    if problems:
        raise RAGError(f"{len(problems)} problem(s) in the sample set: {'; '.join(problems)}; "
                       f"fix the questions or the pages, then re-run this script")
    n = sum(1 for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip())
    print(f"checked: {len(SAMPLE_PAGES)} pages; the evidence of every answerable question of "
          f"{n} is on its stated page")


if __name__ == "__main__":
    run_cli(main)
