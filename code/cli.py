"""What crosses the terminal: text in, lines out, one-line errors and exit codes.  [provided]

Every script's `main()` runs under `run_cli`: a user error (RAGError) or a milestone not done
yet (NotImplementedError) is one line on stderr and exit code 2, never a traceback; an
unexpected error is one line and exit code 1 (RAG_DEBUG=1 shows its traceback). Text that
arrives from outside (arguments, file names, PDF text, chat lines) goes through `as_text`;
what is printed from a file or its name goes through `printable`. A file the user names for
output (--html, --save-chat, --json OUT) is checked before any work and written by `write_file`.
`ArgumentParser` makes a bad flag one line too; `add_pipeline_flags` adds the flags rag.py and
evaluate.py share, each overriding the Config field it names.

Run alone:  python code/config.py    (any module's main runs under run_cli)
"""

from __future__ import annotations

import argparse
import errno
import inspect
import os
import re
import signal
import stat
import sys
import threading
from contextlib import contextmanager, suppress
from pathlib import Path

from config import CHOICES, FLAGS, Config, RAGError, get_config

# What must never reach a terminal from a file or a file name: control characters (ESC starts
# escape sequences that hide text or write the clipboard) and bidirectional overrides.
UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# Lone surrogates: what Python makes of undecodable bytes (a broken PDF font map, a non-UTF-8
# argument or file name); no tokenizer or terminal accepts them.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def as_text(text: str) -> str:
    """Text safe to process: undecodable characters become U+FFFD."""
    return _SURROGATE.sub("\ufffd", text)


def printable(text: str) -> str:
    """Text safe to print: no control characters (newlines and tabs aside), nothing undecodable."""
    return UNPRINTABLE.sub("\ufffd", as_text(text))


def score_beside(score: float, threshold: float) -> str:
    """`score` with as many decimals (three at least) as it takes to read on the right side of
    `threshold`: 0.1998 against 0.2 is "0.1998", not "0.200"."""
    for digits in range(3, 9):
        if (float(shown := f"{score:.{digits}f}") < threshold) == (score < threshold):
            return shown
    return repr(score)


def one_line(text: str) -> str:
    """Printable, and on one line: a file name holding a newline cannot start a forged line."""
    return re.sub(r"[\r\n]+", " ", printable(text))


def fail(message: str, code: int = 2) -> "NoReturn":  # noqa: F821 - typing only
    with suppress(OSError):  # stderr itself may be the fault (2>/dev/full): the exit code still tells
        print(f"error: {one_line(message)}", file=sys.stderr, flush=True)
    raise SystemExit(code)


def input_text(path: str | Path, missing: str) -> str:
    """A text file the user names (questions, dialogues): UTF-8, with or without the byte-order
    mark an editor may add. `missing`: what to say when it is not there (or is a folder)."""
    path = Path(path)
    with suppress(OSError):  # a pipe would wait for a writer, /dev/zero never end: as PDFs, files only
        if path.exists() and not path.is_dir() and not path.is_file():
            raise RAGError(f"{path}: not a regular file (a pipe or a device); save its content to a file and pass that")
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RAGError(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except OSError:
        raise RAGError(f"{path}: {missing}") from None


def output_file(path: str, flag: str, keep: tuple = ()) -> Path:
    """Where `flag PATH` will be written, checked before any work: a regular file (or a new one)
    in a folder that exists and can be written, and none of `keep` (the input documents, the
    index folder) or anything inside them. A symlink is written through, as the shell's `>` does."""
    example = f"{flag} " + ("out.html" if flag == "--html" else "out.json")
    if not path:  # an unset shell variable ("--html $OUT"): running on would write nothing
        raise RAGError(f"{flag} got an empty file name; pass a file name (e.g. {example})")
    if path.endswith((os.sep, "/")) or Path(path).name in ("", ".", ".."):  # realpath would drop the "/"
        raise RAGError(f"{flag} {path}: names a folder, not a file; pass a file name (e.g. {example})")
    real = Path(os.path.realpath(path))
    kept = [Path(os.path.realpath(k)) for k in keep]
    if any(real == k or k in real.parents for k in kept):
        raise RAGError(f"{flag} {path}: that is an input document or the index, which would be lost; "
                       f"pass another file name")
    if real.exists() and not real.is_file():
        raise RAGError(f"{flag} {path}: not a regular file (a folder, device or pipe); pass a file name")
    probe = _beside(real)
    try:  # the folder exists and takes a new file (not read-only, not /proc)
        probe.touch()
        probe.unlink()
    except OSError:
        raise RAGError(f"{flag} {path}: cannot write a file there; pass a file name in a folder that "
                       f"exists and that you can write to") from None
    return real


def output_files(outputs: dict[str, str | None], keep: tuple = ()) -> None:
    """`output_file` for each flag given ({"--html": path, ...}), and no two naming one file."""
    seen: dict[Path, str] = {}
    for flag, path in outputs.items():
        if path is not None:
            real = output_file(path, flag, keep)
            if real in seen:
                raise RAGError(f"{seen[real]} and {flag} name the same file; give each its own")
            seen[real] = flag


def _beside(real: Path) -> Path:
    return real.with_name(f".{real.name}.{os.getpid()}.tmp")


def write_file(path: str, text: str, flag: str, keep: tuple = ()) -> None:
    """Write `text` whole or not at all (a temporary file renamed over the target); a file
    that was there keeps its permissions and, where allowed, its owner, as the shell's `>` does."""
    real = output_file(path, flag, keep)
    tmp = _beside(real)
    try:
        tmp.write_text(text, encoding="utf-8")
        if real.exists():
            was = real.stat()
            os.chmod(tmp, stat.S_IMODE(was.st_mode))
            with suppress(PermissionError):  # only root may give a file away
                os.chown(tmp, was.st_uid, was.st_gid)
        os.replace(tmp, real)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        fix = "free some space" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else "pass another path"
        raise RAGError(f"{flag} {path}: {exc.strerror or exc}; {fix}") from None


@contextmanager
def uninterrupted():
    """Ctrl-C waits for the block to finish, then takes effect: for work that must not stop
    halfway (an import cut short leaves a half-made module that breaks every later call)."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield  # only the main thread receives signals; an ignored Ctrl-C stays ignored
        return
    pressed = []
    previous = signal.signal(signal.SIGINT, lambda *_: pressed.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
    if pressed:
        raise KeyboardInterrupt


def usage(main_fn) -> str | None:
    """A step script's docstring, shown for -h or --help when it has no argument parser of its
    own (else `retriever.py --help` would search for "--help")."""
    module = sys.modules.get(getattr(main_fn, "__module__", None) or "")
    try:
        source = inspect.getsource(module) if module and module.__doc__ else "ArgumentParser"
    except (OSError, TypeError):
        return None
    return None if "ArgumentParser" in source else module.__doc__.strip()


def run_cli(main_fn) -> None:
    """Run a module's main() as a user expects: a user error (RAGError) or a milestone not done
    yet (NotImplementedError) is one line on stderr and exit code 2, never a traceback; an
    unexpected error is one line and exit code 1 (RAG_DEBUG=1 shows its traceback)."""
    for stream in (sys.stdout, sys.stderr):  # a last net: never crash on printing odd text
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    try:
        if {"-h", "--help"} & set(sys.argv[1:]) and usage(main_fn):
            print(usage(main_fn))
        else:
            main_fn()
        sys.stdout.flush()
    except RAGError as exc:
        fail(str(exc))
    except NotImplementedError as exc:
        fail(str(exc) or "a milestone is not implemented yet")
    except KeyboardInterrupt:
        fail("interrupted; an unfinished index is discarded on the next run", 130)
    except BrokenPipeError:  # `rag.py ... | head` closed the pipe: nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(0) from None
    except OSError as exc:
        fix = {errno.ENOSPC: "free some space", errno.EDQUOT: "free some space", errno.EACCES: "check its permissions",
               errno.EPERM: "check its permissions"}.get(exc.errno, "check the path")
        fail(f"{exc.strerror or exc} ({exc.filename or 'output'}); {fix}, then run again")
    except Exception as exc:  # a bug, not bad input: say so briefly, keep the trace on request
        if os.environ.get("RAG_DEBUG"):
            raise
        package = (getattr(exc, "name", None) or "").split(".")[0] if isinstance(exc, ModuleNotFoundError) else ""
        if package and not (Path(__file__).parent / f"{package}.py").exists():  # a dependency, not one of ours
            fail(f"the package {package!r} is not installed for {sys.executable}; install the project with this "
                 f"Python (pip install -e . in the repository root), or run it with the Python you installed it for")
        first_line = (str(exc).splitlines() or [""])[0][:200]
        fail(f"unexpected {type(exc).__name__}: {first_line} (a bug? run again with RAG_DEBUG=1 "
             f"to see the traceback, and please report it)", 1)


# ------------------------------------------------------------------------ command lines

class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad flag is one line (a RAGError), like every other user error."""

    def error(self, message: str) -> "NoReturn":  # noqa: F821 - typing only
        unknown = message.partition("unrecognized arguments: ")[2].split()
        # "rag.py q --json.pdf": a file whose name starts with "-" reads as a flag
        files = [name for name in unknown if name.startswith("-") and Path(name).exists()]
        hint = f" (a file? write ./{files[0]})" if files else ""
        raise RAGError(f"{message}{hint}; see {self.prog} --help")


def installed_version() -> str:
    """The project's version as pip installed it (pyproject.toml's), for --version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pdf-research-assistant")
    except PackageNotFoundError:
        return "(not installed: run pip install -e . in the project folder)"


class _VersionAction(argparse.Action):
    """--version, looked up only when asked for: reading the installed metadata costs every run
    about 25 ms, and argparse's own version action wants the text when the flag is added."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog} {installed_version()}")
        parser.exit()


def add_pipeline_flags(parser: argparse.ArgumentParser) -> None:
    """The flags shared by rag.py and evaluate.py (config.FLAGS, each overriding its Config
    field), and --version."""
    parser.add_argument("--version", action=_VersionAction)
    for name, (flag, help_text) in FLAGS.items():
        kind = type(getattr(Config, name))
        metavar = None if name in CHOICES else flag.lstrip("-").replace("-", "_").upper()
        parser.add_argument(flag, dest=name, type=kind, choices=CHOICES.get(name), metavar=metavar, help=help_text)


def config_from_args(args: argparse.Namespace) -> Config:
    return get_config(**{name: getattr(args, name) for name in FLAGS})
