"""Step 4, the budget: fit the retrieved chunks into the model's context.  [provided]

A model is handed at most `RAG_CONTEXT_BUDGET_CHARS` characters of context. When the retrieved
chunks are longer (large chunks, or a large --top-k), `fit_to_budget` keeps the parts that
matter: each chunk is cut into windows of about WINDOW_CHARS characters at sentence ends, and
the windows that best match the question (by meaning, exact words and their chunk's rank) are
kept.
A chunk keeps its id, so its citations still resolve.

Run alone:  python code/budget.py ["question"] [BUDGET]    (the sample's top chunks, fitted)
"""

from __future__ import annotations

import sys
from dataclasses import replace

from bm25 import fuse, rank_texts
from chunker import Chunk
from cli import run_cli
from config import Config, get_config
from embedding_helpers import embed_many, embed_one
from textutils import sentence_spans

# Windows this long hold a sentence or three: small enough to drop what is off the question,
# large enough to keep a sentence with the one that explains it.
WINDOW_CHARS = 500


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
        if used + len(texts[i]) <= budget:
            kept.add(i)
            used += len(texts[i]) + 1
    selected = []
    for n, chunk in enumerate(chunks):
        text = " ".join(w for i, (m, w) in enumerate(windows) if m == n and i in kept)
        if text:
            selected.append(replace(chunk, text=text))
    return selected


def main(argv: list[str] | None = None) -> None:
    from chunker import chunk_pages
    from pdf_loader import SAMPLE_PAGES
    from retriever import build_index, retrieve

    args = sys.argv[1:] if argv is None else argv
    question = args[0] if args else "What was Q3 revenue?"
    budget = int(args[1]) if len(args) > 1 else 1500
    cfg = get_config()
    chunks = chunk_pages(SAMPLE_PAGES, cfg.chunk_size, cfg.chunk_overlap, "sample", cfg.chunker)
    retrieved = retrieve(build_index(chunks, cfg, source="sample"), question, cfg.top_k, cfg)
    fitted = fit_to_budget(question, retrieved, budget, cfg)
    print(f"top {len(retrieved)} chunks for {question!r}: {sum(len(c.text) for c in retrieved)} characters; "
          f"fitted into {budget}: {sum(len(c.text) for c in fitted)}")
    for chunk in fitted:
        print(f"  [{chunk.id}] {chunk.text[:100]}{' ...' if len(chunk.text) > 100 else ''}")


if __name__ == "__main__":
    run_cli(main)
