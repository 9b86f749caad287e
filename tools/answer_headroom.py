"""Maintenance: how much answer recall the offline answerer loses by picking the wrong sentence.

Runs the dev set as `python code/evaluate.py --devset` does and, for every answerable question
that reaches the answerer, compares three answer-token recalls of one candidate (a sentence, or
a row of a long run) of the prompt's context:

  picked      the candidate `offline_answerer.answer` chose (without the sentence before it
              that a pointing "This ..." brings along, so it can differ from the table's recall)
  best kind   the best candidate among those it may answer with (carrying the asked kind of
              fact with MIN_COVERAGE of the key terms), as a perfect ranker of them would
  best any    the best candidate of the whole context

The gap between the first two is what a better choice among the answerer's own candidates could
gain; between the last two, what its kind-of-fact rules keep out. Questions the relevance gate
refuses never reach the answerer and are left out. Uses RAG_INDEX_DIR as set (a minute on two cores).

Run alone:  python tools/answer_headroom.py
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "code"))

import devset  # noqa: E402
import offline_answerer  # noqa: E402
from cli import run_cli  # noqa: E402
from config import get_config  # noqa: E402
from scoring import answer_recall  # noqa: E402

seen: dict[str, list[tuple[str, bool]]] = {}  # question -> (candidate text, may answer) in context order
answer = offline_answerer.answer


def recording_answer(prompt):
    """offline_answerer.answer, recording the candidates it chooses from."""
    units, scored, _ = offline_answerer.weighed(prompt)
    if units:
        seen[prompt.question] = [(u[1], offline_answerer.may_answer(coverage, rank)) for u, (_, coverage, rank) in zip(units, scored)]
    return answer(prompt)


def main() -> None:
    offline_answerer.answer = recording_answer
    results = devset.run(get_config())["results"]
    print(f"{'split':<8} {'n':>4} {'picked':>8} {'best kind':>10} {'best any':>9}")
    for split in devset.SPLITS:
        rows = []
        for r in results:
            units = seen.get(r["question"])
            if r["split"] != split or not r["answerable"] or not units or r["refused"]:
                continue
            recall = [answer_recall(r["reference"], text) for text, _ in units]
            allowed = [x for x, (_, may) in zip(recall, units) if may] or recall
            # the last candidate the answer quotes: one before it is the sentence a "This ..." brought along
            chosen = [x for x, (text, _) in zip(recall, units) if text.rstrip(".") in r["answer"]][-1:] or [0.0]
            rows.append((chosen[0], max(allowed), max(recall)))
        if rows:
            means = [statistics.fmean(column) for column in zip(*rows)]
            print(f"{split:<8} {len(rows):>4} " + " ".join(f"{m:>{w}.3f}" for m, w in zip(means, (8, 10, 9))))


if __name__ == "__main__":
    run_cli(main)
