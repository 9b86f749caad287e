"""Helpers for tests/test_reliability.py (issue #12): hand-made PDF bytes, CLI runs in a child
process, a `chroma run` server on loopback, a tiny OpenAI-compatible endpoint that records the
prompts it is sent, and the few OS tricks the fault tests need (a private mount/UTS/user
namespace to play "another user on another machine", a tmpfs that fills up, dropping root's
permission bypass so a read-only folder is really read-only).

Everything here talks to the project only through `python code/rag.py` or to Chroma through
chromadb's own client, so it survives a restructuring of code/.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = ROOT / "code"
RAG = CODE / "rag.py"
PYTHON = sys.executable
CHROMA_CLI = shutil.which("chroma", path=str(Path(sys.executable).parent)) or shutil.which("chroma")
LOOPBACK = "127.0.0.1"


# ----------------------------------------------------------------------------- PDF bytes
# pdf_writer wraps and re-flows text (textwrap), which is right for documents and wrong for
# attacks: a 200 KB token, raw control bytes, a broken content stream or a custom character
# map must reach the file exactly as written. These builders write the bytes by hand.

HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def _escape(raw: bytes) -> bytes:
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def pdf_from_bodies(bodies: list[bytes]) -> bytes:
    """A PDF whose objects 1..n are `bodies` (object 1 must be the catalog), with a correct
    cross-reference table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(bodies, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(bodies) + 1, xref)
    return bytes(out)


def stream_object(data: bytes, extra: bytes = b"") -> bytes:
    """A stream object body; `extra` goes into its dictionary (e.g. b"/Filter /FlateDecode")."""
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def text_operators(lines: list[str | bytes]) -> bytes:
    """A content stream drawing each line as it is: no wrapping, bytes kept verbatim."""
    ops = [b"BT /F1 11 Tf 14 TL 56 786 Td"]
    for line in lines:
        raw = line.encode("latin-1") if isinstance(line, str) else line
        ops.append(b"(" + _escape(raw) + b") Tj T*")
    ops.append(b"ET")
    return b"\n".join(ops)


def text_pdf(path: Path, pages: list[list[str | bytes] | bytes], font: bytes = HELVETICA,
             extra_objects: list[bytes] = ()) -> Path:
    """Write a PDF with one page per entry: a list of text lines, or a ready stream object body
    (bytes) used as that page's content. `extra_objects` are appended after the pages (the
    first is object 4 + 2 * len(pages)), for a font's /ToUnicode map and the like."""
    bodies: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", font]
    kids = []
    for page in pages:
        content = page if isinstance(page, bytes) else stream_object(text_operators(page))
        number = len(bodies) + 1
        kids.append(number)
        bodies.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
                      b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (number + 1))
        bodies.append(content)
    bodies[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    bodies.extend(extra_objects)
    path = Path(path)
    path.write_bytes(pdf_from_bodies(bodies))
    return path


def flate(data: bytes) -> bytes:
    return zlib.compress(data, 9)


# ----------------------------------------------------------------------------- CLI runs

@dataclass
class Run:
    code: int
    out_bytes: bytes
    err_bytes: bytes
    seconds: float

    @property
    def out(self) -> str:
        return self.out_bytes.decode("utf-8", errors="replace")

    @property
    def err(self) -> str:
        return self.err_bytes.decode("utf-8", errors="replace")

    @property
    def err_lines(self) -> list[str]:
        """Non-empty stderr lines; a progress bar's carriage-return frames are not lines."""
        return [seg for line in self.err.split("\n") for seg in [line.split("\r")[-1]] if seg.strip()]

    def explain(self) -> str:
        return (f"exit {self.code} after {self.seconds:.1f}s\n--- stdout (tail) ---\n{self.out[-1500:]}"
                f"\n--- stderr (tail) ---\n{self.err[-1500:]}")


_HIDDEN_PREFIXES = ("RAG_", "CHROMA_", "LITELLM_", "OPENAI_", "ANTHROPIC_", "GROQ_", "GEMINI_", "OLLAMA_")
_HIDDEN = {"LLM_MODEL", "EMBEDDING_MODEL", "USE_OLLAMA"}


def child_env(index_dir: Path | str | None = None, **extra: str) -> dict[str, str]:
    """The environment for a child run, offline and with no setting from the shell: provider
    keys, model overrides and RAG_/CHROMA_/LITELLM_ variables removed (conftest.py does the
    same for in-process tests, but module fixtures run before it), the network behind a dead
    proxy with loopback exempt, plus `extra`."""
    env = {k: v for k, v in os.environ.items()
           if k not in _HIDDEN and not k.upper().startswith(_HIDDEN_PREFIXES)}
    env.update({"HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9",
                "HF_HUB_OFFLINE": "1"})
    env["NO_PROXY"] = env["no_proxy"] = f"{LOOPBACK},localhost"
    if index_dir is not None:
        env["RAG_INDEX_DIR"] = str(index_dir)
    env.update({k: v for k, v in extra.items() if v is not None})
    return env


def rag_command(*args: str | bytes | Path, script: Path = RAG) -> list:
    return [PYTHON, str(script), *[a if isinstance(a, bytes) else str(a) for a in args]]


def run(cmd: list, *, env: dict | None = None, cwd: Path | str | None = None, stdin: bytes | None = None,
        timeout: float = 180, preexec_fn=None, stdout=subprocess.PIPE) -> Run:
    started = time.perf_counter()
    proc = subprocess.run(cmd, input=stdin if stdin is not None else None,
                          stdin=None if stdin is not None else subprocess.DEVNULL,
                          stdout=stdout, stderr=subprocess.PIPE, env=env, cwd=cwd,
                          timeout=timeout, preexec_fn=preexec_fn)
    return Run(proc.returncode, proc.stdout or b"", proc.stderr or b"", time.perf_counter() - started)


def run_rag(*args, env: dict | None = None, cwd: Path | str | None = None, **kwargs) -> Run:
    """`python code/rag.py ARGS` in a child process (cwd defaults to a neutral folder)."""
    return run(rag_command(*args), env=env or child_env(), cwd=cwd or env_cwd(env), **kwargs)


def env_cwd(env: dict | None) -> str:
    # A neutral working folder: the index folder's parent when known, else the temp root.
    index = (env or {}).get("RAG_INDEX_DIR")
    return str(Path(index).parent) if index and Path(index).parent.is_dir() else os.path.realpath("/tmp")


def run_parallel(jobs: list[dict]) -> list[Run]:
    """Several `run(**job)` at once (each job a dict of run()'s arguments); results in order."""
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        return list(pool.map(lambda job: run(**job), jobs))


# Lines that are not messages to the user: tracebacks and log records (LiteLLM's
# "12:00:00 - LiteLLM:INFO: ...", logging's "INFO:httpx:...").
LOG_OR_TRACEBACK = re.compile(r"^(Traceback |\s+File \"|\s+\^|(DEBUG|INFO|WARNING|ERROR|CRITICAL):\w|"
                              r"\d\d:\d\d:\d\d - \w+:(DEBUG|INFO|WARNING|ERROR))")


def noise_lines(result: Run) -> list[str]:
    """stderr lines that are log records or traceback lines."""
    return [line for line in result.err_lines if LOG_OR_TRACEBACK.match(line)]


def one_error_line(result: Run) -> str:
    """The error line of a run that failed with a one-line error: exactly one `error: ...`
    line, the last one, and no log record or traceback on stderr (short status lines such as
    "index built: ..." may come before it). Raises AssertionError explaining what is wrong."""
    lines = result.err_lines
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], (
        f"expected exactly one 'error: ' line on stderr, and last; got {len(errors)}:\n{result.explain()}")
    assert not noise_lines(result), f"expected no log or traceback lines on stderr:\n{result.explain()}"
    return errors[0]


# ----------------------------------------------------------------------------- sockets, servers

def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 2.0) -> bytes:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, never a proxy
    with opener.open(url, timeout=timeout) as response:
        return response.read()


class ChromaServer:
    """`chroma run --path DIR --host 127.0.0.1 --port P`, started and waited for (heartbeat)."""

    def __init__(self, path: Path):
        self.path, self.port, self.proc = Path(path), free_port(), None

    def start(self, timeout: float = 60) -> "ChromaServer":
        if CHROMA_CLI is None:
            raise RuntimeError("the `chroma` CLI (installed with chromadb) was not found")
        self.proc = subprocess.Popen([CHROMA_CLI, "run", "--path", str(self.path), "--host", LOOPBACK,
                                      "--port", str(self.port)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env=child_env(), start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"chroma run exited with {self.proc.returncode}")
            try:
                _get(f"http://{LOOPBACK}:{self.port}/api/v2/heartbeat", timeout=1)
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"chroma run did not answer its heartbeat within {timeout}s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)

    def kill(self) -> None:
        """Die at once, like a crashed server (SIGKILL), and wait until the port is closed."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=15)

    def env(self, **extra) -> dict[str, str]:
        return {"CHROMA_HOST": LOOPBACK, "CHROMA_PORT": str(self.port), **extra}

    def client(self):
        import chromadb
        from chromadb.config import Settings

        # conftest.py points HTTP(S)_PROXY at a dead port for every test; exempt loopback
        # (harmless to keep for the rest of the session) or this client cannot reach the server.
        exempt = {h.strip() for h in os.environ.get("NO_PROXY", "").split(",") if h.strip()}
        os.environ["NO_PROXY"] = os.environ["no_proxy"] = ",".join(sorted(exempt | {LOOPBACK, "localhost"}))
        return chromadb.HttpClient(host=LOOPBACK, port=self.port,
                                   settings=Settings(anonymized_telemetry=False))

    def collections(self) -> dict[str, dict]:
        return {c.name: (c.metadata or {}) for c in self.client().list_collections()}


def embedded_client(path: Path):
    """chromadb's own client on an embedded store (for planting and inspecting collections)."""
    import chromadb
    from chromadb.config import Settings

    return chromadb.PersistentClient(path=str(path), settings=Settings(anonymized_telemetry=False))


class PromptRecorder:
    """A minimal OpenAI-compatible chat endpoint on loopback. It records every request body
    and answers each chat call with `reply(messages)`; LiteLLM reaches it through the real
    `openai/` provider code (OPENAI_API_BASE), so what it records is exactly what a hosted
    model would have been sent."""

    def __init__(self, reply):
        self.reply, self.requests = reply, []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep the test output clean
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                recorder.requests.append({"path": self.path, "body": body})
                content = recorder.reply(body.get("messages", []))
                payload = json.dumps({
                    "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "x"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": content}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.server = ThreadingHTTPServer((LOOPBACK, 0), Handler)
        self.base_url = f"http://{LOOPBACK}:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "PromptRecorder":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


# ----------------------------------------------------------------------------- OS tricks

def is_root() -> bool:
    return os.geteuid() == 0


def drop_permission_bypass() -> None:
    """preexec_fn: remove CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the bounding set, so a
    child started by root obeys file modes like any user (a 0555 folder is read-only to it)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def read_only_preexec():
    """The preexec_fn that makes file modes binding for the child (None when not root)."""
    return drop_permission_bypass if is_root() else None


def read_only_is_enforced(folder: Path) -> bool:
    """Can a child really not write into `folder` (mode 0555) here?"""
    probe = run([PYTHON, "-c", f"open({str(folder / 'probe')!r}, 'w')"], preexec_fn=read_only_preexec(),
                env=child_env(), timeout=30)
    return probe.code != 0 and not (folder / "probe").exists()


UNSHARE = shutil.which("unshare")


def namespaces_available(mountpoint: Path) -> bool:
    """Can we make a private mount + UTS namespace (root) and a user namespace inside it?"""
    if UNSHARE is None or not is_root():
        return False
    probe = subprocess.run(
        [UNSHARE, "--uts", "--mount", "sh", "-c",
         'hostname probe-host && mount -t tmpfs -o size=1m none "$MP" && '
         f'{UNSHARE} --user --map-user=1000 --map-group=1000 true'],
        env={**child_env(), "MP": str(mountpoint)}, capture_output=True, timeout=30)
    return probe.returncode == 0


def as_other_user_on_other_machine(pdf: Path, private_dir: Path, args_before: list[str],
                                   env: dict) -> list:
    """A command that runs `rag.py ARGS_BEFORE <private_dir>/<pdf name>` as another user on
    another machine, as far as this process can tell: its own hostname, uid 1000 (user "kim"),
    and `private_dir` mounted privately, so the PDF it indexes does not exist out here."""
    env.update({"PRIVATE_DIR": str(private_dir), "SOURCE_PDF": str(pdf), "PY": PYTHON, "RAG": str(RAG),
                "USER": "kim", "LOGNAME": "kim"})
    inner = ('hostname laptop-of-kim && mount -t tmpfs -o size=32m none "$PRIVATE_DIR" && '
             'cp "$SOURCE_PDF" "$PRIVATE_DIR/" && '
             f'exec {UNSHARE} --user --map-user=1000 --map-group=1000 "$PY" "$RAG" "$@" '
             f'"$PRIVATE_DIR/{pdf.name}"')
    return [UNSHARE, "--uts", "--mount", "sh", "-c", inner, "sh", *args_before]


def with_full_disk(mountpoint: Path, size: str, cmd: list) -> list:
    """`cmd` run with a `size` tmpfs mounted (privately) on `mountpoint`: a disk that fills up."""
    return [UNSHARE, "--mount", "sh", "-c", f'mount -t tmpfs -o size={size} none "$0" && exec "$@"',
            str(mountpoint), *cmd]


READ_COUNTER = (
    # Runs a script as `python SCRIPT ARGS` would, then reports how many bytes the process
    # read (rchar from /proc/self/io) on stderr as "RCHAR <n>" when it exits, however it exits.
    "import atexit, os, runpy, sys\n"
    "def _report():\n"
    "    for line in open('/proc/self/io'):\n"
    "        if line.startswith('rchar'):\n"
    "            sys.stderr.write('\\nRCHAR ' + line.split()[1] + '\\n')\n"
    "atexit.register(_report)\n"
    "sys.argv = sys.argv[1:]\n"
    "sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


def bytes_read(result: Run) -> int:
    marks = [line for line in result.err.splitlines() if line.startswith("RCHAR ")]
    assert marks, f"the read counter did not report:\n{result.explain()}"
    return int(marks[-1].split()[1])


def copy_project_code(dest_root: Path) -> Path:
    """A stand-in repo at dest_root for tests that need their own `.env` at the repo root
    without touching the real one: code/ is copied (the project finds its root from its own
    file's real path), everything else at the root is linked. Returns the copy's rag.py."""
    dest_root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(CODE, dest_root / "code", ignore=shutil.ignore_patterns("__pycache__"))
    for entry in ROOT.iterdir():
        if entry.name not in {"code", ".env", ".git", ".rag_index"}:
            (dest_root / entry.name).symlink_to(entry)
    return dest_root / "code" / "rag.py"


def files_under(folder: Path) -> list[Path]:
    return [p for p in Path(folder).rglob("*") if p.is_file()]


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in files_under(folder))
