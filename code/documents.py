"""Step 4, per file: one index per PDF, built once, reused until the file changes.  [provided]

`index_documents(paths, cfg)` opens or builds the index of each PDF. An index is keyed by the
file's path and a hash of its bytes, the loader and chunker code, the chunking settings and the
embedding model, so a second question about the same PDF skips parsing and embedding, and a
changed file (or a changed chunker: yours, in M1) is indexed again.

Promises about the store (the README's "Reliability and security" section):
* builds of one file are serialised by a lock file, so two runs on a new PDF both succeed;
* an index is used only when its build finished and it holds every chunk it recorded;
* only collections this project made, on this machine for this user, are ever deleted: the
  old indexes of a file that changed or disappeared, or that older loader/chunker code made
  (an unchanged file's index under other settings is kept). Another user's or application's
  collections in a shared store or on a shared Chroma server are never touched.

Run alone:  python code/documents.py [PDF ...]    (indexes the files, says what was reused)
"""

from __future__ import annotations

import getpass
import hashlib
import os
import re
import socket
import sys
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from chunker import chunk_pages
from cli import as_text, one_line, run_cli
from config import Config, RAGError, get_config
from page_layout import is_glued
from pdf_loader import SAMPLE_PDF, PDFLoadError, check_file, glued_warning, neutralise, read_pdf
from progress import Progress
from retriever import build_index, open_index, source_names
from store import APP, compact_store, drop_index, get_client, store_errors, usable_store


@dataclass
class Document:
    source: str  # what citations call it: the file name (with folders when two share it)
    collection: object  # its Chroma collection (its metadata "tag" prefixes ids: "report:c3")
    reused: bool  # True when the index existed, False when this run built it
    seconds: float = 0.0
    digest: str = ""  # the file's sha256, as the index key holds it


def cited_name(path: Path) -> str:
    """The file's name as citations and messages show it: inert, and on one line."""
    return neutralise(one_line(path.name))  # one_line first: a control character shows as \ufffd, as in every message


def _is_folder(arg: str | Path) -> bool:
    try:
        return Path(arg).is_dir()
    except OSError:  # a long question is not a valid path at all
        return False


def _pdfs_in(folder: Path) -> tuple[list[Path], list[Path]]:
    """The PDFs under `folder`, and the gzip-compressed ones (.pdf.gz, as Debian ships many
    manuals), in one walk. A folder that cannot be listed is an error; a subfolder that cannot,
    a warning (its PDFs would be missing without a word)."""
    unreadable: list[OSError] = []
    files = [Path(root) / name for root, _, names in os.walk(folder, onerror=unreadable.append) for name in names]
    found = [f for f in files if f.suffix.lower() == ".pdf" and f.is_file()]
    compressed = [f for f in files if f.name.lower().endswith(".pdf.gz") and f.is_file()]
    for error in unreadable:
        reason = error.strerror or type(error).__name__
        if Path(error.filename) == folder:
            raise RAGError(f"{as_text(str(folder))}: cannot read the folder ({reason}); fix its permissions "
                           f"or pass the PDFs themselves")
        print(one_line(f"warning: skipped the folder {as_text(str(error.filename))}: {reason}"), file=sys.stderr)
    return sorted(found), sorted(compressed)


def _compressed_note(compressed: list[Path]) -> str:
    first = as_text(str(compressed[0]))
    if len(compressed) == 1:
        return f"1 gzip-compressed PDF ({first}); run gunzip -k on it to search it"
    return f"{len(compressed)} gzip-compressed PDFs (.pdf.gz, e.g. {first}); run gunzip -k on them to search them"


def pdf_paths(args: list[str]) -> list[Path]:
    """Expand files and folders into the list of PDFs to search (the sample when empty)."""
    paths: list[Path] = []
    for arg in args:
        path = Path(arg)
        if _is_folder(arg):
            found, compressed = _pdfs_in(path)
            if not found:
                raise RAGError(f"{path}: the folder holds no .pdf files" + (f", only {_compressed_note(compressed)}"
                               if compressed else "; pass a folder with PDFs or the PDF files themselves"))
            if compressed:
                print(one_line(f"warning: skipped {_compressed_note(compressed)}"), file=sys.stderr)
            paths.extend(found)
        else:
            paths.append(path)
    # One entry per file: "../x/a.pdf" and a symlink to it are the same document.
    return list(dict.fromkeys(p.resolve() if p.exists() else p.absolute() for p in paths)) or [SAMPLE_PDF]


def file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@lru_cache(maxsize=1)
def pipeline_version() -> str:
    """A hash of the code that turns a file into chunks. An index is looked up before the file
    is parsed, so without this a changed loader or chunker would silently keep serving chunks
    made by the old code."""
    h = hashlib.sha256()
    for module in ("pdf_loader.py", "page_layout.py", "chunker.py", "textutils.py"):
        h.update((Path(__file__).parent / module).read_bytes())
    return h.hexdigest()[:16]


def index_key(path: Path, cfg: Config, digest: str | None = None) -> str:
    # The path is part of the key: a copy of a file under another name gets its own index,
    # so citations name the file that was asked about.
    return "|".join([as_text(str(path)), digest or file_hash(path), pipeline_version(), cfg.chunker,
                     str(cfg.chunk_size), str(cfg.chunk_overlap), cfg.embedding_model])


def owner() -> str:
    """Who made an index: a user on a machine. Only the owner's indexes are ever pruned."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    return f"{user}@{socket.gethostname()}"


def prune(cfg: Config, keep: dict[str, tuple[str, str]], listed) -> None:
    """Drop this owner's indexes of files that changed or no longer exist, or made by older
    loader/chunker code (`keep` maps path -> (current collection name, file hash)). An index of
    the same bytes and code under other settings stays: another run may be building or reading
    it, and switching back reuses it. `listed`: the store's collections (this run's own new ones
    need not be among them)."""
    dropped, me = 0, owner()
    for collection in listed:
        meta = collection.metadata or {}
        path = meta.get("source_path")
        if meta.get("app") != APP or meta.get("owner") != me or not path:
            continue
        gone = path not in keep and "\ufffd" not in path and not Path(path).exists()
        changed = path in keep and keep[path][0] != collection.name and (
            meta.get("file_sha256") != keep[path][1] or meta.get("pipeline") != pipeline_version())
        if changed or gone:
            drop_index(collection.name, cfg)
            dropped += 1
    if dropped:
        compact_store(cfg)


def _build(path: Path, key: str, digest: str, cfg: Config, show_progress: bool):
    progress = Progress(path.name, show_progress)
    try:
        pages, labels = read_pdf(path, max_mb=cfg.max_pdf_mb, on_page=progress.pages)
        chunks = chunk_pages(pages, cfg.chunk_size, cfg.chunk_overlap, cited_name(path), cfg.chunker, labels)
        return build_index(chunks, cfg, key=key, progress=progress.chunks(len(chunks)),
                           source=cited_name(path), source_path=as_text(str(path)), file_sha256=digest,
                           pipeline=pipeline_version(), owner=owner(),
                           tag=re.sub(r"[^\w.-]+", "_", path.stem) or "doc", pages=len(pages),
                           glued_text=is_glued(pages))
    finally:
        progress.close()


@contextmanager
def _build_lock(path: Path, cfg: Config, show_progress: bool):
    """The lock on building `path`'s index; a run that has to wait for another says so."""
    from filelock import FileLock, Timeout

    locks = Path(cfg.index_dir) / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    # One lock per file (not per version of it), so the lock files do not pile up.
    lock = FileLock(str(locks / f"{hashlib.sha256(os.fsencode(path)).hexdigest()[:16]}.lock"))
    try:
        lock.acquire(timeout=1)
    except Timeout:
        if show_progress:
            print(one_line(f"waiting: another run is indexing {cited_name(path)} (its index is reused if its settings "
                           f"are these)"), file=sys.stderr, flush=True)
        lock.acquire()
    try:
        yield
    finally:
        lock.release()


def open_or_build(path: Path, cfg: Config, show_progress: bool = False,
                  listed: dict | None = None) -> Document:
    """The index of one PDF: reused when complete, else built under a lock (a second run on
    the same new file waits, then reuses what the first one built). `listed`: the store's
    collections by name, listed once for many files."""
    check_file(path, cfg.max_pdf_mb)  # before hashing: a huge file is refused unread
    start = time.perf_counter()
    digest = file_hash(path)
    key = index_key(path, cfg, digest)
    collection = open_index(key, cfg, listed)
    if collection is None:
        with _build_lock(path, cfg, show_progress):
            # Hashed again under the lock, and after reading: an index is stored under the hash of
            # the bytes it was built from, never under that of a file replaced meanwhile.
            digest = file_hash(path)
            key = index_key(path, cfg, digest)
            collection = open_index(key, cfg)
            if collection is None:
                collection = _build(path, key, digest, cfg, show_progress)
                if file_hash(path) != digest:
                    drop_index(collection.name, cfg)
                    raise RAGError(f"{path}: the file changed while it was being read; run again once it is written")
                return Document(cited_name(path), collection, False, time.perf_counter() - start, digest)
    if (collection.metadata or {}).get("glued_text"):  # said when it was read; true on every use
        print(glued_warning(path), file=sys.stderr)
    return Document(cited_name(path), collection, True, time.perf_counter() - start, digest)


def _open_or_skip(path: Path, cfg: Config, show_progress: bool, listed: dict, skipped: list | None):
    """The document; or, among several PDFs (`skipped` is a list then), None for one that
    cannot be read, with a warning: one damaged file in a folder of a hundred should not keep
    the other 99 from being searched."""
    try:
        return open_or_build(path, cfg, show_progress, listed)
    except PDFLoadError as exc:
        if skipped is None:
            raise
        skipped.append({"path": as_text(str(path)), "reason": one_line(str(exc))})
        with suppress(OSError):  # stderr itself may be the fault; the run goes on either way
            print(one_line(f"warning: skipped {exc}"), file=sys.stderr, flush=True)
        return None


def index_documents(paths: list[Path], cfg: Config, show_progress: bool = True,
                    skipped: list | None = None) -> list[Document]:
    """Open or build one index per PDF; files already indexed are neither parsed nor embedded.
    Among several PDFs, one that cannot be read is skipped with a warning on stderr (and added
    to `skipped`, as {"path", "reason"})."""
    cfg = usable_store(cfg)
    with store_errors(cfg, "indexing"):
        # One listing serves every file's lookup and the pruning: a folder of 100 PDFs costs
        # one request for them, not 100 (the lookup under the build lock asks the store again).
        listed = {c.name: c for c in get_client(cfg).list_collections()}
        several = ([] if skipped is None else skipped) if len(paths) > 1 else None  # only then is one skipped
        opened = {path: _open_or_skip(path, cfg, show_progress, listed, several) for path in paths}
        opened = {path: document for path, document in opened.items() if document}
        if not opened:
            raise RAGError(f"none of the {len(paths)} PDFs could be read (each warning above says why); "
                           f"fix the paths or files, or pass other PDFs")
        paths, documents = list(opened), list(opened.values())
        prune(cfg, {as_text(str(p)): (d.collection.name, d.digest) for p, d in zip(paths, documents)}, listed.values())
    names = source_names([d.collection for d in documents])  # "a/doc.pdf" and "b/doc.pdf", as cited
    return [replace(d, source=name) if name else d for d, name in zip(documents, names)]


def main(argv: list[str] | None = None) -> None:
    cfg = get_config()
    for document in index_documents(pdf_paths(sys.argv[1:] if argv is None else argv), cfg):
        what = "reused" if document.reused else "built"
        store = f"{cfg.chroma_host}:{cfg.chroma_port}" if cfg.chroma_host else cfg.index_dir
        print(f"{document.source}: index {what} ({document.collection.metadata['n_chunks']} chunks, "
              f"{document.seconds:.2f} s) in {store}")


if __name__ == "__main__":
    run_cli(main)
