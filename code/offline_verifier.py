"""The offline stand-in for an LLM, part 3: yes/no verification of a claim.  [provided]

`verdict(prompt)` reads the claim and the context by rule 4 of the protocol (offline_model.py)
and answers "Yes" when one context sentence, or two neighbouring ones, entails the claim:
every number and name of the claim is stated there, the span covers most of the claim's
content words, and neither a negation nor an opposite direction (up/down) sets them apart.

What it CANNOT do: understand a paraphrase that shares few words with the context, or tell
which subject a number belongs to when one sentence states several.

Run alone:  python code/offline_answerer.py    (the stand-in answering and verifying)
"""

from __future__ import annotations

from citations import strip_markers
from offline_model import Prompt, parse_context, read_claim
from textutils import anchors, has_negation, split_sentences, terms

# Share of the claim's content words one context span must contain.
MIN_CLAIM_COVERAGE = 0.8
_OPPOSITE = {"up": "down", "down": "up", "opened": "closed", "closed": "opened", "profit": "loss",
             "loss": "profit", "before": "after", "after": "before", "hired": "laid",
             "approved": "rejected", "rejected": "approved", "won": "lost", "lost": "won"}


def spans(context: str) -> list[str]:
    """Single sentences and neighbouring pairs of the context."""
    lines = [text for _, text in parse_context(context)] or [context]
    found = []
    for line in lines:
        sentences = split_sentences(line)
        found.extend(sentences)
        found.extend(f"{a} {b}" for a, b in zip(sentences, sentences[1:]))
    return found


def supports(span: str, claim: str) -> bool:
    """Does this span of context entail the claim? (the offline verifier's rule)"""
    claim_terms = set(terms(claim))
    if not claim_terms:
        return True
    span_terms = set(terms(span))
    if not anchors(claim) <= span_terms:
        return False  # a number, date or name that the span does not state
    if has_negation(claim) != has_negation(span):
        return False
    for word in claim_terms - span_terms:
        if _OPPOSITE.get(word) in span_terms:
            return False
    return len(claim_terms & span_terms) / len(claim_terms) >= MIN_CLAIM_COVERAGE


def verdict(prompt: Prompt) -> str:
    claim, context = read_claim(prompt)
    claim = strip_markers(claim)  # "[Function]" is text, "[c0]" is not
    return "Yes" if any(supports(span, claim) for span in spans(context)) else "No"
