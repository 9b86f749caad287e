"""Measuring on the development set: fifteen real documents nobody tuned on, a row per document
and split, and the verifier on labelled claims.  [provided]

data/devset/ holds the question files (each question in the "tune" or the "heldout" half,
fixed before any tuning, or in "fresh": documents added later, written blind, never tuned on)
and claims.jsonl / fresh_claims.jsonl (context, claim, supported); the PDFs are fetched by
`python tools/fetch_devset.py` (data/devset/README.md: packages, versions, licences).

Run alone:  python code/evaluate.py --devset    (tune, held-out and fresh splits, per document)
            python code/evaluate.py --claims    (the verifier's balanced accuracy)
"""

from __future__ import annotations

import json
import statistics

from config import REPO_ROOT, Config, RAGError
from scoring import evaluate, fmt, load_questions, summarize

DEVSET = REPO_ROOT / "data" / "devset"
DEVSET_ROWS = [("hit_at_k", "Hit@{k}"), ("mrr_at_k", "MRR@{k}"), ("answer_rate", "answer rate"),
               ("answer_recall", "answer recall"), ("refusal_accuracy", "refusal acc."),
               ("answer_sentences", "sentences")]
# The claims' fixed tune/held-out split: per edit type, shuffled with this seed, first half tune.
CLAIMS_SEED = "claims-20240611"
SPLITS = ("tune", "heldout", "fresh")


def run(cfg: Config, progress: bool = False, splits: tuple[str, ...] = SPLITS) -> dict:
    """Every dev-set document evaluated once: {"summary": {document or "overall": {split: summary}}},
    "results": [each question's result, with its "document" and "split"]}; a split appears where
    the document has questions in it. Only the questions of `splits` are asked, so a change can
    be tried on the tuning half without a look at the others."""
    files = sorted(DEVSET.glob("*.questions.jsonl"))
    pdfs = [DEVSET / "pdfs" / f.name.replace(".questions.jsonl", ".pdf") for f in files]
    if not files or not all(p.is_file() for p in pdfs):
        raise RAGError(f"the dev set PDFs are missing from {DEVSET / 'pdfs'}: run python tools/fetch_devset.py")
    table, pooled, everything = {}, {split: [] for split in splits}, []
    for path, pdf in zip(files, pdfs):
        questions = [q for q in load_questions(path) if q.get("split") in splits]
        if not questions:
            continue
        results = evaluate(questions, [pdf], cfg, progress=progress)["results"]
        everything += [{"document": pdf.stem, "split": q.get("split"), **r} for r, q in zip(results, questions)]
        for split in pooled:
            mine = [r for r, q in zip(results, questions) if q.get("split") == split]
            pooled[split] += mine
            if mine:
                table.setdefault(pdf.stem, {})[split] = summarize(mine, cfg)
    table["overall"] = {split: summarize(results, cfg) for split, results in pooled.items() if results}
    return {"summary": table, "results": everything}


def print_devset(report: dict) -> None:
    table = report["summary"]
    splits = list(table["overall"])
    k = table["overall"][splits[0]]["k"]
    print(f"{'document':<16} {'split':<8} {'n':>4}" + "".join(f" {label.format(k=k):>15}" for _, label in DEVSET_ROWS))
    for name, halves in table.items():
        for split, summary in halves.items():
            print(f"{name:<16} {split:<8} {summary['questions']:>4}"
                  + "".join(f" {fmt(summary[key]):>15}" for key, _ in DEVSET_ROWS))


def claims_benchmark(cfg: Config, splits: tuple[str, ...] = SPLITS) -> dict:
    """The configured verifier on the labelled claims of `splits`: balanced accuracy per split
    and per edit."""
    import random

    from chunker import Chunk
    from faithfulness import check_faithfulness

    items = _jsonl(DEVSET / "claims.jsonl")
    for edit in sorted({i["edit"] for i in items}):
        group = [i for i in items if i["edit"] == edit]
        random.Random(CLAIMS_SEED).shuffle(group)
        for n, item in enumerate(group):
            item["split"] = "tune" if n < (len(group) + 1) // 2 else "heldout"
    items += [{**item, "split": "fresh"} for item in _jsonl(DEVSET / "fresh_claims.jsonl")]
    items = [i for i in items if i["split"] in splits]
    for item in items:
        item["verdict"] = check_faithfulness("", [Chunk("c0", item["context"])], [item["claim"]], cfg).verdicts[0]
    out = {}
    for split in [s for s in splits if any(i["split"] == s for i in items)] + ["all"] * (len(splits) > 1):
        mine = [i for i in items if split in ("all", i["split"])]
        right = {e: statistics.fmean(i["verdict"] == i["supported"] for i in mine if i["edit"] == e)
                 for e in sorted({i["edit"] for i in mine})}
        classes = [statistics.fmean(i["verdict"] == i["supported"] for i in mine if i["supported"] is s) for s in (True, False)]
        out[split] = {"claims": len(mine), "balanced_accuracy": round(statistics.fmean(classes), 4),
                      **{e: round(v, 4) for e, v in right.items()}}
    return {"summary": out, "results": items}


def _jsonl(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
