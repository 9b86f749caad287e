"""The offline stand-in for an LLM, part 3a: the claim and the context of a verification prompt.  [provided]

`read_claim(prompt)` applies rule 4 of the protocol (stated in full in offline_model.py's
docstring): the claim is the text after a `Claim:` label or one like it, or quoted after such a
word or in a question, else the user text outside the context less its instructions; the context
is the `[id]` entries plus any other user text that is not the claim, a label or an instruction
(a judge reads all it is shown). offline_verifier.py judges the one against the other.

Run alone:  python code/offline_chat.py    (the stand-in answering and verifying)
"""

from __future__ import annotations

import re

from offline_layout import LABEL, labelled, without_context
from offline_model import Prompt
from textutils import split_sentences

_CLAIM_WORDS = r"(claim|statement|sentence|hypothesis|assertion|proposition)"
# "Claim: ..." or a label that names checking: "Text to check: ...", "Check this: ..."
_LOOSE_LABEL = re.compile(rf"(\b{_CLAIM_WORDS}\b[^:\n?]{{0,30}}:|\b(text|sentence|answer) to (check|verify):|\bcheck this:|^(verify|check):"
                          rf"|^#+[ \t]*{_CLAIM_WORDS}[ \t]*\n)[ \t]*(.+?)(?:\n\s*\n|$)", re.I | re.S | re.M)
_INSTRUCTION = re.compile(r"[?:]$|\byes\b.*\bno\b|^(answer|reply|respond|verify|check|decide|determine)\b", re.I)


def _until_instruction(text: str) -> str:
    """The claim's lines up to a line that asks something ("Claim: X" then "Reply Yes or No.")."""
    lines = text.split("\n")
    ends = [n for n, line in enumerate(lines) if n and _INSTRUCTION.search(line.strip())]
    return "\n".join(lines[:ends[0]] if ends else lines)


def read_claim(prompt: Prompt) -> tuple[str, str]:
    """(claim, context text) of a verification prompt, by rule 4 of the protocol (offline_model.py)."""
    outside = without_context(prompt.user)
    claim = labelled(outside, ("claim", "statement"))
    loose = _LOOSE_LABEL.search(outside)
    if claim is None and loose:  # "Here is the claim: ...", "Answer sentence: ...", "Text to check: ..."
        claim = loose.group(len(loose.groups()))
    quoted = re.search(rf'\b{_CLAIM_WORDS}\b[^"\n]{{0,20}}"([^"\n]+)"', outside, re.I)
    if claim is None and quoted:  # 'Does the context support the claim "..."?'
        claim = quoted.group(2)
    asked = re.search(r'"([^"\n]{12,})"[^\n]*\?', outside)  # 'Is this accurate: "..."?' (longer than "Yes"/"No")
    if claim is None and asked:
        claim = asked.group(1)
    if claim is None:
        # the label's whole line goes ("Here is the context:" leaves no "Here is the" behind)
        rest = re.sub(r"(?is)(?:^|(?<=\n))[^\n]*?\bcontext\s*:.*?(?=\n\s*\n|\Z)", " ", outside)
        claim = " ".join(s for s in split_sentences(rest) if not _INSTRUCTION.search(s.strip()))
    claim = _until_instruction(claim)
    if prompt.context:  # a judge reads all it is shown: other text beside the claim counts too
        cut = outside.rfind(claim)  # the claim itself, not an earlier copy of its words
        shown = LABEL.sub("\n", outside[:cut] + outside[cut + len(claim):])  # labels are no text the judge reads
        extra = [s for s in split_sentences(shown) if not _INSTRUCTION.search(s.strip())]
        context = "\n".join([f"[{cid}] {text}" for cid, text in prompt.context] + extra)
    else:
        context = labelled(prompt.user, ("context", "passages", "passage", "sources"), paragraph=False) \
            or outside.replace(claim, " ")
    return claim.strip(), context
