"""What crosses the terminal: text in, lines out, one-line errors and exit codes.  [provided]

Every script's `main()` runs under `run_cli`: a user error (RAGError) or a milestone not done
yet (NotImplementedError) is one line on stderr and exit code 2, never a traceback; an
unexpected error is one line and exit code 1 (RAG_DEBUG=1 shows its traceback). Text that
arrives from outside (arguments, file names, PDF text, chat lines) goes through `as_text`;
what is printed from a file or its name goes through `printable`.

Run alone:  python code/config.py    (any module's main runs under run_cli)
"""

from __future__ import annotations

import os
import re
import sys

from config import RAGError

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


def fail(message: str, code: int = 2) -> "NoReturn":  # noqa: F821 - typing only
    print(f"error: {printable(message)}", file=sys.stderr)
    raise SystemExit(code)


def run_cli(main_fn) -> None:
    """Run a module's main() as a user expects: a user error (RAGError) or a milestone not done
    yet (NotImplementedError) is one line on stderr and exit code 2, never a traceback; an
    unexpected error is one line and exit code 1 (RAG_DEBUG=1 shows its traceback)."""
    for stream in (sys.stdout, sys.stderr):  # a last net: never crash on printing odd text
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    try:
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
        fail(f"{exc.strerror or exc} ({exc.filename or 'output'}); free some space or "
             f"check the path, then run again")
    except Exception as exc:  # a bug, not bad input: say so briefly, keep the trace on request
        if os.environ.get("RAG_DEBUG"):
            raise
        first_line = (str(exc).splitlines() or [""])[0][:200]
        fail(f"unexpected {type(exc).__name__}: {first_line} (a bug? run again with RAG_DEBUG=1 "
             f"to see the traceback, and please report it)", 1)
