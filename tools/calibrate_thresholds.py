"""Maintenance: the numbers behind the two refusal thresholds.  [provided]

For every sample question, prints the relevance gate's input (best retrieval cosine, compared
with Config.min_relevance) and the offline model's input (best sentence score, compared with
offline_model.MIN_ANSWER_SCORE), split into answerable and unanswerable questions. A
threshold separates the two groups when it lies between them; EVALUATION.md quotes the output.

Run alone:  python tools/calibrate_thresholds.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "code"))

import evaluate  # noqa: E402
import offline_model  # noqa: E402
import rag  # noqa: E402
from config import get_config, run_cli  # noqa: E402
from generator import build_prompt  # noqa: E402
from textutils import split_sentences  # noqa: E402


def main() -> None:
    cfg = get_config()
    questions = evaluate.load_questions(evaluate.SAMPLE_QUESTIONS)
    documents = rag.index_documents([evaluate.SAMPLE_PDF], cfg, show_progress=False)
    rows = []
    for q in questions:
        result = rag.ask(documents, q["question"], cfg)
        chunks = result.context or result.retrieved
        user = build_prompt(q["question"], chunks)[1]["content"]
        sentences = [s for _, text in offline_model.parse_context(user) for s in split_sentences(text)]
        question = offline_model._focus(q["question"])
        aliases = offline_model._acronyms(question, " ".join(sentences))
        best = max(offline_model.score_sentences(question, sentences, aliases), default=0.0)
        rows.append((q["answerable"], result.gate["best_score"], best, result.answer.refused,
                     q["question"]))
    print(f"gate threshold (min_relevance) {cfg.min_relevance}; answer threshold "
          f"(MIN_ANSWER_SCORE) {offline_model.MIN_ANSWER_SCORE}")
    print("| group | question | best retrieval cosine | best sentence score | refused |")
    print("|---|---|---|---|---|")
    for answerable, gate, best, refused, question in sorted(rows, key=lambda r: (not r[0], r[2])):
        print(f"| {'answerable' if answerable else 'unanswerable'} | {question[:60]} | "
              f"{gate:.3f} | {best:.3f} | {'yes' if refused else 'no'} |")


if __name__ == "__main__":
    run_cli(main)
