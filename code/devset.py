"""Measuring on the development set: nineteen real documents nobody tuned on, a row per document
and split, and the verifier on labelled claims.  [provided]

data/devset/ holds the question files (each question in the "tune" or the "heldout" half,
fixed before any tuning, or in "fresh": documents added later, written blind, never tuned on)
and claims.jsonl / fresh_claims.jsonl (context, claim, supported); the PDFs are fetched by
`python tools/fetch_devset.py` (data/devset/README.md: packages, versions, licences).

Run alone:  python code/evaluate.py --devset    (tune, held-out and fresh splits, per document)
            python code/evaluate.py --claims    (the verifier's balanced accuracy)
"""

from __future__ import annotations

import statistics
from pathlib import Path

from cli import one_line
from config import REPO_ROOT, Config, RAGError
from scoring import evaluate, fmt, load_questions, load_records, summarize

DEVSET = REPO_ROOT / "data" / "devset"
DEVSET_ROWS = [("hit_at_k", "Hit@{k}"), ("mrr_at_k", "MRR@{k}"), ("answer_rate", "answer rate"),
               ("answer_recall", "answer recall"), ("refusal_accuracy", "refusal acc."),
               ("answer_sentences", "sentences")]
# The claims' fixed tune/held-out split: per edit type, shuffled with this seed, first half tune.
CLAIMS_SEED = "claims-20240611"
SPLITS = ("tune", "heldout", "fresh")


def run(cfg: Config, progress: bool = False, splits: tuple[str, ...] = SPLITS, rewrite=None) -> dict:
    """Every dev-set document evaluated once: {"summary": {document or "overall": {split: summary}}},
    "results": [each question's result, with its "document" and "split"]}; a split appears where
    the document has questions in it. Only the questions of `splits` are asked, so a change can
    be tried on the tuning half without a look at the others. `rewrite(question item)`, if
    given, is the item as asked instead (tools/typo_devset.py: the questions misspelt)."""
    files = sorted(DEVSET.glob("*.questions.jsonl"))
    pdfs = [DEVSET / "pdfs" / f.name.replace(".questions.jsonl", ".pdf") for f in files]
    if not files or not all(p.is_file() for p in pdfs):
        raise RAGError(f"the dev set PDFs are missing from {DEVSET / 'pdfs'}: run python tools/fetch_devset.py")
    table, pooled, everything = {}, {split: [] for split in splits}, []
    for path, pdf in zip(files, pdfs):
        questions = [rewrite(q) if rewrite else q for q in load_questions(path) if q.get("split") in splits]
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


def claims_benchmark(cfg: Config, splits: tuple[str, ...] = SPLITS, path: str | None = None) -> dict:
    """The configured verifier on the labelled claims of `splits` (or, given `path`, on that
    file's claims alone, as one split named after it): balanced accuracy per split and per edit."""
    from chunker import Chunk
    from faithfulness import check_faithfulness

    if path:
        splits = (Path(path).name,)
        items = [{**item, "split": splits[0]} for item in load_claims(path)]
    else:
        items = [i for i in _devset_claims() if i["split"] in splits]
    for item in items:
        item["verdict"] = check_faithfulness("", [Chunk("c0", item["context"])], [item["claim"]], cfg).verdicts[0]
    out = {}
    for split in [s for s in splits if any(i["split"] == s for i in items)] + ["all"] * (len(splits) > 1):
        mine = [i for i in items if split in ("all", i["split"])]
        right = {e: statistics.fmean(i["verdict"] == i["supported"] for i in mine if i["edit"] == e)
                 for e in sorted({i["edit"] for i in mine})}
        classes = [statistics.fmean(i["verdict"] == i["supported"] for i in mine if i["supported"] is s)
                   for s in (True, False) if any(i["supported"] is s for i in mine)]
        out[split] = {"claims": len(mine), "balanced_accuracy": round(statistics.fmean(classes), 4),
                      **{e: round(v, 4) for e, v in right.items()}}
    return {"summary": out, "results": items}


def print_claims(report: dict, wrong_verdicts: bool = False) -> None:
    """A line per split; with `wrong_verdicts`, then each claim judged against its label."""
    for split, summary in report["summary"].items():  # a file's name, its "edit" values and claims are its text
        mine = [i for i in report["results"] if split in ("all", i["split"])]
        counts = {k: f" ({sum(i['edit'] == k for i in mine)})" for k in summary if k not in ("claims", "balanced_accuracy")}
        print(one_line(f"{split:<8} " + "  ".join(f"{k} {fmt(v)}{counts.get(k, '')}" for k, v in summary.items())))
    for item in report["results"] if wrong_verdicts else []:
        if item["verdict"] != item["supported"]:
            said, label = ("Yes", "not supported") if item["verdict"] else ("No", "supported")
            print(one_line(f"  said {said}, labelled {label}: {item['claim']}"))


def _devset_claims() -> list[dict]:
    """claims.jsonl in its fixed tune/held-out halves (per edit type, shuffled with CLAIMS_SEED,
    the first half tune), then fresh_claims.jsonl."""
    import random

    items = load_claims(DEVSET / "claims.jsonl")
    for edit in sorted({i["edit"] for i in items}):
        group = [i for i in items if i["edit"] == edit]
        random.Random(CLAIMS_SEED).shuffle(group)
        for n, item in enumerate(group):
            item["split"] = "tune" if n < (len(group) + 1) // 2 else "heldout"
    return items + [{**item, "split": "fresh"} for item in load_claims(DEVSET / "fresh_claims.jsonl")]


def load_claims(path) -> list[dict]:
    """A JSONL (or JSON list) file of {"context", "claim", "supported", "edit" (optional: what
    kind of claim, for the accuracy per kind; by default "supported" or "not supported")}."""
    return load_records(path, "claims file not found (or not a file); pass --claims FILE (JSONL)", _check_claim,
                        '{"context": "...", "claim": "...", "supported": true}')


def _check_claim(item: object, where: str) -> dict:
    if not isinstance(item, dict):
        raise RAGError(f"{where}: expected a JSON object like {{\"context\": \"...\", \"claim\": \"...\", "
                       f"\"supported\": true}}; fix that entry")
    for key in ("context", "claim"):
        if not isinstance(item.get(key), str) or not item[key].strip():
            raise RAGError(f"{where}: \"{key}\" is missing, empty or not a string; give every entry a {key} as a string")
    if not isinstance(item.get("supported"), bool):
        raise RAGError(f"{where}: \"supported\" must be true or false (JSON booleans, unquoted)")
    if item.get("edit") is not None and not isinstance(item["edit"], str):
        raise RAGError(f"{where}: \"edit\" must be a string naming the kind of claim (e.g. \"paraphrase\"); quote it")
    return {**item, "edit": item.get("edit") or ("supported" if item["supported"] else "not supported")}
