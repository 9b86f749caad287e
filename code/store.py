"""Step 4, where indexes live: the Chroma store, embedded or a server.  [provided]

`get_client(cfg)` is the store: the embedded one in RAG_INDEX_DIR (`.rag_index/`), or a Chroma
server (`chroma run`) when CHROMA_HOST is set. Every collection this project makes carries the
mark APP, and nothing else in a store is ever touched. `store_errors` turns the store's
failures (a full disk, a read-only folder, a server gone) into one line naming the fix;
`drop_index` and `compact_store` delete an index and give its space back; `usable_store` answers
from a temporary copy of an index folder this run cannot write (a shared mount, a CD).

Run alone:  python code/documents.py [PDF ...]    (indexes files in the store, says what it reused)
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import os
import re
import shutil
import signal
import sqlite3
import sys
import tempfile
import threading
from contextlib import closing, contextmanager
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from cli import one_line
from config import Config, RAGError, get_config

# Every collection this project creates carries this mark; nothing else is ever touched.
APP = "pdf-research-assistant"


def chromadb_module():
    """chromadb, imported from an empty folder: it reads a `.env` of the current folder when
    imported, and a stranger's file must neither redirect the index nor break the run."""
    if "chromadb" not in sys.modules:
        here = os.getcwd()
        with tempfile.TemporaryDirectory() as empty:
            os.chdir(empty)
            try:
                import chromadb  # noqa: F401
            finally:
                os.chdir(here)
    return sys.modules["chromadb"]


@lru_cache(maxsize=8)
def _client(where: tuple):
    chromadb = chromadb_module()
    settings = chromadb.config.Settings(_env_file=None, anonymized_telemetry=False, allow_reset=False)
    if where[0] == "http":
        _, host, port, ssl, token = where
        headers = {"Authorization": f"Bearer {token}"} if token else None
        # httpx logs every request at INFO, which reaches stderr once anything set up logging.
        logging.getLogger("httpx").setLevel(logging.WARNING)
        try:
            client = chromadb.HttpClient(host=host, port=port, ssl=ssl, headers=headers, settings=settings)
            client.heartbeat()
        except Exception as exc:
            if re.search(r"<html|\b404\b|not found", str(exc), re.I):  # a web server, not Chroma's API
                raise RAGError(f"the server at {host}:{port} answers but is not a Chroma server; check "
                               f"CHROMA_HOST and CHROMA_PORT (the port `chroma run` was given)") from None
            raise RAGError(f"cannot reach the Chroma server at {host}:{port} ({type(exc).__name__}); "
                           f"start it with `chroma run --path DIR --port {port}` or unset CHROMA_HOST "
                           f"to use the embedded index") from None
        return client
    from filelock import FileLock

    try:
        Path(where[1]).mkdir(parents=True, exist_ok=True)
        # Two runs on a new folder would both set up Chroma's tables ("table already exists").
        with FileLock(str(Path(where[1]) / "store.lock")):
            return chromadb.PersistentClient(path=where[1], settings=settings)
    except Exception as exc:
        raise RAGError(f"cannot open the index folder {where[1]} ({type(exc).__name__}: "
                       f"{str(exc)[:120]}); set RAG_INDEX_DIR to another folder") from None


# Chroma does not always say why a write failed ("Error in compaction: Failed to apply logs to
# the metadata segment" on a full disk): with less free space than this, a full disk is the cause.
NEARLY_FULL_BYTES = 1 << 20


def _nearly_full(folder: str) -> bool:
    try:
        return shutil.disk_usage(folder).free < NEARLY_FULL_BYTES
    except OSError:
        return False


@contextmanager
def store_errors(cfg: Config, doing: str):
    """Chroma's failures as one line that names the fix: a full disk, a read-only folder, a
    server that went away. Anything else is left to surface as a bug."""
    try:
        yield
    except RAGError:
        raise
    except Exception as exc:
        text = f"{type(exc).__name__} {exc}".lower()
        where = f"the Chroma server at {cfg.chroma_host}:{cfg.chroma_port}" if cfg.chroma_host else cfg.index_dir
        if "disk is full" in text or "no space" in text or (not cfg.chroma_host and _nearly_full(cfg.index_dir)):
            raise RAGError(f"the disk holding {where} is full while {doing}; free some space or set "
                           f"RAG_INDEX_DIR to a folder on another disk") from None
        if type(exc).__name__ == "NotFoundError":  # another run dropped it: the PDF changed or moved
            raise RAGError(f"an index in use was removed by another run while {doing} (its PDF changed or "
                           f"moved); run again to index the PDF as it is now") from None
        if "readonly" in text or "read-only" in text:
            raise RAGError(f"{where} is read-only while {doing}; set RAG_INDEX_DIR to a writable folder") from None
        if cfg.chroma_host and ("connect" in text or "timeout" in text or isinstance(exc, OSError)):
            raise RAGError(f"lost {where} while {doing}; is it still running? (`chroma run --path DIR "
                           f"--port {cfg.chroma_port}`)") from None
        raise


def get_client(cfg: Config | None = None):
    """The Chroma client: a server when CHROMA_HOST is set, else the embedded store on disk."""
    cfg = cfg or get_config()
    if cfg.chroma_host:
        return _client(("http", cfg.chroma_host, cfg.chroma_port, cfg.chroma_ssl, cfg.chroma_auth_token))
    return _client(("path", os.path.abspath(cfg.index_dir)))


def collection_name(key: str) -> str:
    return "doc-" + hashlib.sha256(key.encode()).hexdigest()[:40]


def bm25_folder(collection_name: str, cfg: Config) -> Path:
    """Where a collection's BM25 index lives: beside the embedded store (with a server, this
    machine's cache of it)."""
    return Path(cfg.index_dir) / "bm25" / collection_name


_SEGMENT_FOLDER = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# What Chroma writes in a collection's vector folder (hnswlib's files): a folder holding anything
# else, even under a UUID name, is not Chroma's and is never deleted.
_SEGMENT_FILES = {"header.bin", "data_level0.bin", "length.bin", "link_lists.bin", "index_metadata.pickle"}


def drop_index(collection_name: str, cfg: Config) -> None:
    """Delete a collection and its BM25 index."""
    get_client(cfg).delete_collection(collection_name)
    shutil.rmtree(bm25_folder(collection_name, cfg), ignore_errors=True)


def compact_store(cfg: Config) -> None:
    """After indexes are dropped from the embedded store, give their space back: Chroma leaves
    the vector folder of a deleted collection behind and SQLite keeps its freed pages (with
    the deleted text in them). Best effort: skipped while another process holds the store."""
    if cfg.chroma_host:
        return
    root = Path(cfg.index_dir)
    try:
        with closing(sqlite3.connect(root / "chroma.sqlite3", timeout=0.5)) as db:
            live = {row[0] for row in db.execute("SELECT id FROM segments")}
            db.execute("VACUUM")
    except sqlite3.Error:
        return
    for folder in root.iterdir():
        if _SEGMENT_FOLDER.fullmatch(folder.name) and folder.name not in live and _is_vector_folder(folder):
            shutil.rmtree(folder, ignore_errors=True)


def _is_vector_folder(folder: Path) -> bool:
    """A folder Chroma wrote: a real folder of hnswlib's files and nothing else."""
    if folder.is_symlink() or not folder.is_dir():
        return False
    entries = list(folder.iterdir())
    return bool(entries) and all(p.name in _SEGMENT_FILES and p.is_file() and not p.is_symlink() for p in entries)


def index_entries(root: Path) -> list[Path]:
    """What of an index folder is the index: the store's database, its vector folders and the
    BM25 indexes (a read-only index is copied by these, never the whole folder)."""
    return [p for p in sorted(root.iterdir()) if (p.name == "chroma.sqlite3" and p.is_file())
            or (p.name == "bm25" and p.is_dir() and not p.is_symlink())
            or (_SEGMENT_FOLDER.fullmatch(p.name) and _is_vector_folder(p))]


def usable_store(cfg: Config) -> Config:
    """The settings with an index folder this run can write: a read-only one (a shared mount,
    a CD) is used from a temporary copy, and new indexes are then not kept."""
    root = Path(cfg.index_dir)
    if cfg.chroma_host or not root.exists():
        return cfg
    if not root.is_dir():
        raise RAGError(f"RAG_INDEX_DIR={root} is a file, not a folder; set RAG_INDEX_DIR to a folder "
                       f"for the index (it is created if missing)")
    if os.access(root, os.W_OK) and _writable(root):
        return cfg
    return replace(cfg, index_dir=_copy_of(str(root)))


@lru_cache(maxsize=None)
def _copy_of(root: str) -> str:
    """A writable copy of a read-only index folder: made once per process, removed at its exit."""
    temp = tempfile.mkdtemp(prefix="rag_index_")
    atexit.register(shutil.rmtree, temp, True)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a `kill` runs atexit: the copy goes too
    copy = Path(temp) / "index"
    copy.mkdir()
    for entry in index_entries(Path(root)):  # the index only, not whatever else the folder holds
        if entry.is_dir():
            shutil.copytree(entry, copy / entry.name, copy_function=shutil.copyfile)
        else:
            shutil.copyfile(entry, copy / entry.name)
    for folder in [copy, *(p for p in copy.rglob("*") if p.is_dir())]:
        folder.chmod(0o700)  # copytree copies the folders' read-only modes too
    print(one_line(f"note: {root} is read-only; answering from a temporary copy (new indexes are not kept)"),
          file=sys.stderr)
    return str(copy)


def _writable(root: Path) -> bool:
    # os.access says yes to root even on a read-only mount: try it.
    try:
        tempfile.TemporaryFile(dir=root).close()
        return True
    except OSError:
        return False
