"""The offline stand-in for an LLM, reading a prompt's layout: where its context entries, labels
and question stand.  [provided]

Rules 2 and 3 of the protocol (offline_model.py's docstring, which states them in full):
`parse_context` finds the `[id] text` entries, `parse_question` the question outside the
`<context>` fence; `labelled` and `without_context` serve the verifier's rule 4 too.

Run alone:  python code/offline_chat.py    (the stand-in answering, refusing and verifying on a tiny context)
"""

from __future__ import annotations

import re

_ID = r"(?:[\w.-]+:)?c\d+"
_CONTEXT_LINE = re.compile(rf"^\s*(?:[-*]\s*)?\[({_ID})\]\s*[:\-\u2013]?\s*(.*)$")
LABEL = re.compile(r"(?:^|\n|(?<=[.?!:]) )[ \t]*\**(question|q|claim|statement|context|passages?|answer|sources?)\**[ \t]*:[ \t]*",
                    re.I)
_TAG = re.compile(r"</?\s*[a-z_]+\s*>", re.I)
_RULE = re.compile(r"\s*([-*=_])\1{2,}\s*")  # a separator line ("---") ends an entry, as a blank line does
# A fence tag stands at a line's or entry's edge; one inside ("uses the <b> tag") is text.
_EDGE_TAGS = re.compile(rf"^(\s*{_TAG.pattern})+|({_TAG.pattern}\s*)+$", re.I)


def _entries(text: str) -> list[tuple[str, str | None]]:
    """Each line with the id of the context entry it belongs to (None outside the context): an
    `[id]` line opens an entry, which runs on until a blank line, a label, a tag line or a "---" line."""
    lines, current = [], None
    for line in text.splitlines():
        match = _CONTEXT_LINE.match(line)
        if match:
            current = match.group(1)
        elif not line.strip() or LABEL.match("\n" + line) or _TAG.fullmatch(line.strip()) or _RULE.fullmatch(line):
            current = None
        lines.append((line, current))
    return lines


def parse_context(text: str) -> list[tuple[str, str]]:
    """The `[id] text` entries of a prompt, in order."""
    entries: list[list[str]] = []
    for line, cid in _entries(text):
        match = _CONTEXT_LINE.match(line)
        if match:
            entries.append([match.group(1), match.group(2).strip()])
        elif cid is not None:
            entries[-1][1] += " " + line.strip()
    return [(cid, _EDGE_TAGS.sub(" ", text).strip()) for cid, text in entries]


def without_context(text: str) -> str:
    """The text with its context entries and fence tags taken out."""
    return "\n".join(_EDGE_TAGS.sub(" ", line) for line, cid in _entries(text) if cid is None and not _RULE.fullmatch(line))


def labelled(text: str, names: tuple[str, ...], paragraph: bool = True) -> str | None:
    """The text after the last label in `names`, up to the next label (and, with `paragraph`,
    up to a blank line)."""
    labels = list(LABEL.finditer(text))
    for n in range(len(labels) - 1, -1, -1):
        if labels[n].group(1).lower() in names:
            end = labels[n + 1].start() if n + 1 < len(labels) else len(text)
            found = text[labels[n].end():end].strip()
            return re.split(r"\n\s*\n", found)[0].strip() if paragraph else found
    return None


_FENCE = re.compile(r"<\s*context\s*>.*?<\s*/\s*context\s*>", re.I | re.S)


def parse_question(user: str) -> str:
    """The question, read outside the <context> ... </context> fence: inside it, it is document text."""
    outside = without_context(_FENCE.sub("\n", user))
    found = labelled(outside, ("question", "q"))
    if found:
        return found
    lines = [ln.strip() for ln in outside.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


_QUESTION_LINE = re.compile(r"\s*(question|q)\s*:", re.I)


def besides_question(user: str, question: str) -> str:
    """What else the user message says: its lines outside the context, less the question and
    its label line (a real model reads an instruction there as it reads one in the system message)."""
    return "\n".join(line for line in without_context(user).splitlines()
                     if line.strip() != question and not _QUESTION_LINE.match(line))
