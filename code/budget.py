"""Step 4, the context: whole sentences, fitted into the model's budget.  [provided]

A window of words cuts a sentence at each of its edges, and a quote that starts or ends in the
middle of a sentence misleads. `whole_sentences` completes such a sentence from the chunk before
or after it on the same page (read back from the index), when its end is near.

A model is handed at most `RAG_CONTEXT_BUDGET_CHARS` characters of context. When the retrieved
chunks are longer (large chunks, or a large --top-k), `fit_to_budget` keeps the parts that
matter: each chunk is cut into windows of about WINDOW_CHARS characters at sentence ends, and
the windows that best match the question (by meaning, exact words and their chunk's rank) are
kept.
A chunk keeps its id, so its citations still resolve.

Run alone:  python code/budget.py ["question"] [BUDGET]    (the sample's top chunks, completed and fitted)
"""

from __future__ import annotations

import re
import sys
from dataclasses import replace

from bm25 import fuse, rank_texts
from chunker import Chunk
from cli import run_cli
from config import MIN_CONTEXT_BUDGET, Config, RAGError, get_config
from embedding_helpers import embed_many, embed_one
from retriever import id_prefixes
from textutils import sentence_spans

# Windows this long hold a sentence or three: small enough to drop what is off the question,
# large enough to keep a sentence with the one that explains it.
WINDOW_CHARS = 500
# A cut sentence is completed only when its end lies within this many words of the chunk's edge:
# further on, the words are a table or a list run together, not one sentence.
MAX_COMPLETION_WORDS = 60
_SENTENCE_END = re.compile(r"[.!?][\"')\]\u201d\u2019]*$")


def completed(words: list[str], before: list[str], after: list[str]) -> str:
    """The chunk's `words` with the sentence cut at each edge completed from the `before` and
    `after` words around it on its page: only up to the nearest sentence end, and not at all
    when that end is more than MAX_COMPLETION_WORDS away."""
    before, after = before[-MAX_COMPLETION_WORDS:], after[:MAX_COMPLETION_WORDS]
    text = " ".join(before + words + after)
    first = len(" ".join(before + [""])) if before else 0  # where the chunk's first word starts
    last = len(" ".join(before + words))  # where its last word ends
    spans = sentence_spans(text)
    start = next(s for s, e in spans if e > first)
    end = next(e for s, e in spans if e >= last)
    if start == 0 and before:
        start = first  # no sentence end among the words before: the start is not in sight
    if end == len(text) and after and not _SENTENCE_END.search(after[-1]):
        end = last
    return text[min(start, first):max(end, last)]


def whole_sentences(chunks: list[Chunk], collections) -> list[Chunk]:
    """The retrieved chunks with the sentences cut at their edges completed from their
    neighbours in the index (c4 from c3 and c5), on the same page only: a citation names one."""
    places = {chunk.id: _position(chunk.id, id_prefixes(collections)) for chunk in chunks}
    stored = _neighbours(collections, [place for place in places.values() if place])
    result = []
    for chunk in chunks:
        if places[chunk.id] is None:
            result.append(chunk)
            continue
        number, n = places[chunk.id]
        words = chunk.text.split()
        before = _words_beside(chunk, words, stored.get((number, n - 1)), side=-1)
        after = _words_beside(chunk, words, stored.get((number, n + 1)), side=1)
        result.append(replace(chunk, text=completed(words, before, after)) if before or after else chunk)
    return result


def _position(chunk_id: str, prefixes: list[str]) -> tuple[int, int] | None:
    """(collection index, chunk number) of an id such as "report:c4"."""
    for number, prefix in enumerate(prefixes):
        match = re.fullmatch(re.escape(prefix) + r"c(\d+)", chunk_id)
        if match:
            return number, int(match.group(1))
    return None


def _neighbours(collections, places: list[tuple[int, int]]) -> dict[tuple[int, int], tuple[str, dict]]:
    """The text and metadata of the chunks before and after each place, one request per collection."""
    stored = {}
    for number in {number for number, _ in places}:
        ids = sorted({f"c{n + step}" for m, n in places if m == number for step in (-1, 1)})
        got = collections[number].get(ids=ids, include=["documents", "metadatas"])
        for cid, text, meta in zip(got["ids"], got["documents"], got["metadatas"]):
            stored[(number, int(cid[1:]))] = (text, meta)
    return stored


def _words_beside(chunk: Chunk, words: list[str], neighbour: tuple[str, dict] | None, side: int) -> list[str]:
    """The neighbour's words before (side -1) or after (+1) the chunk, when it lies on the same
    page and agrees with the chunk where the two overlap; else none."""
    other, meta = (neighbour[0].split(), neighbour[1]) if neighbour else ([], {})
    if not other or meta.get("page") != chunk.page or meta.get("start") is None:
        return []
    if side < 0:
        cut = chunk.start - meta["start"]  # the neighbour's words up to the chunk's first
        overlap = other[cut:]
        return other[:cut] if 0 < cut <= len(other) and overlap == words[:len(overlap)] else []
    cut = chunk.start + len(words) - meta["start"]  # the neighbour's words after the chunk's last
    overlap = other[:cut]
    return other[cut:] if 0 <= cut < len(other) and overlap == words[len(words) - cut:] else []


def windows_of(text: str) -> list[str]:
    """`text` cut at sentence ends into pieces of about WINDOW_CHARS characters (a longer
    sentence is a window of its own)."""
    windows, current = [], ""
    for start, end in sentence_spans(text):
        if current and len(current) + end - start + 1 > WINDOW_CHARS:
            windows.append(current)
            current = ""
        current = f"{current} {text[start:end]}".strip()
    return windows + [current] if current else windows


def fit_to_budget(question: str, chunks: list[Chunk], budget: int, cfg: Config) -> list[Chunk]:
    """Fit the retrieved chunks (best first) into `budget` characters by relevance, not
    position: cut each chunk into ~WINDOW_CHARS windows at sentence ends, rank the windows by
    meaning, exact words and their chunk's rank together, keep the best that fit, and give each
    chunk back only its kept windows (same id, same order)."""
    if sum(len(c.text) for c in chunks) <= budget:
        return chunks
    windows = [(n, window) for n, chunk in enumerate(chunks) for window in windows_of(chunk.text)]
    texts = [window for _, window in windows]
    similarity = embed_many(texts, cfg) @ embed_one(question, cfg)
    # Three votes, fused as retrieval fuses its rankings: meaning (cosine), the question's exact
    # words (BM25: a weak embedder misses "IDL stands for" for "What does IDL stand for?"), and
    # the chunk's retrieval rank (windows are listed in it), so a long --top-k list of
    # near-similar chunks cannot crowd out the top chunk's answer.
    votes = fuse([sorted(range(len(texts)), key=lambda i: -similarity[i]), rank_texts(texts, question),
                  list(range(len(texts)))])
    kept, used = set(), 0
    for i in sorted(votes, key=lambda i: -votes[i]):
        if not kept and len(texts[i]) > budget:  # the best window alone is over: its start, not nothing
            texts[i] = texts[i][:budget].rsplit(" ", 1)[0] if " " in texts[i][:budget] else texts[i][:budget]
        if used + len(texts[i]) <= budget:
            kept.add(i)
            used += len(texts[i]) + 1
    selected = []
    for n, chunk in enumerate(chunks):
        text = " ".join(texts[i] for i, (m, _) in enumerate(windows) if m == n and i in kept)
        if text:
            selected.append(replace(chunk, text=text))
    return selected


def main(argv: list[str] | None = None) -> None:
    from chunker import chunk_pages
    from pdf_loader import SAMPLE_PAGES
    from retriever import build_index, retrieve

    args = sys.argv[1:] if argv is None else argv
    question = args[0] if args else "What was Q3 revenue?"
    budget = args[1] if len(args) > 1 else "1500"
    if not budget.isdigit() or int(budget) < MIN_CONTEXT_BUDGET:  # as RAG_CONTEXT_BUDGET_CHARS
        raise RAGError(f"the budget must be a whole number of characters, at least {MIN_CONTEXT_BUDGET} (got {budget!r}); "
                       f"e.g. python code/budget.py \"{question}\" 1500")
    budget = int(budget)
    cfg = get_config()
    chunks = chunk_pages(SAMPLE_PAGES, cfg.chunk_size, cfg.chunk_overlap, "sample", cfg.chunker)
    collection = build_index(chunks, cfg, source="sample")
    retrieved = retrieve(collection, question, cfg.top_k, cfg)
    whole = whole_sentences(retrieved, [collection])
    fitted = fit_to_budget(question, whole, budget, cfg)
    print(f"top {len(retrieved)} chunks for {question!r}: {sum(len(c.text) for c in retrieved)} characters; "
          f"{sum(len(c.text) for c in whole)} with their cut sentences completed; "
          f"fitted into {budget}: {sum(len(c.text) for c in fitted)}")
    for chunk in fitted:
        print(f"  [{chunk.id}] {chunk.text[:100]}{' ...' if len(chunk.text) > 100 else ''}")


if __name__ == "__main__":
    run_cli(main)
