"""Step 7: the whole pipeline, end to end.  [provided: M6]

    python code/rag.py                                  # "What was Q3 revenue?" over the sample
    python code/rag.py "Who is the CFO?" report.pdf     # your PDF (or several, or a folder)
    python code/rag.py --json "..." a.pdf b.pdf         # one JSON object
    python code/rag.py --chat report.pdf                # interactive, with follow-ups
    python code/rag.py "..." --html report.html         # also the answer as a page for a browser

`run(question, pdfs)` is the recipe, `ask(documents, question, cfg)` its second half:

    1. load each PDF         pdf_loader.read_pdf                }  documents.index_documents:
    2. chunk it              chunker.chunk_pages (your M1)      }  once per file, then reused
    3. embed and index it    embedding_helpers, retriever, bm25 }
    4. retrieve              retriever.retrieve (M2), misspelt words first read as the
                             documents' (spelling.misspelt)
    5. gate                  refuse, without calling the model, when nothing is relevant enough
    6. fit the context       budget.whole_sentences, budget.fit_to_budget
    7. answer with ids       generator.answer (your M3, M4)
    8. verify every claim    faithfulness.check_faithfulness (your M5)
    9. resolve citations     citations.resolve_citations: page and quoted sentence of each id
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

from budget import fit_to_budget, whole_sentences
from chunker import Chunk
from citations import is_refusal, resolve_citations
from cli import ArgumentParser, add_pipeline_flags, as_text, config_from_args, output_files, run_cli, score_beside
from config import Config, RAGError, get_config
from documents import Document, index_documents, pdf_paths
from faithfulness import FaithfulnessReport, check_faithfulness, split_claims
from generator import Answer, answer, build_prompt
from pdf_loader import SAMPLE_PDF, glued_warning
from retriever import retrieve
from spelling import document_words, misspelt, respelled
from store import get_client, store_errors, usable_store
from textutils import same_family, terms

DEFAULT_QUESTION = "What was Q3 revenue?"
# Under a refusal the model made: the passages were relevant enough to read, so the answer may
# be there in other words, or in a passage just outside the top k.
REFUSAL_HINT = ("the model found no answer in the passages it read, which `--show-context` shows (it can miss one "
                "put in other words); the question in the document's own words, or a larger `--top-k`, may find it")


@dataclass
class Result:
    question: str
    answer: Answer
    retrieved: list[Chunk]
    context: list[Chunk]
    faithfulness: FaithfulnessReport
    gate: dict
    timings: dict
    citations: list[dict] = field(default_factory=list)
    uncited: list[str] = field(default_factory=list)
    search: str = ""  # what retrieval searched for: the question, or a follow-up completed
    spelling: dict = field(default_factory=dict)  # a misspelt word of the question: the word read instead
    documents: list[dict] = field(default_factory=list)  # each file: reused or built, chunks (a warning if glued)
    skipped: list[dict] = field(default_factory=list)  # each file that could not be read: path, why

    def completed(self) -> bool:
        """Was the search completed from the conversation (more than the question, respelled)?"""
        return self.search != respelled(self.question, self.spelling)


class Clock:
    """Seconds per stage, for the timings shown with every answer."""

    def __init__(self):
        self.laps, self.last = {}, time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.laps[stage] = round(now - self.last, 4)
        self.last = now


def validate_question(question: str, cfg: Config) -> str:
    question = " ".join(as_text(question or "").split())
    if not question:
        raise RAGError('the question is empty; ask something, e.g. python code/rag.py "What was Q3 revenue?"')
    if len(question) > cfg.max_question_chars:
        raise RAGError(f"the question is {len(question)} characters, over the "
                       f"{cfg.max_question_chars} limit; shorten it or raise RAG_MAX_QUESTION_CHARS")
    return question


# A retrieved chunk holding this share of the question's key terms, and at least MIN_WORDS of
# them, shows the question is about the documents, whatever the embedder scores: WordLlama
# gave 0.09 to the row with "dvipng", "set" and "variable" for "Which variable do I set to
# dvipng ...?". In the top five of 24 documents, no off-topic probe (data/offtopic_probes.txt)
# has more than half of its key terms in one chunk.
MIN_WORDS_SHARE, MIN_WORDS = 2 / 3, 2


def words_found(question: str, retrieved: list[Chunk]) -> tuple[int, int]:
    """(most of the question's key terms one retrieved chunk holds, how many it has)."""
    keys = set(terms(question))
    held = (set(terms(c.text)) for c in retrieved)
    return max((sum(same_family(k, words) for k in keys) for words in held), default=0), len(keys)


def gate(retrieved: list[Chunk], documents: list[Document], cfg: Config, question: str) -> dict:
    """Step 5: is the best retrieved chunk similar enough to the question to be worth asking, or
    does one hold the question's own words? The threshold is RAG_MIN_RELEVANCE, else the
    embedding model's calibrated one, else the one derived from off-topic probes when the
    documents were indexed."""
    threshold = cfg.min_relevance
    if threshold is None:
        threshold = max(d.collection.metadata.get("gate_threshold", 0.0) for d in documents)
    best = round(max((c.score or 0.0 for c in retrieved), default=0.0), 4)
    found, keys = words_found(question, retrieved)
    return {"passed": best >= threshold or (found >= MIN_WORDS and found >= MIN_WORDS_SHARE * keys),
            "best_score": best, "threshold": threshold, "threshold_source": cfg.min_relevance_source,
            "key_terms_found": f"{found} of {keys}"}


def ask(documents: list[Document], question: str, cfg: Config, search: str | None = None) -> Result:
    """Steps 4-9 for one question over indexed documents. `search` is the text to retrieve
    with when it differs from the question (a follow-up completed from the conversation)."""
    clock = Clock()
    question = validate_question(question, cfg)
    with store_errors(cfg, "retrieving"):
        spelling = misspelt(question, document_words([d.collection for d in documents], cfg))
        search = respelled(search or question, spelling)
        retrieved = retrieve([d.collection for d in documents], search, cfg.top_k, cfg)   # 4
    clock.lap("retrieve")
    decision = gate(retrieved, documents, cfg, search)                                      # 5
    if decision["passed"]:
        with store_errors(cfg, "retrieving"):
            whole = whole_sentences(retrieved, [d.collection for d in documents])
        context = fit_to_budget(search, whole, cfg.context_budget_chars, cfg)               # 6
        try:
            result_answer = answer(search, context, cfg)                                    # 7
        except NotImplementedError:
            build_prompt(search, context)  # in the starter: M3 unfinished is named before M4
            raise
    else:  # nothing relevant: refuse here and save the model call (and its chance to invent)
        context = []
        result_answer = Answer(f"I don't know: no passage of the documents scored as relevant to the question "
                               f"(best score {score_beside(decision['best_score'], decision['threshold'])} < "
                               f"{decision['threshold']:g}).",
                               [], refused=True)
    clock.lap("generate")
    if result_answer.refused:
        report = FaithfulnessReport(1.0, [], [])  # a refusal claims nothing
    else:
        # A sentence that declines ("I don't know when.") claims nothing; the rest is checked.
        claims = [c for c in split_claims(result_answer.text) if not is_refusal(c)]
        report = check_faithfulness(result_answer.text, context, claims, cfg=cfg)          # 8
    clock.lap("verify")
    citations, uncited = resolve_citations(result_answer, context)                          # 9
    return Result(question, result_answer, retrieved, context, report, decision, clock.laps,
                  citations, uncited, search, spelling)


def run(question: str = DEFAULT_QUESTION, pdfs: list[str] | None = None, cfg: Config | None = None,
        show_progress: bool = False) -> Result:
    """The whole pipeline for one question (the API the tests and notebooks use); no PDFs
    means the built-in sample report."""
    cfg = usable_store(cfg or get_config())  # a read-only index: this run's copy, for every step
    question = validate_question(question, cfg)
    start = time.perf_counter()
    with store_errors(cfg, "opening the index store"):
        get_client(cfg)  # started once per process: its own line in the timings, not the indexes'
    opened = time.perf_counter()
    skipped: list[dict] = []
    documents = index_documents(pdf_paths(pdfs or []), cfg, show_progress, skipped)      # 1-3
    indexed = time.perf_counter()
    result = ask(documents, question, cfg)
    result.skipped = skipped
    result.documents = [{"source": d.source, "index": "reused" if d.reused else "built",
                         "chunks": d.collection.metadata["n_chunks"], "seconds": round(d.seconds, 4),
                         **({"warning": glued_warning(d.source).removeprefix("warning: ")}
                            if d.collection.metadata.get("glued_text") else {})}
                        for d in documents]
    result.timings = {"store": round(opened - start, 4), "index": round(indexed - opened, 4), **result.timings}
    result.timings["total"] = round(sum(result.timings.values()), 4)
    return result


# ------------------------------------------------------------------------------- the CLI

def _is_document(arg: str) -> bool:
    """A positional that names a file or folder, or looks like one ("report.pdf"): a
    question ending in ".pdf" has spaces in it."""
    from pathlib import Path

    try:
        exists = Path(arg).exists()
    except OSError:  # a long question is not a valid path at all
        exists = False
    return exists or (arg.lower().endswith(".pdf") and not any(ch.isspace() for ch in arg))


def parse_args(argv: list[str] | None):
    parser = ArgumentParser(prog="rag.py", description="Ask a question about PDFs; get a cited, verified answer.")
    parser.add_argument("question", nargs="?", default=None,
                        help=f'the question (default, over the built-in sample: "{DEFAULT_QUESTION}")')
    parser.add_argument("pdfs", nargs="*", help="PDF files or folders, subfolders included (default: the built-in sample)")
    add_pipeline_flags(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--show-context", action="store_true", help="print the retrieved chunks")
    parser.add_argument("--chat", action="store_true", help="interactive questions with follow-ups")
    parser.add_argument("--save-chat", metavar="FILE", help="with --chat: save the conversation as JSON")
    parser.add_argument("--html", metavar="FILE", help="also write the answer (with --chat, the conversation) "
                                                       "as one self-contained HTML page")
    args = parser.parse_args(argv)
    if args.chat and args.question and not _is_document(args.question):
        raise RAGError(f"--chat asks its questions at the prompt, and {args.question!r} is no file; "
                       f"drop it, or pass only PDFs after --chat")
    if args.chat and args.json:
        raise RAGError("--json prints one answer and --chat a conversation; drop one (--save-chat FILE "
                       "keeps a conversation as JSON)")
    if args.save_chat and not args.chat:
        raise RAGError("--save-chat saves a --chat conversation; add --chat, or use --json for one answer")
    if args.question and (args.chat or _is_document(args.question)):
        # `rag.py report.pdf` names a document, not a question; in chat mode every positional is one.
        args.pdfs.insert(0, args.question)
        args.question = None
        asked = [p for p in args.pdfs if not _is_document(p) and any(ch.isspace() for ch in p)]
        if len(asked) == 1 and not args.chat:  # `rag.py report.pdf "What ...?"`: the order is plain
            args.pdfs.remove(asked[0])
            args.question = asked[0]
        elif asked and not args.chat:
            raise RAGError(f"{asked[0]!r} and {asked[1]!r} are no files, and both look like a question: ask one "
                           f'at a time, the question first (rag.py "{asked[0]}" {args.pdfs[0]})')
    return args


def main(argv: list[str] | None = None) -> None:
    import html_report
    import output

    args = parse_args(argv)
    cfg = config_from_args(args)
    paths = pdf_paths(args.pdfs)  # once: a folder's warnings are said once
    # The default question is the sample's; a lone file that is not there is said so first, further on.
    if args.pdfs and args.question is None and not args.chat and any(p.exists() for p in paths):
        raise RAGError(f'no question for {args.pdfs[0]}: put one before the PDFs (rag.py "What does it say '
                       f'about ...?" {args.pdfs[0]}), or add --chat to ask at a prompt')
    keep = (*paths, cfg.index_dir)  # never written over by an output file
    output_files({"--save-chat": args.save_chat, "--html": args.html}, keep)  # checked before any work
    # Asked of no PDF, a question of the user's own is answered from the sample: say so on stdout.
    note = f"(no PDF given: the built-in sample, {SAMPLE_PDF.name}, is searched; pass PDF files or a folder to search your own)"
    if args.chat:
        import chat

        cfg = usable_store(cfg)
        if not args.pdfs:
            output.say(note)
        chat.chat(index_documents(paths, cfg, show_progress=True), cfg, ask, args.save_chat, args.html)
        return
    question = DEFAULT_QUESTION if args.question is None else args.question
    result = run(question, [str(p) for p in paths], cfg, show_progress=not args.json)
    if args.html:  # before printing: a reader that closes stdout early (`| head`) must not lose it
        html_report.write_html(args.html, html_report.render(output.to_json(result, cfg)), keep)
        output.say(f"wrote the answer page to {args.html}", file=sys.stderr)
    if args.json:
        output.print_json(result, cfg)
    else:
        if not args.pdfs and question != DEFAULT_QUESTION:
            output.say(note)
        output.print_text(result, cfg, args.show_context, refusal_hint=REFUSAL_HINT)


if __name__ == "__main__":
    run_cli(main)
