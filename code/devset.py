"""Measuring on the development set: six real documents nobody tuned on, halves side by side,
and the verifier on labelled claims.  [provided]

data/devset/ holds the question files (each question in the "tune" or the "heldout" half,
fixed before any tuning) and claims.jsonl (context, claim, supported); the PDFs are fetched by
`python tools/fetch_devset.py` (data/devset/README.md: packages, versions, licences).

Run alone:  python code/evaluate.py --devset    (tune and held-out halves, per document)
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


def run(cfg: Config, progress: bool = False) -> dict:
    """Every dev-set document evaluated once: {"summary": {document or "overall": {"tune"|"heldout":
    summary}}, "results": [each question's result, with its "document" and "split"]}."""
    files = sorted(DEVSET.glob("*.questions.jsonl"))
    pdfs = [DEVSET / "pdfs" / f.name.replace(".questions.jsonl", ".pdf") for f in files]
    if not files or not all(p.is_file() for p in pdfs):
        raise RAGError(f"the dev set PDFs are missing from {DEVSET / 'pdfs'}: run python tools/fetch_devset.py")
    table, pooled, everything = {}, {"tune": [], "heldout": []}, []
    for path, pdf in zip(files, pdfs):
        questions = load_questions(path)
        results = evaluate(questions, [pdf], cfg, progress=progress)["results"]
        everything += [{"document": pdf.stem, "split": q.get("split"), **r} for r, q in zip(results, questions)]
        for split in pooled:
            mine = [r for r, q in zip(results, questions) if q.get("split") == split]
            pooled[split] += mine
            table.setdefault(pdf.stem, {})[split] = summarize(mine, cfg)
    table["overall"] = {split: summarize(results, cfg) for split, results in pooled.items()}
    return {"summary": table, "results": everything}


def print_devset(report: dict) -> None:
    table = report["summary"]
    k = table["overall"]["tune"]["k"]
    print(f"{'document':<16} {'n tune/held':>11}" + "".join(f" {label.format(k=k):>15}" for _, label in DEVSET_ROWS))
    print(f"{'':<28}" + f" {'tune':>6} / {'held':<6}" * len(DEVSET_ROWS))
    for name, halves in table.items():
        t, h = halves["tune"], halves["heldout"]
        print(f"{name:<16} {t['questions']:>5}/{h['questions']:<5}"
              + "".join(f" {fmt(t[key]):>6} / {fmt(h[key]):<6}" for key, _ in DEVSET_ROWS))


def claims_benchmark(cfg: Config) -> dict:
    """The configured verifier on the labelled claims: balanced accuracy per split and per edit."""
    import random

    from chunker import Chunk
    from faithfulness import check_faithfulness

    items = [json.loads(line) for line in (DEVSET / "claims.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    for edit in sorted({i["edit"] for i in items}):
        group = [i for i in items if i["edit"] == edit]
        random.Random(CLAIMS_SEED).shuffle(group)
        for n, item in enumerate(group):
            item["split"] = "tune" if n < (len(group) + 1) // 2 else "heldout"
    for item in items:
        item["verdict"] = check_faithfulness("", [Chunk("c0", item["context"])], [item["claim"]], cfg).verdicts[0]
    out = {}
    for split in ("tune", "heldout", "all"):
        mine = [i for i in items if split in ("all", i["split"])]
        right = {e: statistics.fmean(i["verdict"] == i["supported"] for i in mine if i["edit"] == e)
                 for e in sorted({i["edit"] for i in mine})}
        classes = [statistics.fmean(i["verdict"] == i["supported"] for i in mine if i["supported"] is s) for s in (True, False)]
        out[split] = {"claims": len(mine), "balanced_accuracy": round(statistics.fmean(classes), 4),
                      **{e: round(v, 4) for e, v in right.items()}}
    return {"summary": out, "results": items}
