"""Fetch the development-set PDFs listed in data/devset/sources.json.

The development set (data/devset/, see its README.md) is made of real PDFs taken from Debian
documentation packages. The PDFs are not committed; this script rebuilds them:

* for each document in data/devset/sources.json it runs `apt-get download PKG=VERSION` in a
  temporary folder, unpacks the .deb with `dpkg-deb -x`, takes the file at "path" (a path
  ending in .gz is gunzipped), checks its sha256 against "sha256", and writes it to
  data/devset/pdfs/<name>.pdf (that folder is git-ignored);
* a PDF already present with the right sha256 is left alone, so running it twice is cheap;
* each problem is printed on one line with how to fix it, and the exit status is non-zero
  (apt-get or dpkg-deb missing, a package that cannot be downloaded, a path not in the
  package, a hash that differs).

Needs: Debian or Ubuntu with apt-get and dpkg-deb and a reachable Debian archive (run
`apt-get update` once first). Only the standard library is used.

Run:   python tools/fetch_devset.py            (download what is missing, then verify all)
       python tools/fetch_devset.py --check    (only verify the PDFs present; download nothing)
       python tools/fetch_devset.py --only r-faq lppl
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEVSET = REPO_ROOT / "data" / "devset"
SOURCES = DEVSET / "sources.json"
PDF_DIR = DEVSET / "pdfs"


class FetchError(Exception):
    """A one-line problem with its fix."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def load_sources(path: Path = SOURCES) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FetchError(f"{path}: not found; run from a checkout of the repository") from None
    except json.JSONDecodeError as exc:
        raise FetchError(f"{path} line {exc.lineno}: invalid JSON ({exc.msg}); fix that line") from None
    documents = data.get("documents") if isinstance(data, dict) else None
    if not isinstance(documents, list) or not documents:
        raise FetchError(f"{path}: expected {{\"documents\": [...]}} with at least one entry")
    for n, doc in enumerate(documents, start=1):
        missing = [k for k in ("name", "package", "version", "path", "sha256") if not doc.get(k)]
        if missing:
            raise FetchError(f"{path}: document {n} lacks {', '.join(missing)}; add the field(s)")
    return documents


def target_of(doc: dict) -> Path:
    return PDF_DIR / f"{doc['name']}.pdf"


def check_present(doc: dict) -> str:
    """'ok', 'missing' or 'mismatch' for the PDF already on disk."""
    target = target_of(doc)
    if not target.is_file():
        return "missing"
    return "ok" if sha256_of(target) == doc["sha256"] else "mismatch"


def require_tools() -> None:
    for tool in ("apt-get", "dpkg-deb"):
        if shutil.which(tool) is None:
            raise FetchError(f"{tool} not found: this script needs a Debian/Ubuntu system with apt "
                             f"(or copy the PDFs into {PDF_DIR.relative_to(REPO_ROOT)}/ by hand and run --check)")


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def download_package(package: str, version: str, workdir: Path,
                     cache: dict[tuple[str, str], Path]) -> Path:
    """Download and unpack PKG=VERSION once per run; return the unpack folder."""
    key = (package, version)
    if key in cache:
        return cache[key]
    result = run(["apt-get", "download", f"{package}={version}"], workdir)
    debs = sorted(workdir.glob(f"{package}_*.deb"))
    if result.returncode != 0 or not debs:
        reason = (result.stderr.strip().splitlines() or ["no .deb written"])[-1]
        raise FetchError(f"apt-get download {package}={version} failed ({reason}); run "
                         f"'apt-get update', or if that version left the archive, update "
                         f"{SOURCES.relative_to(REPO_ROOT)}")
    unpacked = workdir / f"x-{package}"
    unpacked.mkdir(exist_ok=True)
    result = run(["dpkg-deb", "-x", str(debs[-1]), str(unpacked)], workdir)
    if result.returncode != 0:
        reason = (result.stderr.strip().splitlines() or ["unknown error"])[-1]
        raise FetchError(f"dpkg-deb -x {debs[-1].name} failed ({reason}); delete it and retry")
    cache[key] = unpacked
    return unpacked


def fetch_one(doc: dict, workdir: Path, cache: dict[tuple[str, str], Path]) -> None:
    unpacked = download_package(doc["package"], doc["version"], workdir, cache)
    source = unpacked / doc["path"]
    if not source.is_file():
        raise FetchError(f"{doc['name']}: {doc['path']} is not in {doc['package']} "
                         f"{doc['version']}; fix \"path\" in {SOURCES.relative_to(REPO_ROOT)}")
    staged = workdir / f"{doc['name']}.pdf"
    if source.suffix == ".gz":
        with gzip.open(source, "rb") as src, staged.open("wb") as dst:
            shutil.copyfileobj(src, dst)
    else:
        shutil.copyfile(source, staged)
    got = sha256_of(staged)
    if got != doc["sha256"]:
        raise FetchError(f"{doc['name']}: sha256 {got[:16]}... differs from the expected "
                         f"{doc['sha256'][:16]}... in {SOURCES.relative_to(REPO_ROOT)}; the "
                         f"package changed, so re-check the questions' evidence before "
                         f"updating the hash")
    PDF_DIR.mkdir(parents=True, exist_ok=True)
    shutil.move(str(staged), target_of(doc))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only verify the PDFs already in data/devset/pdfs/")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these documents")
    args = parser.parse_args(argv)

    problems = 0
    try:
        documents = load_sources()
    except FetchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.only:
        unknown = sorted(set(args.only) - {d["name"] for d in documents})
        if unknown:
            print(f"error: unknown document(s) {', '.join(unknown)}; names are "
                  f"{', '.join(d['name'] for d in documents)}", file=sys.stderr)
            return 2
        documents = [d for d in documents if d["name"] in args.only]

    if args.check:
        for doc in documents:
            state = check_present(doc)
            where = target_of(doc).relative_to(REPO_ROOT)
            if state == "ok":
                print(f"ok       {where}")
            else:
                problems += 1
                fix = "run python tools/fetch_devset.py" if state == "missing" else \
                    "delete it and run python tools/fetch_devset.py"
                print(f"{state:8} {where}: {fix}", file=sys.stderr)
        return 1 if problems else 0

    todo = []
    for doc in documents:
        state = check_present(doc)
        if state == "ok":
            print(f"present  {target_of(doc).relative_to(REPO_ROOT)} (sha256 ok)")
        else:
            todo.append(doc)
    if not todo:
        return 0
    try:
        require_tools()
    except FetchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    cache: dict[tuple[str, str], Path] = {}
    with tempfile.TemporaryDirectory(prefix="devset-") as tmp:
        for doc in todo:
            try:
                fetch_one(doc, Path(tmp), cache)
                print(f"fetched  {target_of(doc).relative_to(REPO_ROOT)} from {doc['package']} "
                      f"{doc['version']} (sha256 ok)")
            except FetchError as exc:
                problems += 1
                print(f"error: {exc}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
