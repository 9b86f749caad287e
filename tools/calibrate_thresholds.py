"""Maintenance: the numbers behind the two refusal decisions.  [provided]

For every sample question, prints the relevance gate's input (best retrieval cosine, compared
with Config.min_relevance) and the offline answerer's (the best key-term coverage of a context
sentence that carries the kind of fact the question asks for, compared with
offline_answerer.MIN_COVERAGE; "-" when no sentence carries it, or a name or number of the
question is missing from the context), split into answerable and unanswerable questions. A
threshold separates the two groups when it lies between them; EVALUATION.md quotes the output.

Run alone:  python tools/calibrate_thresholds.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "code"))

import scoring  # noqa: E402
from pdf_loader import SAMPLE_PDF  # noqa: E402
import offline_answerer  # noqa: E402
import offline_model  # noqa: E402
import rag  # noqa: E402
from cli import ArgumentParser, run_cli  # noqa: E402
from config import get_config  # noqa: E402
from generator import build_prompt  # noqa: E402


def answer_coverage(question: str, chunks) -> float | None:
    """The coverage of the best sentence that answers, as offline_answerer.answer computes it."""
    _, scored, _ = offline_answerer.weighed(offline_model.read_prompt(build_prompt(question, chunks)))
    return max((coverage for _, coverage, rank in scored if rank), default=None)


def main(argv: list[str] | None = None) -> None:
    ArgumentParser(prog="calibrate_thresholds.py", description=__doc__.splitlines()[0]).parse_args(argv)
    cfg = get_config()
    questions = scoring.load_questions(scoring.SAMPLE_QUESTIONS)
    documents = rag.index_documents([SAMPLE_PDF], cfg, show_progress=False)
    rows = []
    for q in questions:
        result = rag.ask(documents, q["question"], cfg)
        coverage = answer_coverage(q["question"], result.context or result.retrieved)
        rows.append((q["answerable"], result.gate["best_score"], coverage, result.answer.refused, q["question"]))
    print(f"gate threshold (min_relevance) {cfg.min_relevance}; answer threshold "
          f"(MIN_COVERAGE) {offline_answerer.MIN_COVERAGE}")
    print("| group | question | best retrieval cosine | best answering coverage | refused |")
    print("|---|---|---|---|---|")
    for answerable, gate, coverage, refused, question in sorted(rows, key=lambda r: (not r[0], r[2] or -1)):
        print(f"| {'answerable' if answerable else 'unanswerable'} | {question[:60]} | {gate:.3f} | "
              f"{'-' if coverage is None else f'{coverage:.3f}'} | {'yes' if refused else 'no'} |")


if __name__ == "__main__":
    run_cli(main)
