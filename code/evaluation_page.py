"""Step 10, as a page: evaluate.py's report as one HTML file.  [provided]

`render_evaluation(report)` draws evaluate()'s {"summary", "results"}: the summary table, the best
retrieval score of each question against the gate as an SVG chart (with --sweep, also the
retrieval modes and chunk sizes), and every question, failing first, then those answered with
under `scoring.LOW_RECALL` of the reference answer's words. Built from html_report.py's parts.

Run alone:  python code/evaluate.py --html eval.html [--sweep]   (then open eval.html)
"""

from __future__ import annotations

import math
from collections import Counter

from html_report import esc, number, page, table, tag
from scoring import LOW_RECALL, doubtful


def score_chart(results: list[dict], limit: float) -> str:
    """Best retrieval scores against the gate: answerable as circles, unanswerable as squares."""
    lo, hi = min(0.0, limit, *(r["best_score"] for r in results)), max(1.0, *(r["best_score"] for r in results))
    x = lambda v: 120 + 460 * (v - lo) / (hi - lo)  # noqa: E731
    column = lambda v: round(x(v) / 10)  # noqa: E731 - dots stack in 10 px columns
    parts, y = [], 20
    for name, answerable in (("answerable", True), ("unanswerable", False)):
        group, seen = [r for r in results if r["answerable"] == answerable], Counter()
        y += 10 * max(Counter(column(r["best_score"]) for r in group).values(), default=1) + 12
        parts.append(f'<text x="0" y="{y - 8}">{name} ({len(group)})</text>')
        for r in group:
            seen[column(r["best_score"])] += 1
            cx, cy = column(r["best_score"]) * 10, y - 2 - 10 * seen[column(r["best_score"])]
            tip = f'<title>{esc(r["question"])} ({r["best_score"]:.3f})</title>'
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="4.5" fill="#0b5394">{tip}</circle>' if answerable else
                         f'<rect x="{cx - 4}" y="{cy - 4}" width="8" height="8" fill="#8a1c1c">{tip}</rect>')
        y += 6
    ticks = "".join(f'<text x="{x(t / 10):.0f}" y="{y + 12}" text-anchor="middle">{t / 10:g}</text>'
                    for t in range(math.ceil(lo * 10), math.floor(hi * 10) + 1, 2))
    label, line = f"best retrieval score per question against the gate threshold {limit:g}", f"{x(limit):.1f}"
    return (f'<svg viewBox="0 0 600 {y + 18}" width="600" role="img" aria-label="{label}"><title>{label}</title>'
            f'{"".join(parts)}<line x1="{line}" x2="{line}" y1="14" y2="{y}" stroke="#1a1a1a" stroke-width="2" '
            f'stroke-dasharray="4 2"/><text x="{line}" y="10" text-anchor="middle">gate {limit:g}</text>{ticks}</svg>')


def sweep_html(title: str, rows: list[dict], key: str, metrics: list[tuple[str, str]]) -> str:
    """Bars (name and value written beside each) and a table of summaries that differ in `key`."""
    parts, y = [], 0
    for s in rows:
        parts.append(f'<text x="0" y="{y + 13}" font-weight="bold">{key.replace("_", " ")} {esc(s[key])}</text>')
        for m, name in metrics:
            y, width = y + 16, 300 * max(0.0, min(1.0, s.get(m) or 0.0))
            parts.append(f'<text x="10" y="{y + 13}">{name}</text><rect x="130" y="{y + 3}" height="12" fill="#0b5394" '
                         f'width="{width:.1f}"/><text x="{134 + width:.1f}" y="{y + 13}">{number(s.get(m))}</text>')
        y += 26
    data = table([key.replace("_", " ")] + [name for _, name in metrics],
                 [[esc(s[key])] + [number(s.get(m)) for m, _ in metrics] for s in rows], stack=True)
    return (f'<h3>{title}</h3><svg viewBox="0 0 480 {y}" width="480" role="img" aria-label="{title}">'
            f'<title>{title}</title>{"".join(parts)}</svg>{data}')


def charts_html(report: dict, extra: dict | None) -> str:
    s, results, extra = report["summary"], report["results"], extra or {}
    limit, ranking = float(s["min_relevance"]), [("hit_at_k", f"Hit@{s['k']}"), ("mrr_at_k", f"MRR@{s['k']}")]
    below = sum(1 for r in results if r["answerable"] and r["best_score"] < limit)
    above = sum(1 for r in results if not r["answerable"] and r["best_score"] >= limit)
    parts = [f"<h2>Charts</h2><h3>Best retrieval score against the gate</h3>{score_chart(results, limit)}"
             f"<p>Answerable questions below the gate (refused without asking the model): {below} of "
             f"{s['answerable']}. Unanswerable questions at or above it (the model had to refuse): "
             f"{above} of {s['unanswerable']}.</p>"]
    if extra.get("retrieval_modes"):
        parts.append(sweep_html("Hit@k and MRR by retrieval mode", extra["retrieval_modes"], "retrieval", ranking))
    if extra.get("chunk_sizes"):
        parts.append(sweep_html("Chunk-size sweep (overlap a quarter of the size)", extra["chunk_sizes"], "chunk_size",
                                ranking + [("answer_rate", "answer rate"), ("faithfulness_answered", "faithfulness")]))
    return "".join(parts) + ("" if extra else "<p>Retrieval modes and chunk sizes: run evaluate.py with --sweep.</p>")


def render_evaluation(report: dict, extra: dict | None = None, rows: list | None = None) -> str:
    """evaluate()'s {"summary", "results"} as a page; `extra`: evaluate.sweep's dict of summaries;
    `rows`: the summary's (key, label) lines to show (scoring.SUMMARY_ROWS)."""
    s, results = report["summary"], report["results"]
    fails = [[why for bad, why in ((r["answerable"] and r["refused"], "refused an answerable question"),
                                   (r["answerable"] and r.get("hit_rank") is None, "evidence not retrieved"),
                                   (not r["answerable"] and not r["refused"], "answered an unanswerable question"),
                                   (not r["refused"] and r["faithfulness"] < 1, f"faithfulness {r['faithfulness']:.2f}")
                                   ) if bad] for r in results]
    setting = (f"{s['questions']} questions ({s['answerable']} answerable, {s['unanswerable']} not); "
               f"{s['chunker']} chunker {s['chunk_size']}/{s['chunk_overlap']}, {s['retrieval']} retrieval, "
               f"k={s['k']}, gate {s['min_relevance']:g}; {s['model']} + {s['embedding_model']}")
    summary = f"<h2>Summary</h2><p>{esc(setting)}</p>" + table(
        ["metric", "value"], [[label.format(k=s["k"]), number(s.get(key))] for key, label in rows or []])
    doubt = [not f and doubtful(r) for f, r in zip(fails, results)]  # answered far from the reference

    def verdict(n: int, r: dict) -> str:
        if not doubt[n]:
            return tag(not fails[n], "passed", "failed") + " " + esc("; ".join(fails[n]))
        return f'<span class="tag warn">? read it</span> holds {r["answer_recall"]:.0%} of the reference answer\'s words'
    rows = [[str(n + 1), verdict(n, r), esc(r["question"]), "answerable" if r["answerable"] else "unanswerable",
             esc(r.get("hit_rank") or "-"), number(r["best_score"]), number(r.get("answer_recall"), 2),
             number(r["faithfulness"], 2), esc(r["answer"])]
            for n, r in sorted(enumerate(results), key=lambda pair: (not fails[pair[0]], not doubt[pair[0]]))]
    to_read = sum(doubt)
    questions = (f"<h2>Questions, failing first</h2><p>{sum(map(bool, fails))} of {len(results)} fail; "
                 f"{to_read} more {'is' if to_read == 1 else 'are'} answered with under "
                 f"{LOW_RECALL:.0%} of the reference answer's words, often the wrong sentence (a paraphrase can be "
                 f"right): read them.</p>" + table(["#", "result", "question", "expected", "hit rank", "best score",
                                                    "answer recall", "faithfulness", "answer"], rows, stack=True))
    return page("Evaluation report", "<h1>Evaluation report</h1>", [
        ("summary", "Summary", summary), ("charts", "Charts", charts_html(report, extra)),
        ("questions", "Questions", questions)])
