"""Step 4, exact words: a BM25 index per document, and reciprocal rank fusion.  [provided]

Dense retrieval finds passages that mean the same; BM25 (bm25s) finds the passages that share
the question's rare words ("Leipzig", "Form 1040"). `save` builds a document's BM25 index once,
beside its Chroma collection, and `ranking` loads it (memory-mapped, cached per process) to
rank the chunks for a question; `rank_texts` ranks a few texts in memory. `fuse` merges
several rankings by reciprocal rank fusion.

Run alone:  python code/bm25.py ["question"]    (ranks the sample report's chunks)
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from cli import run_cli
from textutils import terms

# Reciprocal rank fusion constant (Cormack et al. 2009): large enough that one list's top
# rank does not drown the other list.
RRF_K = 60
_IDS = "chunk_ids.json"


def _quiet_bm25s():
    import bm25s

    logging.getLogger("bm25s").setLevel(logging.WARNING)  # it logs every build and load
    return bm25s


@lru_cache(maxsize=1 << 17)
def _word_terms(word: str) -> tuple[str, ...]:
    return tuple(terms(word))


def _text_terms(text: str) -> list[str]:
    """terms(text), each distinct word stemmed once: a term never spans whitespace, so the
    terms of a text are its words' terms (a 1,000-page PDF: 1.3 s of stemming becomes 0.3 s)."""
    return [t for word in text.split() for t in _word_terms(word)]


def save(texts: list[str], ids: list[str], folder: Path) -> None:
    """Build the BM25 index of one document's chunks into `folder`, atomically: a reader sees
    the old folder or the whole new one, never half of it."""
    bm25s = _quiet_bm25s()
    model = bm25s.BM25()
    model.index([_text_terms(t) or ["\x00"] for t in texts], show_progress=False)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    try:
        model.save(str(staging), show_progress=False)
        (staging / _IDS).write_text(json.dumps(ids), encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def exists(folder: Path) -> bool:
    return (folder / _IDS).is_file()


@lru_cache(maxsize=256)
def _load(folder: str, stamp: float):
    model = _quiet_bm25s().BM25.load(folder, mmap=True, show_progress=False)
    ids = json.loads((Path(folder) / _IDS).read_text(encoding="utf-8"))
    return model, ids


def ranking(folder: Path, query: str, n: int) -> list[tuple[str, float]]:
    """The (chunk id, BM25 score) of the `n` best chunks for `query`, best first; chunks
    that share no word with the query are left out."""
    model, ids = _load(str(folder), (folder / _IDS).stat().st_mtime)
    return [(ids[i], score) for i, score in _scored(model, query)[:n]]


def vocabulary(folders: list[Path]) -> dict[str, int]:
    """Every term the documents' BM25 indexes hold, and how many of their chunks hold it."""
    return _vocabulary(tuple((str(folder), (folder / _IDS).stat().st_mtime) for folder in folders))


@lru_cache(maxsize=64)  # each question of a chat or an evaluation asks for the same documents' words
def _vocabulary(folders: tuple[tuple[str, float], ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for folder, stamp in folders:
        model, _ = _load(folder, stamp)
        starts = model.scores["indptr"]  # the chunks holding term i are entries starts[i]:starts[i + 1]
        for term, i in model.vocab_dict.items():
            if i + 1 < len(starts):
                counts[term] = counts.get(term, 0) + int(starts[i + 1] - starts[i])
    return counts


def rank_texts(texts: list[str], query: str) -> list[int]:
    """The positions of the `texts` that share a word with `query`, best BM25 score first: an
    index in memory, for a few texts (the context's windows), never saved."""
    model = _quiet_bm25s().BM25()
    model.index([_text_terms(t) or ["\x00"] for t in texts], show_progress=False)
    return [i for i, _ in _scored(model, query)]


def _scored(model, query: str) -> list[tuple[int, float]]:
    """(position, BM25 score) of every indexed text that shares a word with `query`, best first."""
    query_terms = [t for t in terms(query) if t in model.vocab_dict]
    if not query_terms:
        return []
    import numpy as np

    scores = model.get_scores(query_terms)
    return [(int(i), float(scores[i])) for i in np.argsort(-scores, kind="stable") if scores[i] > 0]


def fuse(rankings: list[list]) -> dict:
    """Reciprocal rank fusion: each item's sum over the rankings of 1 / (RRF_K + rank)."""
    fused: dict = {}
    for ranked in rankings:
        for rank, item in enumerate(ranked, start=1):
            fused[item] = fused.get(item, 0.0) + 1.0 / (RRF_K + rank)
    return fused


def main(argv: list[str] | None = None) -> None:
    from chunker import chunk_pages
    from pdf_loader import SAMPLE_PAGES

    query = " ".join(sys.argv[1:] if argv is None else argv) or "When did the Berlin office open?"
    chunks = chunk_pages(SAMPLE_PAGES, 120, 30, "sample")
    with tempfile.TemporaryDirectory() as tmp:
        save([c.text for c in chunks], [c.id for c in chunks], Path(tmp) / "sample")
        print(f"BM25 over {len(chunks)} sample chunks, query {query!r} -> terms {terms(query)}")
        by_id = {c.id: c for c in chunks}
        for cid, score in ranking(Path(tmp) / "sample", query, 5):
            print(f"  [{cid}] {score:6.2f}  {by_id[cid].text[:80]}...")


if __name__ == "__main__":
    run_cli(main)
