"""Step 5 of the pipeline: is every claim of the answer supported by the context?  [learner: M5]

You write `faithfulness_score` and `check_faithfulness` (M5): split the answer into claims,
ask the model a yes/no question per claim, and score F = |V| / |S| (supported claims over all
claims, RAGAS). Provided: `FaithfulnessReport`, the verifier prompt `_VERIFY_SYSTEM`,
`split_claims`, `parse_verdict`, and `context_relevance` (CR = relevant context sentences /
all context sentences) which tells a retrieval problem from a generation problem.

Run alone:  python code/faithfulness.py    (score examples, then one offline verification)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chunker import Chunk
from config import completion, run_cli
from generator import _CITE
from textutils import split_sentences

_VERIFY_SYSTEM = (
    "You are a strict fact checker. You get a context and one claim. Reply Yes if the context "
    "states the claim or directly implies it. Reply No if the context contradicts the claim, "
    "does not mention it, or if the claim adds a number, date, name or cause that the context "
    "does not give. Reply with one word: Yes or No."
)

_RELEVANCE_SYSTEM = (
    "You get a question and a context. Copy, word for word and one per line, the context "
    "sentences that are needed to answer the question; do not change them. If no sentence "
    "helps, reply exactly: Insufficient Information"
)

# A citation marker with the space before it; other brackets ("[Function]", "[1]") are text.
_MARKER = re.compile(r"\s*" + _CITE.pattern)


@dataclass
class FaithfulnessReport:
    score: float
    claims: list[str]
    verdicts: list[bool]


def split_claims(answer_text: str) -> list[str]:
    """Sentence-level claims with citation markers removed. Splits on sentence ends only, so
    "4.2M", "U.S." and "e.g." stay inside their claim."""
    return [claim for claim in (_MARKER.sub("", s).strip() for s in split_sentences(answer_text))
            if re.search(r"\w", claim)]


def parse_verdict(reply: str) -> bool:
    """Read a yes/no reply tolerantly: "Yes.", "**yes**", "No - because ...", "Verdict: YES"."""
    words = re.findall(r"[a-z]+", reply.lower())
    for word in words:
        if word in {"yes", "supported", "true", "entailed"}:
            return True
        if word in {"no", "not", "unsupported", "false", "contradicted"}:
            return False
    return False  # an unreadable verdict is not evidence of support


def context_block(chunks: list[Chunk]) -> str:
    return "\n".join(f"[{c.id}] {' '.join(c.text.split())}" for c in chunks)


def faithfulness_score(verdicts: list[bool]) -> float:
    """F = |V|/|S| (supported claims / total). Empty list -> 1.0 (vacuously faithful)."""
    # BEGIN SOLUTION M5
    if not verdicts:
        return 1.0
    return round(sum(bool(v) for v in verdicts) / len(verdicts), 4)
    # END SOLUTION


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None) -> FaithfulnessReport:
    """Split answer into claims, verify each against the joined context via an LLM yes/no call, score it."""
    # BEGIN SOLUTION M5
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([
            {"role": "system", "content": _VERIFY_SYSTEM},
            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"},
        ], temperature=0.0, max_tokens=5)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
    # END SOLUTION


def context_relevance(question: str, chunks: list[Chunk]) -> tuple[float, list[str]]:
    """CR = |context sentences the model extracts as needed| / |context sentences| (RAGAS).
    Returns (CR, the extracted sentences). Low CR with a good answer is fine; a wrong answer
    with CR near 0 points at retrieval or chunking, with high CR at generation."""
    sentences = [s for c in chunks for s in split_sentences(c.text)]
    if not sentences:
        return 0.0, []
    reply = completion([
        {"role": "system", "content": _RELEVANCE_SYSTEM},
        {"role": "user", "content": f"{context_block(chunks)}\n\nQuestion: {question}"},
    ], temperature=0.0).choices[0].message.content or ""
    if "insufficient information" in reply.lower():
        return 0.0, []
    known = {" ".join(s.lower().split()) for s in sentences}
    extracted = [line.strip() for line in reply.splitlines()
                 if " ".join(line.lower().split()) in known]
    return round(min(len(extracted), len(sentences)) / len(sentences), 4), extracted


def main() -> None:
    for verdicts in ([True, True, False], [], [True, False]):
        print(f"faithfulness_score({verdicts}) = {faithfulness_score(verdicts)}")
    chunks = [Chunk("c0", "Q3 revenue 4.2M, margin 21%.")]
    answer_text = "Q3 revenue was 4.2M. Margin was 40%."
    report = check_faithfulness(answer_text, chunks)
    print(f"\ncheck_faithfulness({answer_text!r}, [c0: {chunks[0].text!r}])")
    for claim, ok in zip(report.claims, report.verdicts):
        print(f"  {'supported  ' if ok else 'UNSUPPORTED'}  {claim}")
    print(f"  score = {report.score}")


if __name__ == "__main__":
    run_cli(main)
