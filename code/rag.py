"""Step 6: the whole pipeline, end to end.  [provided]

ingest (pdf_loader) -> chunk (chunker) -> index (retriever, cached on disk) -> retrieve ->
relevance gate -> context budget -> grounded answer (generator) -> faithfulness check.

    python code/rag.py                                  # "What was Q3 revenue?" over the sample
    python code/rag.py "Who is the CFO?" report.pdf     # your PDF (or several, or a folder)
    python code/rag.py --json "..." a.pdf b.pdf         # one JSON object
    python code/rag.py --chat report.pdf                # interactive, with follow-ups

Each document is indexed once: its collection is named by a hash of the file, the chunking
settings and the embedding model, so a re-run skips parsing and embedding. Unchanged files are
skipped, changed files re-indexed, and indexes of files that are gone are dropped.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from chunker import Chunk, chunk_pages
from config import Config, RAGError, get_config, run_cli
from faithfulness import FaithfulnessReport, check_faithfulness
from generator import _CITE, Answer, answer
from pdf_loader import SAMPLE_PAGES, load_pdf_pages
from retriever import build_index, get_client, open_index, retrieve
from textutils import sentence_spans, split_sentences, terms

DEFAULT_QUESTION = "What was Q3 revenue?"
PROGRESS_MIN_PAGES = 20
# Context budget: retrieved chunks are cut into windows this long and the best ones kept.
WINDOW_CHARS = 500
# Follow-ups: a question this short, or opening with a cue, inherits the previous question.
FOLLOW_UP_MAX_WORDS = 5
FOLLOW_UP_CUES = ("what about", "how about", "and ", "also", "what of", "same for", "why", "how so")


@dataclass
class Document:
    source: str  # what citations call it: the file name, or "sample"
    collection: object  # its Chroma collection (its metadata "tag" prefixes ids: "report:c3")


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
    retrieval_query: str = ""


# ------------------------------------------------------------------------------- ingest

class Progress:
    """A tqdm bar on stderr that appears only for long documents (PROGRESS_MIN_PAGES pages or
    more) and never when `enabled` is False (--json output stays clean)."""

    def __init__(self, label: str, enabled: bool):
        self.label, self.enabled, self.bar = label, enabled, None

    def pages(self, done: int, total: int) -> None:
        """Loader callback: one page read."""
        if self.bar is None and self.enabled and total >= PROGRESS_MIN_PAGES:
            self._open(total, f"reading {self.label}", "page")
        if self.bar is not None:
            self.bar.update(1)

    def chunks(self, total: int):
        """An index-build callback for `total` chunks, or None for a short document."""
        if self.bar is None:
            return None
        self._open(total, f"indexing {self.label}", "chunk")
        return self.bar.update

    def _open(self, total: int, desc: str, unit: str) -> None:
        from tqdm import tqdm

        self.close()
        self.bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def pdf_paths(args: list[str]) -> list[Path]:
    """Expand files and folders into the list of PDFs to search."""
    paths: list[Path] = []
    for arg in args:
        path = Path(arg)
        if _is_folder(arg):
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file())
            if not found:
                raise RAGError(f"{path}: the folder holds no .pdf files; pass a folder with PDFs "
                               f"or the PDF files themselves")
            paths.extend(found)
        else:
            paths.append(path)
    return list(dict.fromkeys(p.resolve() if _is_file(p) else p for p in paths))


def _file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@lru_cache(maxsize=1)
def pipeline_version() -> str:
    """A hash of the code that turns a file into chunks. An index is looked up before the file
    is parsed, so without this a changed loader or chunker (yours, in M1) would silently keep
    serving chunks made by the old code."""
    h = hashlib.sha256()
    for module in ("pdf_loader.py", "chunker.py", "textutils.py"):
        h.update((Path(__file__).parent / module).read_bytes())
    return h.hexdigest()[:16]


def _index_key(content_hash: str, cfg: Config) -> str:
    return "|".join([content_hash, pipeline_version(), cfg.chunker, str(cfg.chunk_size),
                     str(cfg.chunk_overlap), cfg.embedding_model])


def _prune(cfg: Config, keep: dict[str, str]) -> None:
    """Drop indexes of files that changed (`keep` maps path -> current collection name) or
    no longer exist, so the store holds one index per live file."""
    client = get_client(cfg)
    for collection in client.list_collections():
        meta = collection.metadata or {}
        path = meta.get("source_path")
        if not path:
            continue
        stale = path in keep and keep[path] != collection.name
        if stale or not Path(path).exists():
            client.delete_collection(collection.name)


def index_documents(paths: list[Path], cfg: Config, show_progress: bool = True) -> list[Document]:
    """Open or build one index per PDF; files already indexed are neither parsed nor embedded."""
    if not paths:
        chunks = chunk_pages(SAMPLE_PAGES, cfg.chunk_size, cfg.chunk_overlap, "sample", cfg.chunker)
        return [Document("sample", build_index(chunks, cfg, source="sample", tag="sample"))]
    documents, keep = [], {}
    for path in paths:
        # The path is part of the key: a copy of a file under another name gets its own index,
        # so citations name the file that was asked about and pruning one cannot drop the other.
        key = _index_key(f"{path}|{_file_hash(path) if _is_file(path) else ''}", cfg)
        collection = open_index(key, cfg)
        if collection is None:
            progress = Progress(path.name, show_progress)
            try:
                pages = load_pdf_pages(path, on_page=progress.pages)
                chunks = chunk_pages(pages, cfg.chunk_size, cfg.chunk_overlap, path.name, cfg.chunker)
                collection = build_index(chunks, cfg, key=key, progress=progress.chunks(len(chunks)),
                                         source=path.name, source_path=str(path),
                                         tag=re.sub(r"[^\w.-]+", "_", path.stem) or "doc",
                                         pages=len(pages))
            finally:
                progress.close()
        keep[str(path)] = collection.name
        documents.append(Document(path.name, collection))
    _prune(cfg, keep)
    return documents


# ------------------------------------------------------------------------------- ask

def contextualize(question: str, previous: str | None) -> str:
    """The text to search for: a bare follow-up ("what about Q4?") inherits the previous
    question's words; a standalone question is searched as it is, unpolluted."""
    if not previous:
        return question
    lowered = question.lower().strip()
    if len(question.split()) <= FOLLOW_UP_MAX_WORDS or lowered.startswith(FOLLOW_UP_CUES):
        return f"{previous} {question}"
    return question


def select_context(question: str, chunks: list[Chunk], budget: int, cfg: Config) -> list[Chunk]:
    """Fit the retrieved chunks into `budget` characters by relevance, not position: cut each
    chunk into ~WINDOW_CHARS windows at sentence ends, keep the windows most similar to the
    question, and give each chunk back only its kept windows (same id, document order)."""
    if sum(len(c.text) for c in chunks) <= budget:
        return chunks
    from embedding_helpers import embed_many, embed_one

    windows: list[tuple[int, str]] = []
    for n, chunk in enumerate(chunks):
        current = ""
        for s, e in sentence_spans(chunk.text):
            piece = chunk.text[s:e]
            if current and len(current) + len(piece) + 1 > WINDOW_CHARS:
                windows.append((n, current))
                current = ""
            current = f"{current} {piece}".strip()
        if current:
            windows.append((n, current))
    vectors = embed_many([w for _, w in windows], cfg)
    similarity = vectors @ embed_one(question, cfg)
    kept, used = set(), 0
    for i in sorted(range(len(windows)), key=lambda i: -similarity[i]):
        if used + len(windows[i][1]) <= budget:
            kept.add(i)
            used += len(windows[i][1]) + 1
    selected = []
    for n, chunk in enumerate(chunks):
        text = " ".join(w for i, (m, w) in enumerate(windows) if m == n and i in kept)
        if text:
            selected.append(replace(chunk, text=text))
    return selected


def _quote(answer_sentence: str, chunk: Chunk) -> str:
    """The chunk sentence that best backs an answer sentence: the quote shown with a citation."""
    claim = set(terms(answer_sentence))
    sentences = split_sentences(chunk.text) or [chunk.text]
    return max(sentences, key=lambda s: len(claim & set(terms(s))) / (1 + 0.01 * len(s)))


def resolve_citations(result_answer: Answer, context: list[Chunk]) -> tuple[list[dict], list[str]]:
    """Each valid citation with its page and quoted sentence, and the answer sentences that
    state something without citing any valid chunk."""
    by_id = {c.id: c for c in context}
    citations, uncited, seen = [], [], set()
    if result_answer.refused:
        return citations, uncited
    for sentence in split_sentences(result_answer.text):
        ids = [i for i in _CITE.findall(sentence) if i in by_id]
        if not ids and re.search(r"\w", _CITE.sub("", sentence)):
            uncited.append(sentence)
        for cid in ids:
            if cid not in seen:
                seen.add(cid)
                chunk = by_id[cid]
                citations.append({"id": cid, "source": chunk.source, "page": chunk.page,
                                  "quote": _quote(_CITE.sub("", sentence), chunk)})
    return citations, uncited


def validate_question(question: str, cfg: Config) -> str:
    question = " ".join((question or "").split())
    if not question:
        raise RAGError('the question is empty; ask something, e.g. python code/rag.py "What was Q3 revenue?"')
    if len(question) > cfg.max_question_chars:
        raise RAGError(f"the question is {len(question)} characters, over the "
                       f"{cfg.max_question_chars} limit; shorten it or raise RAG_MAX_QUESTION_CHARS")
    return question


def ask(documents: list[Document], question: str, cfg: Config, previous: str | None = None) -> Result:
    """Retrieve, gate, answer and verify one question over already indexed documents."""
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = round(now - clock, 4)
        clock = now

    question = validate_question(question, cfg)
    query = contextualize(question, previous)
    collections = [d.collection for d in documents]
    retrieved = retrieve(collections if len(collections) > 1 else collections[0], query, cfg.top_k, cfg)
    lap("retrieve")

    best = round(max((c.score or 0.0 for c in retrieved), default=0.0), 4)
    gate = {"passed": best >= cfg.min_relevance, "best_score": best,
            "threshold": cfg.min_relevance}
    if not gate["passed"]:
        # Nothing relevant: refuse here and save the model call (and its chance to invent).
        reason = (f"I don't know: nothing in the document is relevant to the question "
                  f"(best score {best:.3f} < {cfg.min_relevance:g}).")
        result_answer, context = Answer(reason, []), []
        lap("generate")
    else:
        context = select_context(question, retrieved, cfg.context_budget_chars, cfg)
        # A real model reads both lines; the question line stays the follow-up itself (the
        # offline model reads the second line's numbers and names as the question's scope).
        asked = question if query == question else f"{question}\n(It follows up on: {previous})"
        result_answer = answer(asked, context)
        lap("generate")
    if result_answer.refused:
        report = FaithfulnessReport(1.0, [], [])  # a refusal claims nothing
    else:
        report = check_faithfulness(result_answer.text, context)
    lap("verify")
    citations, uncited = resolve_citations(result_answer, context)
    return Result(question, result_answer, retrieved, context, report, gate, timings,
                  citations, uncited, query)


def run(question: str = DEFAULT_QUESTION, pdfs: list[str] | None = None, cfg: Config | None = None,
        show_progress: bool = False) -> Result:
    """The whole pipeline for one question (the API the tests and notebooks use)."""
    cfg = cfg or get_config()
    question = validate_question(question, cfg)
    start = time.perf_counter()
    documents = index_documents(pdf_paths(pdfs or []), cfg, show_progress)
    indexed = time.perf_counter() - start
    result = ask(documents, question, cfg)
    result.timings = {"index": round(indexed, 4), **result.timings}
    result.timings["total"] = round(sum(result.timings.values()), 4)
    return result


# ------------------------------------------------------------------------------- output

def to_json(result: Result, cfg: Config) -> dict:
    return {
        "question": result.question,
        "answer": result.answer.text,
        "refused": result.answer.refused,
        "citations": result.citations,
        "dropped_citations": result.answer.dropped,
        "uncited_claims": result.uncited,
        "retrieved": [{"id": c.id, "source": c.source, "page": c.page, "score": round(c.score or 0, 4),
                       "char_start": c.char_start, "char_end": c.char_end, "text": c.text}
                      for c in result.retrieved],
        "gate": result.gate,
        "faithfulness": asdict(result.faithfulness),
        "model": cfg.model,
        "embedding_model": cfg.embedding_model,
        "retrieval_query": result.retrieval_query,
        "timings": result.timings,
    }


def print_result(result: Result, cfg: Config, show_context: bool = False) -> None:
    print(f"Q: {result.question}")
    print(f"A: {result.answer.text}")
    if not result.gate["passed"]:
        print(f"   (relevance gate: best score {result.gate['best_score']:.3f} < "
              f"{result.gate['threshold']:g}; the model was not called)")
    if result.citations:
        print("\nCitations:")
        for c in result.citations:
            print(f"  [{c['id']}] p.{c['page']} ({c['source']}): \"{c['quote']}\"")
    if result.answer.dropped:
        print(f"\nDropped citations (not in the context): {', '.join(result.answer.dropped)}")
    if result.uncited:
        print("\nWarning: these sentences cite no retrieved chunk:")
        for s in result.uncited:
            print(f"  - {s}")
    report = result.faithfulness
    supported = sum(report.verdicts)
    print(f"\nFaithfulness: {report.score:.2f} ({supported}/{len(report.claims)} claims supported)")
    for claim, ok in zip(report.claims, report.verdicts):
        print(f"  {'supported  ' if ok else 'UNSUPPORTED'}  {claim}")
    if show_context:
        print("\nRetrieved context:")
        for c in result.retrieved:
            print(f"  [{c.id}] p.{c.page} score {c.score:.3f}: {c.text}")
    print(f"\nModels: chat {cfg.model} | embeddings {cfg.embedding_model} | "
          f"{result.timings.get('total', sum(result.timings.values())):.2f} s")


def chat(documents: list[Document], cfg: Config) -> None:
    """Ask questions in a loop; bare follow-ups inherit the previous question for retrieval."""
    print("Ask about the document (empty line or Ctrl-D to quit).")
    previous = None
    while True:
        try:
            question = input("\n> ").strip()
        except EOFError:
            break
        if not question:
            break
        try:
            result = ask(documents, question, cfg, previous)
        except RAGError as exc:
            print(f"error: {exc}", file=sys.stderr)
            continue
        if result.retrieval_query != question:
            print(f"(searched for: {result.retrieval_query})")
        print_result(result, cfg)
        previous = result.retrieval_query


def _is_folder(arg: str | Path) -> bool:
    try:
        return Path(arg).is_dir()
    except OSError:  # a long question is not a valid path at all
        return False


def _is_file(arg: str | Path) -> bool:
    try:
        return Path(arg).is_file()
    except OSError:
        return False


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="rag.py", description="Ask a question about PDFs; get a cited, verified answer.")
    parser.add_argument("question", nargs="?", default=None,
                        help=f'the question (default: "{DEFAULT_QUESTION}")')
    parser.add_argument("pdfs", nargs="*", help="PDF files or folders (default: the built-in sample)")
    parser.add_argument("--top-k", type=int, help="chunks to retrieve")
    parser.add_argument("--chunk-size", type=int, help="tokens per chunk")
    parser.add_argument("--overlap", type=int, help="tokens shared by neighbouring chunks")
    parser.add_argument("--chunker", choices=["fixed", "sentence"], help="chunking strategy")
    parser.add_argument("--retrieval", choices=["dense", "bm25", "hybrid"], help="retrieval method")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--show-context", action="store_true", help="print the retrieved chunks")
    parser.add_argument("--chat", action="store_true", help="interactive questions with follow-ups")
    args = parser.parse_args(argv)
    looks_like_document = args.question and (args.question.lower().endswith(".pdf")
                                             or _is_folder(args.question))
    if args.question and (args.chat or looks_like_document):
        # `rag.py report.pdf` asks the default question about report.pdf; in chat mode every
        # positional is a document.
        args.pdfs.insert(0, args.question)
        args.question = None
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    cfg = get_config(top_k=args.top_k, chunk_size=args.chunk_size, chunk_overlap=args.overlap,
                     chunker=args.chunker, retrieval=args.retrieval)
    if args.chat:
        chat(index_documents(pdf_paths(args.pdfs), cfg, show_progress=True), cfg)
        return
    question = DEFAULT_QUESTION if args.question is None else args.question
    result = run(question, args.pdfs, cfg, show_progress=not args.json)
    if args.json:
        print(json.dumps(to_json(result, cfg), indent=2))
    else:
        print_result(result, cfg, args.show_context)


if __name__ == "__main__":
    run_cli(main)
