"""Maintenance: what the relevance gate refuses, per embedding model (issue #13).

For the sample report and each dev-set document, under three setups:

  wordllama/calibrated  WordLlama embeddings, the calibrated threshold (config.CALIBRATED_GATES)
  wordllama/derived     WordLlama embeddings, the threshold derived from the off-topic probes when
                        the index is built (retriever.probe_threshold), as any uncalibrated model
  fake-server/derived   the embeddings of tests/fake_providers.py's OpenAI-compatible server
                        (started here on 127.0.0.1), called through LiteLLM; derived threshold

and always the offline chat model, it reports the threshold in force, the answer rate on
answerable questions, the refusal accuracy on near-topic unanswerable questions, the share of
answerable questions the GATE refused (false refusals the model never got to undo), and the share
of the 30 held-out off-topic questions (data/offtopic_heldout.txt) the gate refused. The probes'
own share (data/offtopic_probes.txt, what the derived threshold is made from) is shown beside it.
Then, for the two derived setups: how well the best scores separate answerable questions from
off-topic ones (AUC), and what a gate at other quantiles of the probes' scores would refuse.

The dev set is pooled per split too: choices may use the probes, the sample and the tune split
only; the held-out split and the held-out off-topic questions are for reporting. Indexes go to a temporary
RAG_INDEX_DIR, deleted afterwards. A few minutes on two cores.

Run alone:  python tools/gate_calibration.py [--json OUT] [--only sample r-faq ...]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "code"), str(ROOT / "tests")]

import numpy as np  # noqa: E402
from cli import ArgumentParser, run_cli  # noqa: E402
from config import RAGError, get_config  # noqa: E402
from documents import index_documents  # noqa: E402
from embedding_helpers import embed_many  # noqa: E402
from devset import DEVSET  # noqa: E402
from scoring import SAMPLE_QUESTIONS, evaluate, load_questions  # noqa: E402
from retriever import PROBE_QUANTILE, PROBES  # noqa: E402

HELDOUT_OFFTOPIC = ROOT / "data" / "offtopic_heldout.txt"
SAMPLE_PDF = ROOT / "data" / "sample_report.pdf"
SETUPS = ("wordllama/calibrated", "wordllama/derived", "fake-server/derived")
# Other quantiles of the probes' scores a derived gate could use (retriever.PROBE_QUANTILE: 0.5).
SWEEP = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)
SWEEP_COLUMNS = [("tune_answerable", "tune: answerable gate-refused"), ("tune_near_topic", "tune: near-topic"),
                 ("probes_loo", "probes (left out)"), ("heldout_answerable", "held-out: answerable gate-refused"),
                 ("heldout_offtopic", "held-out off-topic")]
COLUMNS = [("threshold", "gate"), ("hit_at_k", "Hit@5"), ("answer_rate", "answer rate"),
           ("gate_false_refusals", "gate refused ans."),
           ("near_topic_refusal", "near-topic refused"), ("near_topic_gate", "by gate"),
           ("offtopic_gate", "off-topic gate-refused"), ("offtopic_refusal", "off-topic refused"),
           ("probes_gate", "probes gate-refused")]


def lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [s.strip() for s in text.splitlines() if s.strip() and not s.startswith("#")]


def corpora(only: list[str] | None) -> list[tuple[str, Path, list[dict]]]:
    """(name, pdf, questions): the sample report, then every dev-set document with a tune and
    held-out half. The fresh documents are left out: the gate was calibrated before they were
    written, and they stay a measurement of the whole pipeline (evaluate.py --devset)."""
    found = [("sample", SAMPLE_PDF, load_questions(SAMPLE_QUESTIONS))]
    for path in sorted(DEVSET.glob("*.questions.jsonl")):
        name, questions = path.name.removesuffix(".questions.jsonl"), load_questions(path)
        if any(q.get("split") in ("tune", "heldout") for q in questions):
            found.append((name, DEVSET / "pdfs" / f"{name}.pdf", questions))
    unknown = sorted(set(only or []) - {name for name, _, _ in found})
    if unknown:
        raise RAGError(f"--only: no corpus named {', '.join(unknown)}; choose from {', '.join(n for n, _, _ in found)}")
    found = [c for c in found if not only or c[0] in only]
    missing = [str(pdf) for _, pdf, _ in found if not pdf.is_file()]
    if missing:
        raise RAGError(f"missing PDFs {missing}; run python tools/fetch_devset.py")
    return found


def group(item: dict) -> str:
    """answerable | near_topic (unanswerable, about the document) | offtopic (held out) | probe |
    other (the sample's own two off_topic questions: neither near-topic nor held out)."""
    if item["answerable"]:
        return "answerable"
    kinds = {"offtopic_heldout": "offtopic", "probe": "probe", "off_topic": "other"}
    return kinds.get(item.get("kind"), "near_topic")


def share(rows: list[dict], key: str, value: bool = True) -> float | None:
    return round(statistics.fmean(r[key] is value for r in rows), 3) if rows else None


def metrics(rows: list[dict]) -> dict:
    by = {g: [r for r in rows if r["group"] == g] for g in ("answerable", "near_topic", "offtopic", "probe")}
    thresholds = sorted({r["threshold"] for r in rows})
    return {
        "threshold": thresholds[0] if len(thresholds) == 1 else f"{thresholds[0]:.3f}-{thresholds[-1]:.3f}",
        "answerable": len(by["answerable"]), "near_topic": len(by["near_topic"]),
        "offtopic": len(by["offtopic"]), "probes": len(by["probe"]),
        "hit_at_k": share(by["answerable"], "hit", True),
        "answer_rate": share(by["answerable"], "refused", False),
        "gate_false_refusals": share(by["answerable"], "gate_passed", False),
        "near_topic_refusal": share(by["near_topic"], "refused"),
        "near_topic_gate": share(by["near_topic"], "gate_passed", False),
        "offtopic_gate": share(by["offtopic"], "gate_passed", False),
        "offtopic_refusal": share(by["offtopic"], "refused"),
        "probes_gate": share(by["probe"], "gate_passed", False),
    }


def unanswerable(kind: str, texts: list[str]) -> list[dict]:
    return [{"question": q, "answer": "", "evidence": "", "answerable": False, "kind": kind} for q in texts]


def probe_scores(pdf: Path, cfg) -> list[float]:
    """The probes' best cosine scores in the PDF's index, queried as retriever.probe_threshold
    queries them (dense, top 1); their PROBE_QUANTILE must be the threshold stored in the index."""
    document = index_documents([pdf], cfg, show_progress=False)[0]
    found = document.collection.query(query_embeddings=embed_many(lines(PROBES), cfg), n_results=1,
                                      include=["distances"])
    scores = [1.0 - d[0] for d in found["distances"]]
    stored = document.collection.metadata["gate_threshold"]
    if abs(round(float(np.quantile(scores, PROBE_QUANTILE)), 4) - stored) > 1e-4:
        raise RAGError(f"{pdf.name}: the probes' scores do not give the stored gate {stored}; stale index?")
    return scores


def run_setup(setup: str, cfg, found, progress: bool) -> tuple[list[dict], dict]:
    """Every corpus under one setup: one row per question (with its group and split), and the
    probes' scores per corpus."""
    extra = unanswerable("offtopic_heldout", lines(HELDOUT_OFFTOPIC)) + unanswerable("probe", lines(PROBES))
    rows, probes = [], {}
    for name, pdf, questions in found:
        if progress:
            print(f"  {setup}: {name}", file=sys.stderr, flush=True)
        items = questions + extra
        for item, r in zip(items, evaluate(items, [pdf], cfg)["results"]):
            rows.append({"setup": setup, "corpus": name, "split": item.get("split", ""), "group": group(item),
                         "question": item["question"], "best_score": r["best_score"],
                         "threshold": r["gate_threshold"], "gate_passed": r["gate_passed"],
                         "refused": r["refused"], "hit": r["hit_rank"] is not None and r["hit_rank"] <= cfg.top_k})
        probes[name] = probe_scores(pdf, cfg)
    return rows, probes


def sweep(rows: list[dict], probes: dict, setup: str) -> list[dict]:
    """What a gate at other quantiles of the probes' scores would refuse, from the recorded best
    scores. Tune side (may guide a choice): answerable and near-topic questions of the sample and
    the tune split, the probes themselves left one out; held-out side (reported only)."""
    mine = [r for r in rows if r["setup"] == setup]

    def refused(chosen, q) -> float | None:
        below = [r["best_score"] < np.quantile(probes[setup][r["corpus"]], q) for r in chosen]
        return round(statistics.fmean(below), 3) if below else None

    tune = [r for r in mine if r["split"] in ("", "tune")]
    held = [r for r in mine if r["split"] == "heldout"]
    out = []
    for q in SWEEP:
        loo = [s[i] < np.quantile(s[:i] + s[i + 1:], q) for s in probes[setup].values() for i in range(len(s))]
        out.append({"setup": setup, "quantile": q,
                    "tune_answerable": refused([r for r in tune if r["group"] == "answerable"], q),
                    "tune_near_topic": refused([r for r in tune if r["group"] == "near_topic"], q),
                    "probes_loo": round(statistics.fmean(loo), 3),
                    "heldout_answerable": refused([r for r in held if r["group"] == "answerable"], q),
                    "heldout_offtopic": refused([r for r in mine if r["group"] == "offtopic"], q)})
    return out


def table(rows: list[dict]) -> list[dict]:
    """Per setup: each corpus, then the dev set pooled per split (its off-topic sets pooled)."""
    out = []
    for setup in SETUPS:
        mine = [r for r in rows if r["setup"] == setup]
        names = list(dict.fromkeys(r["corpus"] for r in mine))
        for name in names:
            out.append({"setup": setup, "corpus": name, **metrics([r for r in mine if r["corpus"] == name])})
        dev = [r for r in mine if r["corpus"] != "sample"]
        for split in ("tune", "heldout"):
            chosen = [r for r in dev if r["split"] == split or r["group"] in ("offtopic", "probe")]
            if chosen:
                out.append({"setup": setup, "corpus": f"dev set {split}", **metrics(chosen)})
    return out


def auc(high: list[float], low: list[float]) -> float:
    """P(a score of `high` > a score of `low`), ties half: 1.0 separates them, 0.5 is chance."""
    a, b = np.asarray(high)[:, None], np.asarray(low)[None, :]
    return round(float(np.mean(a > b) + 0.5 * np.mean(a == b)), 3)


def separation(rows: list[dict], setup: str) -> str:
    """How well the setup's best scores tell answerable questions (sample and tune split) from
    the probes and from the held-out off-topic questions: the median over corpora of the AUC."""
    mine = [r for r in rows if r["setup"] == setup]
    names = list(dict.fromkeys(r["corpus"] for r in mine))

    def scores(corpus: str, kind: str) -> list[float]:
        return [r["best_score"] for r in mine if r["corpus"] == corpus and r["group"] == kind
                and r["split"] != "heldout"]

    pairs = {"answerable vs probes": ("answerable", "probe"),
             "answerable vs held-out off-topic": ("answerable", "offtopic"),
             "held-out off-topic vs probes": ("offtopic", "probe")}
    parts = [f"{label} {statistics.median(auc(scores(c, hi), scores(c, lo)) for c in names):.2f}"
             for label, (hi, lo) in pairs.items()]
    return f"{setup}: median AUC over corpora, " + ", ".join(parts)


def fmt(value) -> str:
    return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def print_table(summary: list[dict]) -> None:
    print("| setup | corpus | " + " | ".join(label for _, label in COLUMNS) + " |")
    print("|---|---|" + "---:|" * len(COLUMNS))
    for row in summary:
        print(f"| {row['setup']} | {row['corpus']} | " + " | ".join(fmt(row[k]) for k, _ in COLUMNS) + " |")


def print_sweep(rows: list[dict]) -> None:
    print("| setup | probe quantile | " + " | ".join(label for _, label in SWEEP_COLUMNS) + " |")
    print("|---|---:|" + "---:|" * len(SWEEP_COLUMNS))
    for row in rows:
        mark = " (in use)" if row["quantile"] == PROBE_QUANTILE else ""
        cells = " | ".join(fmt(row[k]) for k, _ in SWEEP_COLUMNS)
        print(f"| {row['setup']} | {row['quantile']:g}{mark} | {cells} |")


def main() -> None:
    parser = ArgumentParser(prog="gate_calibration.py", description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="OUT", help="also write {summary, results} to OUT")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="corpora to run: sample, r-faq, lppl, ...")
    args = parser.parse_args()
    found = corpora(args.only)
    progress = sys.stderr.isatty()
    from fake_providers import EMBEDDING_MODEL, FakeOpenAI

    started, rows = time.perf_counter(), []
    with tempfile.TemporaryDirectory(prefix="gate-calibration-") as index_dir, FakeOpenAI() as server:
        # LiteLLM reads the base URL and key from the environment; loopback must bypass any proxy.
        os.environ.update(OPENAI_BASE_URL=server.base_url, OPENAI_API_BASE=server.base_url,
                          OPENAI_API_KEY="local", NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost")
        base = {"RAG_INDEX_DIR": index_dir, "LLM_MODEL": "offline/extractive"}
        calibrated = get_config(env=base)
        derived = replace(calibrated, min_relevance=None, min_relevance_source="derived from off-topic probes")
        fake = get_config(env={**base, "EMBEDDING_MODEL": f"openai/{EMBEDDING_MODEL}"})
        if fake.min_relevance is not None:
            raise RAGError(f"{fake.embedding_model} has a calibrated gate; this tool measures the derived one")
        probes = {}
        for setup, cfg in zip(SETUPS, (calibrated, derived, fake)):
            mine, probes[setup] = run_setup(setup, cfg, found, progress)
            rows += mine
        served = len(server.calls("embed"))
    summary = table(rows)
    alternatives = [row for setup in SETUPS[1:] for row in sweep(rows, probes, setup)]
    print_table(summary)
    print(f"\n{len(rows)} questions in {time.perf_counter() - started:.0f} s ({served} embedding requests to the "
          f"fake server). 'gate': the threshold in force; the shares are of answerable, near-topic "
          f"unanswerable, held-out off-topic and probe questions; 'off-topic refused': by the gate or the "
          f"model; dev set rows pool the six documents (off-topic and probes: both splits).")
    print("\nSeparation of best scores (answerable: sample and tune split only):")
    for setup in SETUPS[1:]:
        print("  " + separation(rows, setup))
    words = {name: statistics.fmean(len(q.split()) for q in lines(path))
             for name, path in (("probes", PROBES), ("held-out off-topic", HELDOUT_OFFTOPIC))}
    print("  words per question: " + ", ".join(f"{k} {v:.1f}" for k, v in words.items()))
    print("\nA derived gate at other quantiles of the probes' best scores (share of each group it refuses):\n")
    print_sweep(alternatives)
    if args.json:
        report = {"summary": summary, "alternatives": alternatives, "probe_scores": probes, "results": rows}
        Path(args.json).write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    run_cli(main)
