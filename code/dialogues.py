"""After the pipeline, in conversation: scripted dialogues scored turn by turn.  [provided]

Each dialogue is run the way `rag.py --chat` runs one (chat.respond: the question is searched
as it is, or completed from the last turn when that finds stronger evidence, then rag.ask), and
each turn is also asked alone, out of its conversation, so a turn can be compared with itself.
The scores are the question sets' (Hit@k, answer rate, refusal accuracy, answer recall), for
standalone and follow-up turns apart, in tune and held-out dialogues; a standalone turn that
does worse inside the conversation than alone is listed by name.

The file is a JSON list of dialogues:
    {"pdf": "data/sample_report.pdf" (relative to the repo, or absolute; or a list of PDFs,
     asked together as `rag.py --chat A.pdf B.pdf` asks them), "split": "tune" or
     "heldout", "name": optional, "turns": [{"question", "answer", "evidence", "answerable",
     "followup": true when the turn needs the conversation to be understood}, ...]}

Run:  python code/evaluate.py --dialogues data/dialogues.json [--json OUT]
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

import chat
import rag
from cli import input_text
from config import REPO_ROOT, Config, RAGError
from documents import index_documents
from scoring import answer_recall, fmt, hit_rank
from store import usable_store

SPLITS = ("tune", "heldout")
KINDS = ("standalone", "followup")


# ------------------------------------------------------------------------------ the file

def check_turn(turn: object, where: str) -> dict:
    if not isinstance(turn, dict) or not isinstance(turn.get("question"), str) or not turn["question"].strip():
        raise RAGError(f"{where}: a turn is an object with a non-empty \"question\"; fix that turn")
    for key in ("answerable", "followup"):
        if not isinstance(turn.get(key, key == "answerable"), bool):
            raise RAGError(f"{where}: \"{key}\" must be true or false (JSON booleans, unquoted)")
    answerable = turn.get("answerable", True)
    evidence = turn.get("evidence") or turn.get("answer") or ""
    if answerable and not evidence.strip():
        raise RAGError(f"{where}: an answerable turn needs an \"evidence\" or \"answer\" text; "
                       f"add one or set \"answerable\": false")
    return {**turn, "question": turn["question"].strip(), "answer": turn.get("answer") or "",
            "evidence": evidence, "answerable": answerable, "followup": turn.get("followup", False)}


def check_dialogue(dialogue: object, n: int, path: Path) -> dict:
    where = f"{path} dialogue {n}"
    if not isinstance(dialogue, dict) or not isinstance(dialogue.get("turns"), list) or not dialogue["turns"]:
        raise RAGError(f"{where}: expected {{\"pdf\": ..., \"turns\": [...]}} with at least one turn")
    named = dialogue.get("pdf")
    named = [named] if isinstance(named, str) else named
    if not isinstance(named, list) or not named:
        raise RAGError(f"{where}: \"pdf\" is missing; name the PDF it is about, e.g. \"pdf\": \"data/sample_report.pdf\", "
                       f"or a list of PDFs")
    if not all(isinstance(p, str) and p.strip() for p in named):
        raise RAGError(f"{where}: each entry of \"pdf\" is a PDF's path in quotes; fix {named!r}")
    pdfs = tuple(Path(p) if Path(p).is_absolute() else REPO_ROOT / p for p in named)
    for pdf in pdfs:
        if pdf.is_dir():
            raise RAGError(f"{where}: {pdf} is a folder; name the PDF files in it")
        if not pdf.is_file():
            raise RAGError(f"{where}: PDF {pdf} not found (data/devset/pdfs: python tools/fetch_devset.py)")
    if dialogue.get("split", "tune") not in SPLITS:
        raise RAGError(f"{where}: \"split\" must be \"tune\" or \"heldout\"")
    turns = [check_turn(t, f"{where} turn {i}") for i, t in enumerate(dialogue["turns"], start=1)]
    return {**dialogue, "name": dialogue.get("name") or f"dialogue {n}", "pdf": pdfs,
            "split": dialogue.get("split", "tune"), "turns": turns}


def load_dialogues(path: str | Path) -> list[dict]:
    """Parse and check a dialogue file; a bad entry is a RAGError naming its dialogue and turn."""
    path = Path(path)
    text = input_text(path, "dialogue file not found (or not a file); pass --dialogues FILE (a JSON list)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        line = min(exc.lineno, len(text.rstrip().splitlines()) or 1)  # a file cut short fails past its end
        raise RAGError(f"{path} line {line}: invalid JSON ({exc.msg}); fix that line") from None
    if not isinstance(data, list) or not data:
        raise RAGError(f"{path}: expected a JSON list of dialogues")
    return [check_dialogue(d, n, path) for n, d in enumerate(data, start=1)]


# ------------------------------------------------------------------------------- the run

def score(turn: dict, result) -> dict:
    refused = result.answer.refused
    recall = (0.0 if refused else answer_recall(turn["answer"], result.answer.text)) if turn["answer"] else None
    return {"answer": result.answer.text, "refused": refused, "best_score": result.gate["best_score"],
            "hit_rank": hit_rank(turn["evidence"], [c.text for c in result.retrieved]) if turn["answerable"] else None,
            "answer_recall": round(recall, 4) if turn["answerable"] and recall is not None else None}


def run_dialogue(dialogue: dict, documents, cfg: Config) -> list[dict]:
    """Every turn in its conversation and alone (the same result when it was searched as it is)."""
    records, last = [], None
    for n, turn in enumerate(dialogue["turns"], start=1):
        result, last = chat.respond(documents, turn["question"], last, cfg, rag.ask)
        alone = rag.ask(documents, turn["question"], cfg) if result.completed() else result
        records.append({"dialogue": dialogue["name"], "split": dialogue["split"], "turn": n,
                        "question": turn["question"], "followup": turn["followup"],
                        "answerable": turn["answerable"], "reference": turn["answer"],
                        "search": result.search, "completed": result.completed(),
                        **score(turn, result),
                        "alone": score(turn, alone)})
    return records


def worse_alone(record: dict) -> bool:
    """Did this turn do worse in its conversation than asked alone (retrieval, refusal, recall)?"""
    alone = record["alone"]
    if not record["answerable"]:
        return alone["refused"] and not record["refused"]
    return ((alone["hit_rank"] is not None and record["hit_rank"] is None)
            or (record["refused"] and not alone["refused"])
            or (record["answer_recall"] or 0.0) < (alone["answer_recall"] or 0.0) - 1e-9)


def metrics(records: list[dict]) -> dict:
    """The question sets' scores over turns (Hit@k counts a hit among the k retrieved)."""
    def mean(values) -> float | None:
        values = list(values)
        return round(statistics.fmean(values), 4) if values else None

    def scores(rs: list[dict]) -> dict:
        answerable = [r for r in rs if r["answerable"]]
        return {"hit_at_k": mean(r["hit_rank"] is not None for r in answerable),
                "answer_rate": mean(not r["refused"] for r in answerable),
                "refusal_accuracy": mean(r["refused"] for r in rs if not r["answerable"]),
                "answer_recall": mean(r["answer_recall"] for r in answerable if r["answer_recall"] is not None)}

    return {"turns": len(records), "answerable": sum(r["answerable"] for r in records),
            "completed": mean(r["completed"] for r in records), **scores(records),
            "alone": scores([r["alone"] | {"answerable": r["answerable"]} for r in records]),
            "worse_than_alone": sum(worse_alone(r) for r in records)}


def evaluate_dialogues(dialogues: list[dict], cfg: Config, progress: bool = False) -> dict:
    """Run every dialogue; {"summary": {split or "all": {kind: metrics}}, "results": [turns]}."""
    cfg = usable_store(cfg)
    records, indexed = [], {}
    for n, dialogue in enumerate(dialogues, start=1):
        if progress:
            print(f"\r  dialogue {n}/{len(dialogues)}", end="", file=sys.stderr, flush=True)
        if dialogue["pdf"] not in indexed:
            indexed[dialogue["pdf"]] = index_documents(list(dialogue["pdf"]), cfg, show_progress=False)
        records += run_dialogue(dialogue, indexed[dialogue["pdf"]], cfg)
    if progress:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)
    summary = {split: {kind: metrics([r for r in records if split in ("all", r["split"])
                                      and r["followup"] == (kind == "followup")]) for kind in KINDS}
               for split in (*SPLITS, "all")}
    summary["settings"] = {"k": cfg.top_k, "retrieval": cfg.retrieval, "model": cfg.model,
                           "embedding_model": cfg.embedding_model, "follow_up_margin": chat.FOLLOW_UP_MARGIN,
                           "dialogues": len(dialogues), "turns": len(records)}
    return {"summary": summary, "results": records}


# ------------------------------------------------------------------------------ the report

ROWS = [("hit_at_k", "Hit@{k}"), ("answer_rate", "answer"), ("refusal_accuracy", "refusal"),
        ("answer_recall", "recall")]


def print_dialogues(report: dict) -> None:
    s = report["summary"]
    settings = s["settings"]
    print(f"{settings['dialogues']} dialogues, {settings['turns']} turns | retrieval {settings['retrieval']} | "
          f"follow-up margin {settings['follow_up_margin']} | {settings['model']} + {settings['embedding_model']}")
    labels = "  ".join(f"{label.format(k=settings['k']):>7}" for _, label in ROWS)
    print(f"{'split':<8} {'turns':<10} {'n':>3} {'ans':>3}  {labels}  {'completed':>9}  | alone: {labels}  worse")
    for split in (*SPLITS, "all"):
        for kind in KINDS:
            m = s[split][kind]
            print(f"{split:<8} {kind:<10} {m['turns']:>3} {m['answerable']:>3}  "
                  + "  ".join(f"{fmt(m[key]):>7}" for key, _ in ROWS) + f"  {fmt(m['completed']):>9}  |        "
                  + "  ".join(f"{fmt(m['alone'][key]):>7}" for key, _ in ROWS) + f"  {m['worse_than_alone']:>5}")
    worse = [r for r in report["results"] if not r["followup"] and worse_alone(r)]
    print(f"standalone turns worse than when asked alone: {len(worse)}")
    for r in worse:
        print(f"  [{r['split']}] {r['dialogue']} turn {r['turn']}: {r['question']!r} searched as {r['search']!r}")
