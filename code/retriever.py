"""Step 3 of the pipeline: index chunks in Chroma and retrieve the top-k for a question.  [provided]

`build_index(chunks)` embeds the chunks into a persistent Chroma collection (cosine space) and
`retrieve(collection, query, k)` returns the k most relevant chunks, nearest first, each with
its page and cosine `score`. Retrieval is dense (Chroma), BM25 (exact words), or both fused by
reciprocal rank fusion (`RAG_RETRIEVAL=dense|bm25|hybrid`).

The index describes itself: every collection records the embedding model and dimension that
built it, and `retrieve` refuses to query it with another model (vectors from two models live
in different spaces, so the nearest neighbours would be confident nonsense). A collection is
named by a hash of what went into it, so a re-run over the same document reuses it without
embedding again; a collection whose build was interrupted is never reused.

With `CHROMA_HOST` set, the same code talks to a Chroma server (`chroma run`) instead of the
embedded store in `.rag_index/`.

Run alone:  python code/retriever.py ["question"]    (indexes the sample report, prints hits)
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import lru_cache

import numpy as np
from chunker import Chunk
from config import Config, RAGError, get_config, run_cli
from embedding_helpers import embed_many, embed_one
from textutils import terms

# Reciprocal rank fusion constant (Cormack et al. 2009): large enough that one list's top
# rank does not drown the other list.
RRF_K = 60
# Each retriever proposes this many candidates per requested result before fusion.
CANDIDATES_PER_RESULT = 4
ADD_BATCH = 256


class IndexMismatchError(RAGError):
    """The index was built with a different embedding model than the one configured now."""


def _chroma_settings():
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False, allow_reset=False)


@lru_cache(maxsize=8)
def _client(where: tuple):
    import chromadb

    if where[0] == "http":
        _, host, port, ssl, token = where
        headers = {"Authorization": f"Bearer {token}"} if token else None
        try:
            client = chromadb.HttpClient(host=host, port=port, ssl=ssl, headers=headers,
                                         settings=_chroma_settings())
            client.heartbeat()
        except Exception as exc:
            raise RAGError(f"cannot reach the Chroma server at {host}:{port} "
                           f"({type(exc).__name__}); start it with `chroma run --path DIR "
                           f"--port {port}` or unset CHROMA_HOST to use the embedded index") from None
        return client
    try:
        return chromadb.PersistentClient(path=where[1], settings=_chroma_settings())
    except Exception as exc:
        raise RAGError(f"cannot open the index folder {where[1]} ({type(exc).__name__}: "
                       f"{str(exc)[:120]}); delete it or set RAG_INDEX_DIR to another folder") from None


def get_client(cfg: Config | None = None):
    """The Chroma client: a server when CHROMA_HOST is set, else the embedded store on disk."""
    cfg = cfg or get_config()
    host = os.environ.get("CHROMA_HOST")
    if host:
        port = int(os.environ.get("CHROMA_PORT", "8000"))
        ssl = os.environ.get("CHROMA_SSL", "").lower() in {"1", "true", "yes"}
        return _client(("http", host, port, ssl, os.environ.get("CHROMA_AUTH_TOKEN", "")))
    return _client(("path", os.path.abspath(cfg.index_dir)))


def chunks_key(chunks: list[Chunk], cfg: Config) -> str:
    """What a collection is named after: the chunks (so the document text and the chunking
    parameters) and the embedding model."""
    h = hashlib.sha256(cfg.embedding_model.encode())
    for c in chunks:
        h.update(f"\x00{c.id}\x00{c.source}\x00{c.page}\x00{c.char_start}\x00{c.text}".encode())
    return h.hexdigest()


def collection_name(key: str) -> str:
    return "doc-" + hashlib.sha256(key.encode()).hexdigest()[:40]


def open_index(key: str, cfg: Config | None = None):
    """The finished collection for `key`, or None. A half-built one is deleted, never reused."""
    cfg = cfg or get_config()
    client = get_client(cfg)
    name = collection_name(key)
    try:
        collection = client.get_collection(name, embedding_function=None)
    except Exception:  # Chroma raises NotFoundError (ValueError in older releases)
        return None
    if not (collection.metadata or {}).get("complete"):
        client.delete_collection(name)
        return None
    return collection


def _metadata(chunk: Chunk) -> dict:
    fields = {"id": chunk.id, "source": chunk.source, "start": chunk.start, "page": chunk.page,
              "char_start": chunk.char_start, "char_end": chunk.char_end}
    return {k: v for k, v in fields.items() if v is not None}  # Chroma stores no None


def build_index(chunks: list[Chunk], cfg: Config | None = None, key: str | None = None,
                progress=None, **metadata) -> "Collection":  # noqa: F821 - chromadb type
    """Embed `chunks` into a Chroma collection (cosine) and return it; reuse the finished
    collection when the same chunks were indexed before with the same embedding model.

    `key` names the collection (default: a hash of the chunks and the model); extra keyword
    arguments are stored in the collection's metadata (rag.py records the source file)."""
    cfg = cfg or get_config()
    key = key or chunks_key(chunks, cfg)
    existing = open_index(key, cfg)
    if existing is not None:
        return existing
    client = get_client(cfg)
    name = collection_name(key)
    meta = {"embedding_model": cfg.embedding_model, "complete": False, "n_chunks": len(chunks),
            **{k: v for k, v in metadata.items() if v is not None}}
    collection = client.create_collection(name, configuration={"hnsw": {"space": "cosine"}},
                                          metadata=meta, embedding_function=None)
    try:
        dim = 0
        for i in range(0, len(chunks), ADD_BATCH):
            batch = chunks[i:i + ADD_BATCH]
            vectors = embed_many([c.text for c in batch], cfg)
            dim = vectors.shape[1]
            collection.add(ids=[c.id for c in batch], embeddings=vectors,
                           documents=[c.text for c in batch],
                           metadatas=[_metadata(c) for c in batch])
            if progress:
                progress(len(batch))
        # Only now is the index usable: an interrupted build leaves complete=False behind.
        collection.modify(metadata={**meta, "embedding_dim": dim, "complete": True})
    except BaseException:
        client.delete_collection(name)
        raise
    return collection


# ------------------------------------------------------------------------------- retrieval

def check_model(collection, cfg: Config) -> None:
    built_with = (collection.metadata or {}).get("embedding_model")
    if built_with != cfg.embedding_model:
        raise IndexMismatchError(
            f"the index was built with embedding model {built_with!r} but the current one is "
            f"{cfg.embedding_model!r}; query with EMBEDDING_MODEL={built_with} or rebuild the "
            f"index with the current model (delete {cfg.index_dir})")


def _chunk(chunk_id: str, text: str, meta: dict, score: float | None, prefix: str) -> Chunk:
    return Chunk(id=prefix + chunk_id, text=text, source=meta.get("source", "doc"),
                 start=meta.get("start", 0), page=meta.get("page"),
                 char_start=meta.get("char_start"), char_end=meta.get("char_end"), score=score)


_CORPUS_CACHE: dict[tuple[str, int], tuple] = {}


def _read_all(collection) -> tuple:
    """All ids, texts, metadata and vectors of a collection, read once per process and size
    (BM25 needs every text; the cosine score of a BM25-only hit needs its vector)."""
    key = (collection.name, collection.count())
    if key not in _CORPUS_CACHE:
        got = collection.get(include=["documents", "metadatas", "embeddings"])
        _CORPUS_CACHE[key] = (got["ids"], got["documents"], got["metadatas"],
                              np.asarray(got["embeddings"], dtype=np.float32))
    return _CORPUS_CACHE[key]


@lru_cache(maxsize=16)
def _bm25_index(documents: tuple[str, ...]):
    """A BM25 index over the same content words the rest of the pipeline uses."""
    import logging

    import bm25s

    logging.getLogger("bm25s").setLevel(logging.WARNING)  # it logs every index build
    tokens = [terms(d) for d in documents]
    model = bm25s.BM25()
    model.index([t or ["\x00"] for t in tokens], show_progress=False)
    return model, set().union(*tokens) if tokens else set()


def _bm25_ranking(query: str, documents: list[str]) -> list[int]:
    model, vocabulary = _bm25_index(tuple(documents))
    query_terms = [t for t in terms(query) if t in vocabulary]
    if not query_terms:
        return []
    scores = model.get_scores(query_terms)
    return [int(i) for i in np.argsort(-scores, kind="stable") if scores[i] > 0]


def _id_prefixes(collections) -> list[str]:
    """"report:" for each document's chunk ids when several are searched together ("" for one);
    two files with the same name become "report:" and "report-2:"."""
    if len(collections) == 1:
        return [""]
    taken, prefixes = set(), []
    for c in collections:
        base = (c.metadata or {}).get("tag", c.name)
        tag, n = base, 2
        while tag in taken:
            tag, n = f"{base}-{n}", n + 1
        taken.add(tag)
        prefixes.append(tag + ":")
    return prefixes


def retrieve(collection, query: str, k: int, cfg: Config | None = None) -> list[Chunk]:
    """The k chunks most relevant to `query`, nearest first, each with its cosine `score`.

    `collection` may also be a list of collections (one per document): their chunks are
    searched together and each id is prefixed with its document's tag ("report:c3")."""
    cfg = cfg or get_config()
    collections = collection if isinstance(collection, (list, tuple)) else [collection]
    for c in collections:
        check_model(c, cfg)
    ids, docs, metas, vectors, prefixes = [], [], [], [], []
    for c, prefix in zip(collections, _id_prefixes(collections)):
        c_ids, c_docs, c_metas, c_vectors = _read_all(c)
        ids += c_ids
        docs += c_docs
        metas += c_metas
        prefixes += [prefix] * len(c_ids)
        if len(c_ids):
            vectors.append(c_vectors)
    if not ids:
        return []
    vectors = np.vstack(vectors)
    q = embed_one(query, cfg)
    if q.shape[0] != vectors.shape[1]:
        raise IndexMismatchError(f"question vectors have dimension {q.shape[0]} but the index "
                                 f"holds dimension {vectors.shape[1]}; rebuild the index")
    cosine = vectors @ q
    n = min(len(ids), max(k * CANDIDATES_PER_RESULT, 20))
    dense = _dense_ranking(collections, q, n, ids, prefixes) if cfg.retrieval != "bm25" else []
    sparse = _bm25_ranking(query, docs)[:n] if cfg.retrieval != "dense" else []
    if cfg.retrieval == "dense":
        order = dense
    elif cfg.retrieval == "bm25":
        order = sparse
    else:
        fused: dict[int, float] = {}
        for ranking in (dense, sparse):
            for rank, i in enumerate(ranking):
                fused[i] = fused.get(i, 0.0) + 1.0 / (RRF_K + rank + 1)
        order = sorted(fused, key=lambda i: (-fused[i], -cosine[i]))
    return [_chunk(ids[i], docs[i], metas[i], float(cosine[i]), prefixes[i]) for i in order[:k]]


def _dense_ranking(collections, q: np.ndarray, n: int, ids: list[str], prefixes: list[str]) -> list[int]:
    """Nearest neighbours from Chroma's HNSW index, merged across collections by distance."""
    position = {(p, i): n_ for n_, (p, i) in enumerate(zip(prefixes, ids))}
    hits = []
    for c, prefix in zip(collections, _id_prefixes(collections)):
        res = c.query(query_embeddings=[q], n_results=min(n, c.count()), include=["distances"])
        hits += [(d, position[(prefix, i)]) for i, d in zip(res["ids"][0], res["distances"][0])]
    return [i for _, i in sorted(hits)[:n]]


def main(argv: list[str] | None = None) -> None:
    from chunker import chunk_pages
    from pdf_loader import SAMPLE_PAGES

    args = sys.argv[1:] if argv is None else argv
    query = " ".join(args) or "What was Q3 revenue?"
    cfg = get_config()
    chunks = chunk_pages(SAMPLE_PAGES, cfg.chunk_size, cfg.chunk_overlap, "sample", cfg.chunker)
    collection = build_index(chunks, cfg, source="sample")
    hits = retrieve(collection, query, cfg.top_k, cfg)
    print(f"{len(chunks)} chunks indexed in {collection.name} ({cfg.embedding_model}, "
          f"{cfg.retrieval} retrieval); top {cfg.top_k} for {query!r}:")
    for c in hits:
        print(f"  [{c.id}] p.{c.page} score {c.score:.3f}: {c.text[:90]}...")


if __name__ == "__main__":
    run_cli(main)
