"""The solution markers, read in one place.  [provided, test helper]

A learner function's reference body sits between `# BEGIN SOLUTION M<n>` and `# END SOLUTION`
inside the function (code/*.py only). tools/make_starter.py turns each region into a stub, the
milestone report (code/tests/conftest.py) lists the learner functions by them, and
tests/test_starter.py checks the starter against them.
"""

from __future__ import annotations

import re
from pathlib import Path

BEGIN = re.compile(r"^(\s*)# BEGIN SOLUTION\b\s*(.*?)\s*$")
END = re.compile(r"^\s*# END SOLUTION\b")
DEF = re.compile(r"^(\s*)(?:async\s+)?def\s+(\w+)")


class MarkerError(Exception):
    """A region whose markers are malformed; the message names the file and line."""


def regions(source: str, path: str) -> list[tuple[int, int, str, str, str]]:
    """(first line, last line, indent, milestone, function) of every region, 0-based lines."""
    lines = source.splitlines()
    found, i = [], 0
    while i < len(lines):
        begin = BEGIN.match(lines[i])
        if not begin:
            if END.match(lines[i]):
                raise MarkerError(f"{path}:{i + 1}: '# END SOLUTION' without a matching BEGIN")
            i += 1
            continue
        indent, milestone = begin.group(1), begin.group(2)
        if not re.fullmatch(r"M\d+", milestone):
            raise MarkerError(f"{path}:{i + 1}: the marker must name its milestone, "
                              f"e.g. '# BEGIN SOLUTION M1' (got {milestone!r})")
        enclosing = next((DEF.match(line) for line in reversed(lines[:i])
                          if DEF.match(line) and len(DEF.match(line).group(1)) < len(indent)), None)
        if enclosing is None:
            raise MarkerError(f"{path}:{i + 1}: a solution region must sit inside a function body")
        end = next((j for j in range(i + 1, len(lines)) if END.match(lines[j]) or BEGIN.match(lines[j])), None)
        if end is None or BEGIN.match(lines[end]):
            raise MarkerError(f"{path}:{i + 1}: '# BEGIN SOLUTION {milestone}' has no '# END SOLUTION'")
        found.append((i, end, indent, milestone, enclosing.group(2)))
        i = end + 1
    return found


def learner_modules(code_dir: Path) -> list[Path]:
    return [p for p in sorted(code_dir.glob("*.py"))
            if any(BEGIN.match(line) for line in p.read_text(encoding="utf-8").splitlines())]


def learner_functions(root: Path) -> list[tuple[str, str, str]]:
    """(milestone, function, "code/<module>.py") of every solution region under root/code."""
    found = []
    for module in learner_modules(root / "code"):
        path = module.relative_to(root).as_posix()
        found += [(m, f, path) for _, _, _, m, f in regions(module.read_text(encoding="utf-8"), path)]
    return found
