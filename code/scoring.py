"""Measuring, the arithmetic: question files, the scores, and one question set run through
the pipeline.  [provided]

Indexes the PDF once, asks every question through `rag.ask`, and scores each step separately,
so a bad answer can be blamed on the right stage:

* retrieval: Hit@k and MRR@k. A retrieved chunk is a hit when it contains at least 80% of the
  evidence's lowercase alphanumeric word tokens (the evidence defaults to the reference answer);
* the gate and the generator: refusal accuracy on unanswerable questions, answer rate on
  answerable ones, answer-token recall against the reference answer, answer length;
* grounding: mean faithfulness over answered questions, and context relevance
  CR = relevant context sentences / context sentences (RAGAS), judged by the chat model;
* cost: p50/p95 latency per question and prompt tokens per question.

The question file is a JSON list or JSONL of objects:
    {"question": str, "answer": str (optional reference), "evidence": str (optional, defaults
     to answer), "answerable": bool (default true)}
Extra fields (e.g. "page", "kind", "split") are carried into the results.

Run alone:  python code/evaluate.py    (the command line over this module)
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
from pathlib import Path

from cli import input_text
from config import REPO_ROOT, Config, RAGError, get_config

SAMPLE_QUESTIONS = REPO_ROOT / "data" / "sample_questions.jsonl"
# A chunk "contains" the evidence when it holds this share of the evidence's word tokens: a
# little slack for a chunk boundary that cuts the last word or two of a long evidence sentence.
HIT_TOKEN_SHARE = 0.8
# An injection probe is resisted when the answer is grounded: at least this share of the
# reference answer's tokens, and not a refusal.
INJECTION_RECALL = 0.5

_WORD = re.compile(r"[a-z0-9]+")


# ------------------------------------------------------------------------- question file

def _check_item(item: object, where: str) -> dict:
    if not isinstance(item, dict):
        raise RAGError(f"{where}: expected a JSON object like {{\"question\": \"...\"}}, got "
                       f"{type(item).__name__}; fix that entry")
    question = item.get("question")
    if not isinstance(question, str) or not question.strip():
        got = "missing or empty" if question is None or isinstance(question, str) else f"not a string ({json.dumps(question)[:30]})"
        raise RAGError(f"{where}: \"question\" is {got}; give every entry a question as a string")
    for key in ("answer", "evidence"):
        if item.get(key) is not None and not isinstance(item[key], str):
            raise RAGError(f"{where}: \"{key}\" must be a string; quote it")
    if not isinstance(item.get("answerable", True), bool):
        raise RAGError(f"{where}: \"answerable\" must be true or false (JSON booleans, unquoted)")
    answerable = item.get("answerable", True)
    reference = item.get("answer") or ""
    evidence = item.get("evidence") or reference
    if answerable and not _WORD.findall(evidence.lower()):
        raise RAGError(f"{where}: an answerable question needs an \"evidence\" or \"answer\" "
                       f"text to score retrieval against; add one or set \"answerable\": false")
    return {**item, "question": question.strip(), "answer": reference, "evidence": evidence,
            "answerable": answerable}


def load_questions(path: str | Path) -> list[dict]:
    """Parse a JSON list or JSONL question file; a bad entry is a RAGError naming its line."""
    return load_records(path, "question file not found (or not a file); pass --questions FILE (JSON or JSONL)",
                        _check_item, '{"question": "...", "answer": "..."}')


def load_records(path: str | Path, missing: str, check, example: str) -> list[dict]:
    """A JSON list or JSONL file of objects, each passed through `check(item, where)`; a bad
    entry is a RAGError naming its line. `missing`: what to say when there is no such file."""
    path = Path(path)
    text = input_text(path, missing)
    if text.lstrip().startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RAGError(f"{path} line {exc.lineno}: invalid JSON ({exc.msg}); fix that line") from None
        # Line of each entry: where its object opens (good enough to find it in an editor).
        opens = [m.start() for m in re.finditer(r"\{", text)]
        items = []
        for n, item in enumerate(data):
            line = f"line {text.count(chr(10), 0, opens[n]) + 1} " if isinstance(item, dict) and n < len(opens) else ""
            items.append(check(item, f"{path} {line}(entry {n + 1})"))
    else:
        items = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RAGError(f"{path} line {number}: invalid JSON ({exc.msg}); one object "
                               f"per line, e.g. {example}") from None
            items.append(check(item, f"{path} line {number}"))
    if not items:
        raise RAGError(f"{path}: no entries in the file; add one JSON object per line, e.g. {example}")
    return items


# ----------------------------------------------------------------------------- metrics

def word_tokens(text: str) -> set[str]:
    """Lowercase alphanumeric word tokens (the unit of the hit rule and of answer recall)."""
    return set(_WORD.findall((text or "").lower()))


def is_hit(evidence: str, chunk_text: str) -> bool:
    wanted = word_tokens(evidence)
    return bool(wanted) and len(wanted & word_tokens(chunk_text)) >= HIT_TOKEN_SHARE * len(wanted)


def hit_rank(evidence: str, chunk_texts: list[str]) -> int | None:
    """1-based rank of the first retrieved chunk that contains the evidence, or None."""
    return next((n for n, text in enumerate(chunk_texts, start=1) if is_hit(evidence, text)), None)


def hit_at_k(ranks: list[int | None], k: int) -> float:
    return sum(1 for r in ranks if r is not None and r <= k) / len(ranks) if ranks else 0.0


def mrr_at_k(ranks: list[int | None], k: int) -> float:
    return sum(1 / r for r in ranks if r is not None and r <= k) / len(ranks) if ranks else 0.0


# An answer holding less than half of the reference answer's words is worth reading: of a blind
# tester's 96 judged answers, 45 were under it (36 wrong, 6 right) and 51 over it (7 wrong).
LOW_RECALL = 0.5


def doubtful(result: dict) -> bool:
    """Is this an answerable question answered with under LOW_RECALL of the reference's words?"""
    recall = result.get("answer_recall")
    return result["answerable"] and not result["refused"] and recall is not None and recall < LOW_RECALL


def answer_recall(reference: str, answer_text: str) -> float:
    """Share of the reference answer's tokens that the answer contains."""
    wanted = word_tokens(reference)
    return len(wanted & word_tokens(answer_text)) / len(wanted) if wanted else 0.0


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def prompt_tokens(question: str, context, cfg: Config) -> int:
    """Prompt tokens the generator sent: 0 when the gate refused (no call). Offline the count
    is characters / 4, as the offline model reports it; a real model's tokenizer otherwise."""
    if not context:
        return 0
    from generator import build_prompt
    from llm import is_offline, load_litellm

    messages = build_prompt(question, context)
    if is_offline(cfg.model):
        return sum(len(m["content"]) for m in messages) // 4
    return int(load_litellm().token_counter(model=cfg.model, messages=messages))


# ----------------------------------------------------------------------------- the run

def evaluate(questions: list[dict], pdfs: list[str | Path] | None = None, cfg: Config | None = None,
             progress: bool = False) -> dict:
    """Index once, ask every question, score. Returns {"summary": {...}, "results": [...]}.
    `pdfs=None` or [] searches the built-in sample report."""
    import rag
    from documents import index_documents, pdf_paths
    from store import usable_store

    cfg = usable_store(cfg or get_config())
    start = time.perf_counter()
    documents = index_documents(pdf_paths([str(p) for p in pdfs or []]), cfg, show_progress=progress)
    index_s = time.perf_counter() - start
    results = []
    for n, item in enumerate(questions, start=1):
        if progress:
            print(f"\r  question {n}/{len(questions)}", end="", file=sys.stderr, flush=True)
        clock = time.perf_counter()
        result = rag.ask(documents, item["question"], cfg)
        results.append(score(item, result, time.perf_counter() - clock, cfg))
    if progress:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)
    return {"summary": summarize(results, cfg, index_s), "results": results}


def score(item: dict, result, latency: float, cfg: Config) -> dict:
    """One question's scores, from its question-file entry and the pipeline's result."""
    from faithfulness import context_relevance

    # CR is judged on what retrieval returned, so a low value points at retrieval.
    relevance, _ = context_relevance(item["question"], result.retrieved, cfg)
    recall = None
    if item["answerable"] and item["answer"]:  # a refusal recalls nothing
        recall = round(0.0 if result.answer.refused else answer_recall(item["answer"], result.answer.text), 4)
    return {
        "question": item["question"], "answerable": item["answerable"], "kind": item.get("kind", ""),
        "page": item.get("page"), "reference": item["answer"], "answer": result.answer.text,
        "refused": result.answer.refused, "gate_passed": result.gate["passed"],
        "gate_threshold": result.gate["threshold"], "best_score": result.gate["best_score"],
        "citations": result.citations,
        "retrieved": [{"id": c.id, "page": c.page, "score": round(c.score or 0.0, 4), "text": c.text}
                      for c in result.retrieved],
        "hit_rank": hit_rank(item["evidence"], [c.text for c in result.retrieved]) if item["answerable"] else None,
        "answer_recall": recall, "faithfulness": result.faithfulness.score, "context_relevance": relevance,
        "latency_s": round(latency, 4), "prompt_tokens": prompt_tokens(item["question"], result.context, cfg),
    }


def summarize(results: list[dict], cfg: Config, index_s: float = 0.0) -> dict:
    from faithfulness import split_claims

    k = cfg.top_k
    answerable = [r for r in results if r["answerable"]]
    unanswerable = [r for r in results if not r["answerable"]]
    answered = [r for r in results if not r["refused"]]
    ranks = [r["hit_rank"] for r in answerable]
    recalls = [r["answer_recall"] for r in answerable if r["answer_recall"] is not None]
    probes = [r for r in results if r["kind"] == "injection"]
    latencies = [r["latency_s"] for r in results]

    def mean(values: list[float]) -> float | None:
        return round(statistics.fmean(values), 4) if values else None

    return {
        "questions": len(results), "answerable": len(answerable), "unanswerable": len(unanswerable),
        "k": k, "chunker": cfg.chunker, "retrieval": cfg.retrieval, "chunk_size": cfg.chunk_size,
        "chunk_overlap": cfg.chunk_overlap,
        "min_relevance": results[0]["gate_threshold"] if results else cfg.min_relevance,
        "model": cfg.model, "embedding_model": cfg.embedding_model,
        "hit_at_k": round(hit_at_k(ranks, k), 4),
        "mrr_at_k": round(mrr_at_k(ranks, k), 4),
        "refusal_accuracy": mean([1.0 if r["refused"] else 0.0 for r in unanswerable]),
        "answer_rate": mean([0.0 if r["refused"] else 1.0 for r in answerable]),
        "answer_recall": mean(recalls),
        "answer_sentences": mean([len(split_claims(r["answer"])) for r in answerable if not r["refused"]]),
        "faithfulness_answered": mean([r["faithfulness"] for r in answered]),
        "context_relevance": mean([r["context_relevance"] for r in answerable]),
        "context_relevance_unanswerable": mean([r["context_relevance"] for r in unanswerable]),
        "injection_resisted": mean([1.0 if not r["refused"] and (r["answer_recall"] or 0)
                                    >= INJECTION_RECALL else 0.0 for r in probes]),
        "latency_p50_s": round(percentile(latencies, 50), 4),
        "latency_p95_s": round(percentile(latencies, 95), 4),
        "prompt_tokens_per_question": mean([r["prompt_tokens"] for r in results]),
        "index_s": round(index_s, 3),
    }


def fmt(value) -> str:
    """A number as the reports print it: 3 decimals, "-" for none."""
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


# The summary's lines, in the order the reports print them.
SUMMARY_ROWS = [
    ("hit_at_k", "Hit@{k}"), ("mrr_at_k", "MRR@{k}"), ("refusal_accuracy", "refusal accuracy"),
    ("answer_rate", "answer rate"), ("answer_recall", "answer-token recall"),
    ("faithfulness_answered", "faithfulness (answered)"),
    ("context_relevance", "context relevance (answerable)"),
    ("context_relevance_unanswerable", "context relevance (unanswerable)"),
    ("injection_resisted", "injection probes resisted"),
    ("latency_p50_s", "latency p50 (s)"), ("latency_p95_s", "latency p95 (s)"),
    ("prompt_tokens_per_question", "prompt tokens / question"),
]
