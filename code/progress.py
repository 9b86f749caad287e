"""Progress while a long PDF is read and indexed.  [provided]

`Progress(label, enabled)` gives the loader a page callback and the index build a chunk
callback. On a terminal it is a tqdm bar on stderr; when stderr is a log file, one plain line
per step (a bar redraws itself with carriage returns). Short documents show nothing.

Run alone:  python code/progress.py    (a bar over 30 pages and 60 chunks, as a long PDF shows)
"""

from __future__ import annotations

import sys
from contextlib import suppress

from cli import one_line, run_cli

PROGRESS_MIN_PAGES = 20


class Progress:
    """A tqdm bar on stderr (one plain line per step when stderr is not a terminal) that
    appears only for long documents (PROGRESS_MIN_PAGES pages or more) and never when
    `enabled` is False (--json output stays clean)."""

    def __init__(self, label: str, enabled: bool):
        self.label, self.enabled, self.bar = label, enabled, None

    def pages(self, done: int, total: int) -> None:
        """Loader callback: one page read."""
        if self.bar is None and self.enabled and total >= PROGRESS_MIN_PAGES:
            self._open(total, f"reading {self.label}", "page")
        if self.bar is not None:
            self.bar.update(1)

    def chunks(self, total: int):
        """An index-build callback for `total` chunks, or None for a short document."""
        if self.bar is None:
            return None
        self._open(total, f"indexing {self.label}", "chunk")
        return self.bar.update

    def _open(self, total: int, desc: str, unit: str) -> None:
        from tqdm import tqdm

        self.close()
        # A bar redraws itself with carriage returns: in a log file (stderr not a terminal)
        # that is noise, so there the step is one plain line.
        quiet = not sys.stderr.isatty()
        if quiet:
            with suppress(OSError):
                print(one_line(f"{desc} ({total} {unit}s)"), file=sys.stderr, flush=True)
        self.bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, disable=quiet)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def main() -> None:
    import time

    progress = Progress("example.pdf", enabled=True)
    for page in range(1, 31):
        progress.pages(page, 30)
        time.sleep(0.02)
    step = progress.chunks(60)
    for _ in range(60):
        step(1)
        time.sleep(0.01)
    progress.close()
    print("done: 30 pages read, 60 chunks indexed")


if __name__ == "__main__":
    run_cli(main)
