"""After the pipeline: measure it over a question set.  [provided]

Indexes the PDF once, asks every question through `rag.ask`, and scores each step separately,
so a bad answer can be blamed on the right stage:

* retrieval: Hit@k and MRR@k. A retrieved chunk is a hit when it contains at least 80% of the
  evidence's lowercase alphanumeric word tokens (the evidence defaults to the reference answer);
* the gate and the generator: refusal accuracy on unanswerable questions, answer rate on
  answerable ones, answer-token recall against the reference answer;
* grounding: mean faithfulness over answered questions, and context relevance
  CR = relevant context sentences / context sentences (RAGAS), judged by the chat model;
* cost: p50/p95 latency per question and prompt tokens per question.

The question file is a JSON list or JSONL of objects:
    {"question": str, "answer": str (optional reference), "evidence": str (optional, defaults
     to answer), "answerable": bool (default true)}
Extra fields (e.g. "page", "kind") are carried into the results.

Run alone:  python code/evaluate.py                 (the sample report and its 39 questions)
            python code/evaluate.py --pdf report.pdf --questions qs.jsonl --top-k 5 --json out.json
            python code/evaluate.py --chunker sentence --retrieval bm25
            python code/evaluate.py --sweep --html eval.html   (modes and chunk sizes too, as a page)
            python code/evaluate.py --devset    (data/devset: tune and held-out halves side by side)
            python code/evaluate.py --claims    (the verifier on data/devset/claims.jsonl)
            python code/evaluate.py --dialogues data/dialogues.json   (conversations, turn by turn)
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
from pathlib import Path

from config import (REPO_ROOT, ArgumentParser, Config, RAGError, add_pipeline_flags, config_from_args,
                    get_config, run_cli)
from pdf_loader import SAMPLE_PDF

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
        raise RAGError(f"{where}: \"question\" is missing or empty; give every entry a question")
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
    path = Path(path)
    if not path.is_file():
        raise RAGError(f"{path}: question file not found; pass --questions FILE (JSON or JSONL)")
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RAGError(f"{path} line {exc.lineno}: invalid JSON ({exc.msg}); fix that line") from None
        # Line of each entry: where its object opens (good enough to find it in an editor).
        opens = [m.start() for m in re.finditer(r"\{", text)]
        items = []
        for n, item in enumerate(data):
            line = text.count("\n", 0, opens[n]) + 1 if n < len(opens) else "?"
            items.append(_check_item(item, f"{path} line {line} (entry {n + 1})"))
    else:
        items = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RAGError(f"{path} line {number}: invalid JSON ({exc.msg}); one object "
                               f"per line, e.g. {{\"question\": \"...\", \"answer\": \"...\"}}") from None
            items.append(_check_item(item, f"{path} line {number}"))
    if not items:
        raise RAGError(f"{path}: no questions in the file; add one JSON object per line")
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
    `pdfs=None` or [] searches the built-in sample pages."""
    import rag
    from documents import index_documents, pdf_paths
    from faithfulness import context_relevance

    cfg = cfg or get_config()
    start = time.perf_counter()
    documents = index_documents(pdf_paths([str(p) for p in pdfs or []]), cfg, show_progress=progress)
    index_s = time.perf_counter() - start
    results = []
    for n, item in enumerate(questions, start=1):
        if progress:
            print(f"\r  question {n}/{len(questions)}", end="", file=sys.stderr, flush=True)
        clock = time.perf_counter()
        result = rag.ask(documents, item["question"], cfg)
        latency = time.perf_counter() - clock
        # CR is judged on what retrieval returned, so a low value points at retrieval.
        relevance, _ = context_relevance(item["question"], result.retrieved, cfg)
        texts = [c.text for c in result.retrieved]
        rank = hit_rank(item["evidence"], texts) if item["answerable"] else None
        results.append({
            "question": item["question"],
            "answerable": item["answerable"],
            "kind": item.get("kind", ""),
            "page": item.get("page"),
            "reference": item["answer"],
            "answer": result.answer.text,
            "refused": result.answer.refused,
            "gate_passed": result.gate["passed"],
            "gate_threshold": result.gate["threshold"],
            "best_score": result.gate["best_score"],
            "citations": result.citations,
            "retrieved": [{"id": c.id, "page": c.page, "score": round(c.score or 0.0, 4),
                           "text": c.text} for c in result.retrieved],
            "hit_rank": rank,
            "answer_recall": round(0.0 if result.answer.refused  # a refusal recalls nothing
                                   else answer_recall(item["answer"], result.answer.text), 4)
            if item["answerable"] and item["answer"] else None,
            "faithfulness": result.faithfulness.score,
            "context_relevance": relevance,
            "latency_s": round(latency, 4),
            "prompt_tokens": prompt_tokens(item["question"], result.context, cfg),
        })
    if progress:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)
    return {"summary": summarize(results, cfg, index_s), "results": results}


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


SWEEP_CHUNK_SIZES = (60, 120, 240)


def sweep(questions: list[dict], pdfs, cfg: Config, report: dict, progress: bool = False) -> dict:
    """--sweep: the summary under each retrieval mode and each of SWEEP_CHUNK_SIZES (overlap a
    quarter of the size); `report`, the run with `cfg` itself, is reused where settings match."""
    from dataclasses import replace

    def summary(**change) -> dict:
        run_cfg = replace(cfg, **change)
        return report["summary"] if run_cfg == cfg else evaluate(questions, pdfs, run_cfg, progress)["summary"]

    return {"retrieval_modes": [summary(retrieval=mode) for mode in ("dense", "bm25", "hybrid")],
            "chunk_sizes": [summary(chunk_size=n, chunk_overlap=n // 4) for n in SWEEP_CHUNK_SIZES]}


# ----------------------------------------------------------------------------- output

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


def _fmt(value) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def print_report(report: dict) -> None:
    s = report["summary"]
    print(f"{'#':>2}  {'ok':<4} {'hit':>3} {'F':>4} {'CR':>4} {'s':>5}  question -> answer")
    for n, r in enumerate(report["results"], start=1):
        if r["answerable"]:
            ok = "ans" if not r["refused"] else "REF!"
        else:
            ok = "ref" if r["refused"] else "ANS!"  # an unanswerable question answered
        hit = "-" if not r["answerable"] else (str(r["hit_rank"]) if r["hit_rank"] else "x")
        answer = " ".join(r["answer"].split())
        print(f"{n:>2}  {ok:<4} {hit:>3} {r['faithfulness']:>4.2f} {r['context_relevance']:>4.2f} "
              f"{r['latency_s']:>5.2f}  {r['question'][:48]} -> {answer[:60]}")
    print(f"\n{s['questions']} questions ({s['answerable']} answerable, {s['unanswerable']} not) | "
          f"chunker {s['chunker']} {s['chunk_size']}/{s['chunk_overlap']} | retrieval "
          f"{s['retrieval']} | gate {s['min_relevance']} | {s['model']} + {s['embedding_model']}")
    for key, label in SUMMARY_ROWS:
        print(f"  {label.format(k=s['k']):<34} {_fmt(s[key])}")


def print_sweep(extra: dict) -> None:
    for key, rows in (("retrieval", extra["retrieval_modes"]), ("chunk_size", extra["chunk_sizes"])):
        for s in rows:
            print(f"  {key} {s[key]!s:<7} Hit@{s['k']} {_fmt(s['hit_at_k'])}  MRR@{s['k']} {_fmt(s['mrr_at_k'])}"
                  f"  answer rate {_fmt(s['answer_rate'])}  faithfulness {_fmt(s['faithfulness_answered'])}")


# ----------------------------------------------------------------------------- dev set

DEVSET = REPO_ROOT / "data" / "devset"
DEVSET_ROWS = [("hit_at_k", "Hit@{k}"), ("mrr_at_k", "MRR@{k}"), ("answer_rate", "answer rate"),
               ("answer_recall", "answer recall"), ("refusal_accuracy", "refusal acc."),
               ("answer_sentences", "sentences")]
# The claims' fixed tune/held-out split: per edit type, shuffled with this seed, first half tune.
CLAIMS_SEED = "claims-20240611"


def devset(cfg: Config, progress: bool = False) -> dict:
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
              + "".join(f" {_fmt(t[key]):>6} / {_fmt(h[key]):<6}" for key, _ in DEVSET_ROWS))


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


def run_devset_or_claims(args) -> None:
    """--devset or --claims: print the table, or write the report to --json."""
    cfg = config_from_args(args)
    report = devset(cfg, not args.json and sys.stderr.isatty()) if args.devset else claims_benchmark(cfg)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
    elif args.devset:
        print_devset(report)
    else:
        print("\n".join(f"{split:<8} " + "  ".join(f"{k} {_fmt(v)}" for k, v in s.items())
                        for split, s in report["summary"].items()))


def main(argv: list[str] | None = None) -> None:
    parser = ArgumentParser(prog="evaluate.py", description="Score retrieval, answers and grounding over a question set.")
    parser.add_argument("--pdf", nargs="+", help="PDF file(s) or folder (default: the sample report)")
    parser.add_argument("--questions", help="JSON list or JSONL question file "
                                            "(default: data/sample_questions.jsonl)")
    add_pipeline_flags(parser)
    parser.add_argument("--json", metavar="OUT", help="write {summary, results} to OUT; "
                                                      "prints nothing but errors")
    parser.add_argument("--devset", action="store_true", help="every data/devset document, tune vs held-out")
    parser.add_argument("--claims", action="store_true", help="the verifier's balanced accuracy on data/devset/claims.jsonl")
    parser.add_argument("--dialogues", metavar="FILE", help="scripted conversations, run turn by turn as --chat does")
    parser.add_argument("--html", metavar="OUT", help="also write the report as an HTML page with charts")
    parser.add_argument("--sweep", action="store_true", help="also run every retrieval mode and the chunk sizes "
                                                             f"{SWEEP_CHUNK_SIZES} (slower; for the charts)")
    args = parser.parse_args(argv)
    if (args.html or args.sweep) and (args.devset or args.claims or args.dialogues):
        raise RAGError("--html and --sweep go with a question set, not with --devset, --claims or --dialogues; drop one")
    if args.dialogues:
        import dialogues

        cfg = config_from_args(args)
        report = dialogues.evaluate_dialogues(dialogues.load_dialogues(args.dialogues), cfg, hit_rank, answer_recall,
                                              not args.json and sys.stderr.isatty())
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
        else:
            dialogues.print_dialogues(report)
        return
    if args.html:
        import html_report

        html_report.write_html(args.html)  # an unwritable path fails now, before the run
    if args.devset or args.claims:
        return run_devset_or_claims(args)
    if args.pdf is None and args.questions is None:
        pdfs, questions_file = [SAMPLE_PDF], SAMPLE_QUESTIONS
    elif args.pdf is None or args.questions is None:
        raise RAGError("pass both --pdf and --questions, or neither to run the sample set")
    else:
        pdfs, questions_file = args.pdf, args.questions
    questions = load_questions(questions_file)
    cfg = config_from_args(args)
    # Progress only for a person watching; logs and --json runs stay clean.
    progress = not args.json and sys.stderr.isatty()
    report = evaluate(questions, pdfs, cfg, progress=progress)
    extra = sweep(questions, pdfs, cfg, report, progress) if args.sweep else None
    if args.json:
        Path(args.json).write_text(json.dumps({**report, "sweep": extra} if extra else report, indent=2),
                                   encoding="utf-8")
    else:
        print_report(report)
        if extra:
            print_sweep(extra)
    if args.html:
        html_report.write_html(args.html, html_report.render_evaluation(report, extra))


if __name__ == "__main__":
    run_cli(main)
