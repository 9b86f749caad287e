"""Step 4: index chunks in Chroma and retrieve the top-k for a question.  [provided: M2]

`build_index(chunks)` embeds the chunks into a persistent Chroma collection (cosine space),
with a BM25 index of the same chunks beside it (bm25.py); `retrieve(collection, query, k)`
returns the k most relevant chunks, best first, each with its page and cosine `score`.
Retrieval is dense (Chroma's own nearest-neighbour index), BM25 (exact words), or both fused
by reciprocal rank fusion (`RAG_RETRIEVAL=dense|bm25|hybrid`). Only the candidates are read
back from Chroma, never the whole collection.

The index describes itself: every collection records the embedding model that built it, its
chunk count and that its build finished; `open_index` reuses only a complete one, and
`retrieve` refuses to query it with another embedding model (vectors of two models live in
different spaces, so the nearest neighbours would be confident nonsense).

Where the collections live (the embedded store in `.rag_index/`, or a Chroma server with
`CHROMA_HOST` set) is store.py's business.

Run alone:  python code/retriever.py ["question"]    (indexes the sample report, prints hits)
"""

from __future__ import annotations

import hashlib
import sys
from contextlib import suppress
from pathlib import Path

import bm25
import numpy as np
from chunker import Chunk
from cli import run_cli
from config import REPO_ROOT, Config, RAGError, get_config
from embedding_helpers import embed_many, embed_one
from pdf_loader import neutralise
from store import APP, bm25_folder, collection_name, compact_store, get_client

# Each retriever proposes this many candidates (or k, if more) before fusion. One number for
# every k, so the first five of a top 8 are the top 5: a deeper list would re-rank them. Not
# deeper: 50 cost a weak embedder's retrieval (fake server, dev set Hit@5 0.861 -> 0.833).
CANDIDATES = 20
# A BM25 top hit scoring this many times the runner-up is a clear winner, ranked first. A lower
# ratio scored higher on the dev set's tune half (MRR@5 0.763 at 1.5, 0.781 at 1.2, 0.792 at 1.0)
# and lower on the held-out rule book (0.750, 0.683, 0.650): a short question of common words
# ("game", "player") gives BM25 margins by chance.
BM25_CLEAR_WIN = 1.5
ADD_BATCH = 256
# The probe-derived gate refuses a question less related to the corpus than a typical (median)
# off-topic probe. Lenient on purpose: a grounded model still refuses what passes; a gate set
# higher refused up to 70% of answerable questions with a word-count embedder.
PROBE_QUANTILE = 0.5
PROBES = REPO_ROOT / "data" / "offtopic_probes.txt"


class IndexMismatchError(RAGError):
    """The index was built with a different embedding model than the one configured now."""


def chunks_key(chunks: list[Chunk], cfg: Config) -> str:
    """The default collection key: the chunks (so the text and the chunking) and the model."""
    h = hashlib.sha256(cfg.embedding_model.encode())
    for c in chunks:
        label = f"/{c.page_label}" if c.page_label else ""  # documents without labels keep their keys
        h.update(f"\x00{c.id}\x00{c.source}\x00{c.page}{label}\x00{c.char_start}\x00{c.text}".encode())
    return h.hexdigest()


def open_index(key: str, cfg: Config | None = None, listed: dict | None = None):
    """The finished, whole collection for `key`, or None (none yet, or a build that did not
    finish, or rows gone missing: build_index replaces it). `listed` (name -> collection, from
    one list_collections) saves a round-trip per file; a name not in it counts as missing."""
    cfg = cfg or get_config()
    name = collection_name(key)
    try:
        collection = get_client(cfg).get_collection(name) if listed is None else listed[name]
    except Exception:  # Chroma raises NotFoundError (ValueError in older releases); KeyError
        return None
    meta = collection.metadata or {}
    if meta.get("app") != APP:
        raise RAGError(f"the Chroma collection {name} was not made by this project; set "
                       f"RAG_INDEX_DIR (or CHROMA_HOST) to a store of its own")
    if not meta.get("complete") or collection.count() != meta.get("n_chunks"):
        return None
    if not bm25.exists(bm25_folder(name, cfg)):
        got = collection.get(include=["documents"])  # a server's index, new to this machine
        bm25.save(got["documents"], got["ids"], bm25_folder(name, cfg))
    return collection


def _metadata(chunk: Chunk) -> dict:
    fields = {"source": chunk.source, "start": chunk.start, "page": chunk.page, "page_label": chunk.page_label,
              "char_start": chunk.char_start, "char_end": chunk.char_end}
    return {k: v for k, v in fields.items() if v is not None}  # Chroma stores no None


def build_index(chunks: list[Chunk], cfg: Config | None = None, key: str | None = None,
                progress=None, **metadata) -> "Collection":  # noqa: F821 - chromadb type
    """Embed `chunks` into a Chroma collection (cosine) with its BM25 index, and return it;
    reuse the finished collection when the same chunks were indexed before with the same model.

    `key` names the collection (default: a hash of the chunks and the model); extra keyword
    arguments are stored in the collection's metadata (documents.py records the source file)."""
    cfg = cfg or get_config()
    key = key or chunks_key(chunks, cfg)
    existing = open_index(key, cfg)
    if existing is not None:
        return existing
    client, name = get_client(cfg), collection_name(key)
    with suppress(Exception):  # none there: NotFoundError (ValueError in older Chroma releases)
        client.delete_collection(name)  # an interrupted build, or one with rows gone missing
        compact_store(cfg)  # and its vector folder, which Chroma leaves behind
    meta = {"app": APP, "embedding_model": cfg.embedding_model, "complete": False,
            "n_chunks": len(chunks), **{k: v for k, v in metadata.items() if v is not None}}
    # Chroma writes its HNSW index every 1,000 rows and replays the rest from its log at every
    # open (0.3 s for 4,000 chunks, 10 ms a small file): written once, after the last chunk.
    hnsw = {"space": "cosine", "batch_size": max(1, len(chunks)), "sync_threshold": max(1, len(chunks))}
    collection = client.create_collection(name, configuration={"hnsw": hnsw}, metadata=meta, embedding_function=None)
    try:
        for i in range(0, len(chunks), ADD_BATCH):
            batch = chunks[i:i + ADD_BATCH]
            vectors = embed_many([c.text for c in batch], cfg)
            meta["embedding_dim"] = vectors.shape[1]
            collection.add(ids=[c.id for c in batch], embeddings=vectors,
                           documents=[c.text for c in batch], metadatas=[_metadata(c) for c in batch])
            if progress:
                progress(len(batch))
        bm25.save([c.text for c in chunks], [c.id for c in chunks], bm25_folder(name, cfg))
        meta["gate_threshold"] = probe_threshold(collection, cfg)
        # Only now is the index usable: an interrupted build leaves complete=False behind.
        collection.modify(metadata={**meta, "complete": True})
    except BaseException:
        client.delete_collection(name)
        compact_store(cfg)
        raise
    return collection


def probe_threshold(collection, cfg: Config) -> float:
    """A relevance gate for this corpus and embedding model: the PROBE_QUANTILE of the best
    scores that off-topic questions (data/offtopic_probes.txt) reach in it."""
    probes = [line.strip() for line in PROBES.read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    found = collection.query(query_embeddings=embed_many(probes, cfg), n_results=1, include=["distances"])
    return round(float(np.quantile([1.0 - d[0] for d in found["distances"]], PROBE_QUANTILE)), 4)


def check_model(collection, cfg: Config) -> None:
    built_with = (collection.metadata or {}).get("embedding_model")
    if built_with != cfg.embedding_model:
        raise IndexMismatchError(f"the index was built with embedding model {built_with!r} but the current one "
                                 f"is {cfg.embedding_model!r}; query with EMBEDDING_MODEL={built_with} or "
                                 f"rebuild the index with the current model (delete {cfg.index_dir})")


def id_prefixes(collections) -> list[str]:
    """Chunk id prefixes when several documents are searched ("" for one): "report:", "report-2:"."""
    if len(collections) == 1:
        return [""]
    prefixes: list[str] = []
    for c in collections:
        base = (c.metadata or {}).get("tag", c.name)
        prefixes.append(next(f"{tag}:" for tag in [base] + [f"{base}-{n}" for n in range(2, len(collections) + 2)]
                             if f"{tag}:" not in prefixes))
    return prefixes


def source_names(collections) -> list[str | None]:
    """When searched files share a name, enough of each path to tell them apart ("a/doc.pdf")."""
    paths = [Path(m["source_path"]) if m.get("source_path") else None for m in (c.metadata or {} for c in collections)]
    names = [p.name if p else None for p in paths]
    for depth in range(2, max((len(p.parts) for p in paths if p), default=0) + 1):
        clash = {n for n in names if n and names.count(n) > 1}
        names = [neutralise(str(Path(*p.parts[-depth:]))) if n in clash else n for p, n in zip(paths, names)]
    return [n if p and n != p.name else None for p, n in zip(paths, names)]  # None: the chunks' own


def _dense(collections, q: np.ndarray, n: int) -> tuple[list, dict]:
    """Chroma's nearest neighbours of each collection, merged by distance: the ranking of
    (collection index, id), and each hit's cosine score. Texts are read later, for the few
    that can make the top k (100 files x 20 hits would read 2,000 texts for 5)."""
    hits = []
    for number, c in enumerate(collections):
        res = c.query(query_embeddings=[q], n_results=min(n, c.metadata["n_chunks"]), include=["distances"])
        hits += [(dist, (number, cid)) for cid, dist in zip(res["ids"][0], res["distances"][0])]
    hits = sorted(hits)[:n]
    return [key for _, key in hits], {key: 1.0 - dist for dist, key in hits}


def _sparse(collections, query: str, n: int, cfg: Config) -> tuple[list, list[float]]:
    """BM25's ranking of (collection index, id) across the collections, and its scores."""
    hits = []
    for number, c in enumerate(collections):
        hits += [(-score, (number, cid)) for cid, score in bm25.ranking(bm25_folder(c.name, cfg), query, n)]
    hits = sorted(hits)[:n]
    return [key for _, key in hits], [-score for score, _ in hits]


def _keep_clear_winner(order: list, sparse: list, scores: list[float], k: int) -> list:
    """Rank fusion forgets margins: the passage BM25 alone ranks far above the rest (it holds
    the asked name, number or code; one row of a table of near-identical rows) can sink below
    passages both rankings find middling, or out of the top k. Such a clear winner comes first."""
    if sparse and (len(scores) == 1 or scores[0] >= BM25_CLEAR_WIN * scores[1]):
        return [sparse[0]] + [key for key in order if key != sparse[0]][:k - 1]
    return order[:k]


def _read(collections, keys: list, scores: dict, q: np.ndarray) -> dict:
    """Fetch by id the text and metadata of `keys`, one request per collection; the vectors
    only of those dense search did not score, for their cosine score."""
    found = {}
    for number, c in enumerate(collections):
        wanted = list(dict.fromkeys(cid for n_, cid in keys if n_ == number))
        if not wanted:
            continue
        vectors = any((number, cid) not in scores for cid in wanted)
        got = c.get(ids=wanted, include=["documents", "metadatas"] + ["embeddings"] * vectors)
        for i, (cid, text, meta) in enumerate(zip(got["ids"], got["documents"], got["metadatas"])):
            score = scores.get((number, cid))
            found[(number, cid)] = (text, meta, float(np.asarray(got["embeddings"][i]) @ q) if score is None else score)
    return found


def retrieve(collection, query: str, k: int, cfg: Config | None = None) -> list[Chunk]:
    """The k chunks most relevant to `query`, best first, each with its cosine `score` and its
    `ranks` (dense, bm25, fused; None where a ranking did not list it).

    `collection` may also be a list of collections (one per document): their chunks are
    searched together and each id is prefixed with its document's tag ("report:c3")."""
    cfg = cfg or get_config()
    collections = list(collection) if isinstance(collection, (list, tuple)) else [collection]
    for c in collections:
        check_model(c, cfg)
    q = embed_one(query, cfg)
    n = max(k, CANDIDATES)
    dense, scores = _dense(collections, q, n) if cfg.retrieval != "bm25" else ([], {})
    sparse, sparse_scores = _sparse(collections, query, n, cfg) if cfg.retrieval != "dense" else ([], [])
    fused = bm25.fuse([dense, sparse])
    # Only what can make the top k is read: the keys fused at least as high as the k-th
    # (ties are broken by cosine score) and BM25's best (a clear winner comes first).
    cut = sorted(fused.values(), reverse=True)[min(k, len(fused)) - 1] if fused else 0.0
    contenders = [key for key in fused if fused[key] >= cut] + [key for key in sparse[:1] if fused[key] < cut]
    found = _read(collections, contenders, scores, q)
    order = _keep_clear_winner(sorted(contenders, key=lambda key: (-fused[key], -found[key][2])), sparse,
                               sparse_scores, k)
    prefixes, names = id_prefixes(collections), source_names(collections)
    chunks = []
    for rank, key in enumerate(order, start=1):
        text, meta, score = found[key]
        ranks = {"dense": dense.index(key) + 1 if key in dense else None,
                 "bm25": sparse.index(key) + 1 if key in sparse else None, "fused": rank}
        chunks.append(Chunk(id=prefixes[key[0]] + key[1], text=text, source=names[key[0]] or meta.get("source", "doc"),
                            start=meta.get("start", 0), page=meta.get("page"), page_label=meta.get("page_label"),
                            char_start=meta.get("char_start"),
                            char_end=meta.get("char_end"), score=score, ranks=ranks))
    return chunks


def main(argv: list[str] | None = None) -> None:
    from chunker import chunk_pages
    from pdf_loader import SAMPLE_PAGES

    query = " ".join(sys.argv[1:] if argv is None else argv) or "What was Q3 revenue?"
    cfg = get_config()
    chunks = chunk_pages(SAMPLE_PAGES, cfg.chunk_size, cfg.chunk_overlap, "sample", cfg.chunker)
    reused = open_index(chunks_key(chunks, cfg), cfg) is not None
    collection = build_index(chunks, cfg, source="sample")
    print(f"{len(chunks)} chunks {'reused from' if reused else 'indexed into'} {collection.name} "
          f"({cfg.embedding_model}, {cfg.retrieval} retrieval); top {cfg.top_k} for {query!r}:")
    for c in retrieve(collection, query, cfg.top_k, cfg):
        print(f"  [{c.id}] p.{c.page} score {c.score:.3f} ranks {c.ranks}: {c.text[:70]}...")


if __name__ == "__main__":
    run_cli(main)
