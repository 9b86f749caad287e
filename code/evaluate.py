"""After the pipeline: measure it over a question set; the command line of measuring.  [provided]

The arithmetic and the run live in scoring.py, the development set in devset.py, scripted
conversations in dialogues.py; this module prints them. Each question is scored per stage:

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
            python code/evaluate.py --devset    (data/devset: tune, held-out and fresh splits)
            python code/evaluate.py --claims    (the verifier on data/devset/claims.jsonl)
            python code/evaluate.py --claims my_claims.jsonl   (on claims of your own; lists its misses)
            python code/evaluate.py --dialogues data/dialogues.json   (conversations, turn by turn)
"""

from __future__ import annotations

import json
import sys

import devset
from cli import ArgumentParser, add_pipeline_flags, config_from_args, output_files, printable, run_cli, write_file
from config import FLAGS, Config, RAGError
from pdf_loader import SAMPLE_PDF
from scoring import LOW_RECALL, SAMPLE_QUESTIONS, SUMMARY_ROWS, doubtful, evaluate, fmt, load_questions

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



def print_report(report: dict) -> None:
    s = report["summary"]
    print(f"{'#':>2}  {'ok':<4} {'rec':>4} {'hit':>3} {'F':>4} {'CR':>4} {'s':>5}  question -> answer")
    for n, r in enumerate(report["results"], start=1):
        if r["answerable"]:
            ok = "REF!" if r["refused"] else "ans?" if doubtful(r) else "ans"
        else:
            ok = "ref" if r["refused"] else "ANS!"  # an unanswerable question answered
        hit = "-" if not r["answerable"] else (str(r["hit_rank"]) if r["hit_rank"] else "x")
        recall = "-" if r.get("answer_recall") is None or r["refused"] else f"{r['answer_recall']:.2f}"  # no reference: -
        answer = " ".join(r["answer"].split())
        print(f"{n:>2}  {ok:<4} {recall:>4} {hit:>3} {r['faithfulness']:>4.2f} {r['context_relevance']:>4.2f} "
              f"{r['latency_s']:>5.2f}  {r['question'][:48]} -> {answer[:60]}")
    print("ok: ans answered, ref refused; REF! an answerable question refused, ANS! an unanswerable one answered;"
          f"\n    ans? answered with under {LOW_RECALL:.0%} of the reference answer's words: read it (a paraphrase can be right)."
          "\nrec: answer-token recall; hit: rank of the first chunk holding the evidence (x: none); F: faithfulness;"
          "\nCR: context relevance; s: seconds.")
    print(f"\n{s['questions']} questions ({s['answerable']} answerable, {s['unanswerable']} not) | "
          f"chunker {s['chunker']} {s['chunk_size']}/{s['chunk_overlap']} | retrieval "
          f"{s['retrieval']} | gate {s['min_relevance']} | {s['model']} + {s['embedding_model']}")
    for key, label in SUMMARY_ROWS:
        print(f"  {label.format(k=s['k']):<34} {fmt(s[key])}")


def print_sweep(extra: dict) -> None:
    for key, rows in (("retrieval", extra["retrieval_modes"]), ("chunk_size", extra["chunk_sizes"])):
        for s in rows:
            print(f"  {key} {s[key]!s:<7} Hit@{s['k']} {fmt(s['hit_at_k'])}  MRR@{s['k']} {fmt(s['mrr_at_k'])}"
                  f"  answer rate {fmt(s['answer_rate'])}  faithfulness {fmt(s['faithfulness_answered'])}")


def run_devset_or_claims(args) -> None:
    """--devset or --claims: print the table, or write the report to --json."""
    cfg = config_from_args(args)
    splits = tuple(args.split or devset.SPLITS)
    if args.devset:
        return write_or_print(devset.run(cfg, not args.json and sys.stderr.isatty(), splits), args.json, devset.print_devset)
    path = args.claims if isinstance(args.claims, str) else None
    write_or_print(devset.claims_benchmark(cfg, splits, path), args.json,
                   lambda report: devset.print_claims(report, wrong_verdicts=bool(path)))


def parse_args(argv: list[str] | None):
    parser = ArgumentParser(prog="evaluate.py", description="Score retrieval, answers and grounding over a question set.")
    parser.add_argument("--pdf", nargs="+", help="PDF file(s) or folder, with --questions (neither: the sample set)")
    parser.add_argument("--questions", help="JSON list or JSONL question file, with --pdf")
    add_pipeline_flags(parser)
    parser.add_argument("--json", metavar="OUT", help="also write {summary, results} to OUT")
    parser.add_argument("--devset", action="store_true", help="every data/devset document, tune vs held-out")
    parser.add_argument("--claims", nargs="?", const=True, metavar="FILE",
                        help="the verifier's balanced accuracy on data/devset's labelled claims, or on FILE's "
                             '(JSONL: {"context": ..., "claim": ..., "supported": true|false, "edit": optional})')
    parser.add_argument("--split", action="append", choices=devset.SPLITS,
                        help="with --devset, --claims or --dialogues: only this half (repeat for more); try a change on tune alone")
    parser.add_argument("--dialogues", metavar="FILE", help="scripted conversations, run turn by turn as --chat does")
    parser.add_argument("--html", metavar="OUT", help="also write the report as an HTML page with charts")
    parser.add_argument("--sweep", action="store_true", help="also run every retrieval mode and the chunk sizes "
                                                             f"{SWEEP_CHUNK_SIZES} (slower; for the charts)")
    args = parser.parse_args(argv)
    sets = [flag for flag, on in (("--devset", args.devset), ("--claims", args.claims), ("--dialogues", args.dialogues),
                                  ("--pdf/--questions", args.pdf or args.questions)) if on]
    if len(sets) > 1:
        raise RAGError(f"{' and '.join(sets)} each pick what to evaluate; run them one at a time")
    pipeline = [flag for name, (flag, _) in FLAGS.items() if getattr(args, name) is not None]
    if args.claims and pipeline:
        raise RAGError(f"--claims checks the verifier on given contexts, so {', '.join(pipeline)} changes nothing; drop it")
    for flag, value in (("--claims", args.claims), ("--dialogues", args.dialogues)):
        if value == "":  # "$UNSET" must not read as the flag left out
            raise RAGError(f"{flag} got an empty file name; pass a file (JSONL)"
                           + (", or --claims alone for the dev set's claims" if flag == "--claims" else ""))
    if args.split and isinstance(args.claims, str):
        raise RAGError("--split picks a half of the dev set's claims; a claims file of your own is measured whole: drop --split")
    if args.split and not (args.devset or args.claims or args.dialogues):
        raise RAGError("--split picks a half of the dev set: use it with --devset, --claims or --dialogues")
    if args.dialogues and "fresh" in (args.split or ()):
        raise RAGError("the dialogues have a tune and a heldout half, no fresh one; pick --split tune or heldout")
    if (args.html or args.sweep) and (args.devset or args.claims or args.dialogues):
        raise RAGError("--html and --sweep go with a question set, not with --devset, --claims or --dialogues; drop one")
    if (args.pdf is None) != (args.questions is None):
        raise RAGError("pass both --pdf and --questions, or neither to run the sample set")
    return args


def write_or_print(report: dict, out: str | None, show) -> None:
    """Print the report; with --json OUT, first write it to OUT (a reader that closes stdout
    early, `| head`, must not lose it) and say where."""
    if out:
        write_file(out, json.dumps(report, indent=2), "--json")
        print(printable(f"wrote the report to {out}"), file=sys.stderr)
    show(report)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    cfg = config_from_args(args)
    # The inputs this run reads (or their defaults), never written over by an output file.
    inputs = [*(args.pdf or [SAMPLE_PDF]), args.questions or SAMPLE_QUESTIONS, args.dialogues, devset.DEVSET,
              args.claims if isinstance(args.claims, str) else None]
    if args.dialogues:  # and the PDFs the dialogue file names
        import dialogues

        scripted = [d for d in dialogues.load_dialogues(args.dialogues) if d["split"] in (args.split or dialogues.SPLITS)]
        inputs += [pdf for dialogue in scripted for pdf in dialogue["pdf"]]
    keep = (*[i for i in inputs if i], cfg.index_dir)
    output_files({"--json": args.json, "--html": args.html}, keep)  # checked before the run
    progress = not args.json and sys.stderr.isatty()  # only for a person watching
    if args.dialogues:
        report = dialogues.evaluate_dialogues(scripted, cfg, progress)
        return write_or_print(report, args.json, dialogues.print_dialogues)
    if args.devset or args.claims:
        return run_devset_or_claims(args)
    pdfs, questions_file = (args.pdf, args.questions) if args.pdf else ([SAMPLE_PDF], SAMPLE_QUESTIONS)
    questions = load_questions(questions_file)
    report = evaluate(questions, pdfs, cfg, progress=progress)
    extra = sweep(questions, pdfs, cfg, report, progress) if args.sweep else None
    if args.html:  # written before anything is printed, as --json is
        import evaluation_page
        import html_report

        html_report.write_html(args.html, evaluation_page.render_evaluation(report, extra, SUMMARY_ROWS), keep)
        print(printable(f"wrote the HTML report to {args.html}"), file=sys.stderr)
    write_or_print({**report, "sweep": extra} if extra else report, args.json,
                   lambda r: (print_report(r), extra and print_sweep(extra)))


if __name__ == "__main__":
    run_cli(main)
