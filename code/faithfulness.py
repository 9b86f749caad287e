"""Step 6: is every claim of the answer supported by the context?  [learner: M5]

You write `faithfulness_score` and `check_faithfulness` (M5): split the answer into claims,
ask the model a yes/no question per claim, and score F = |V| / |S| (supported claims over all
claims, RAGAS). Provided: `FaithfulnessReport`, the verifier prompt `_VERIFY_SYSTEM`,
`split_claims`, `parse_verdict`, `context_block`, and `context_relevance` (CR = relevant
context sentences / all context sentences), which tells a retrieval problem from a generation
problem.

Offline, the verifier is the stand-in of offline_model.py. It finds the claim after a `Claim:`
label (or, without one, in the user message's text outside the context) and the context in the
`[id] text` lines (or after `Context:`), in any order: see rule 4 of its protocol. Like a real
judge it reads everything it is shown (put the answer in the message and it counts as evidence),
and it answers the question it is asked ("Is the claim a hallucination?" turns Yes into No).

Run alone:  python code/faithfulness.py    (score examples, then one offline verification)
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from chunker import Chunk
from citations import strip_markers
from cli import one_line, run_cli
from config import Config
from llm import completion
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

@dataclass
class FaithfulnessReport:
    score: float
    claims: list[str]
    verdicts: list[bool]


def split_claims(answer_text: str) -> list[str]:
    """Sentence-level claims with citation markers removed. Splits on sentence ends only, so
    "4.2M", "U.S." and "e.g." stay inside their claim."""
    return [claim for claim in (strip_markers(s) for s in split_sentences(answer_text))
            if re.search(r"\w", claim)]


_SUPPORTED = {"yes", "supported", "true", "entailed"}
_UNSUPPORTED = {"no", "not", "unsupported", "false", "contradicted", "cannot"}
_LABEL = re.compile(r"^\W*(?:final\s+)?(?:verdict|answer|judge?ment)\W*", re.I)


def parse_verdict(reply: str) -> bool:
    """Read a yes/no reply tolerantly: "Yes.", "**yes**", "No - because ...", "Verdict: YES",
    "I cannot say yes to this; No.". A verdict word that opens the reply decides, else one that
    ends it, else any word against support, else any word for it. A reply with none ("Oui", an
    echo of the claim) counts as not supported, with a warning: it is no evidence of support."""
    words = re.findall(r"[a-z]+", _LABEL.sub("", reply.lower()))
    for word in words[:1] + words[-1:]:
        if word in _SUPPORTED or word in _UNSUPPORTED:
            return word in _SUPPORTED
    if set(words) & (_SUPPORTED | _UNSUPPORTED):
        return not set(words) & _UNSUPPORTED
    print(one_line(f"warning: the verifier replied {reply.strip()[:60]!r}, neither yes nor no: the claim "
                   f"counts as not supported; use a chat model that follows English instructions"),
          file=sys.stderr)
    return False


def context_block(chunks: list[Chunk]) -> str:
    return "\n".join(f"[{c.id}] {' '.join(c.text.split())}" for c in chunks)


def faithfulness_score(verdicts: list[bool]) -> float:
    """F = |V|/|S| (supported claims / total). Empty list -> 1.0 (vacuously faithful).

    The rules, in full: a float in [0, 1], the share of True verdicts, rounded to 4 decimal
    places (0.6667 for two of three); [] gives 1.0, this project's convention for an answer
    that claims nothing (the ragas library returns NaN there instead).

    Example:
        faithfulness_score([True, True, False]) -> 0.6667
        faithfulness_score([]) -> 1.0
    """
    # BEGIN SOLUTION M5
    if not verdicts:
        return 1.0
    return round(sum(bool(v) for v in verdicts) / len(verdicts), 4)
    # END SOLUTION


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    """Split answer into claims, verify each against the joined context via an LLM yes/no call, score it.

    The rules, in full:
    * claims: `claims` when given (used as they are), else `split_claims(answer_text)` (one
      claim per sentence, citation markers removed); no claims -> FaithfulnessReport(1.0, [], []);
    * the context is every chunk, joined (`context_block(chunks)`, provided): a claim may rest
      on any retrieved chunk, not only the first;
    * one model call per claim through `completion(messages, cfg=cfg)` from llm.py, with
      `_VERIFY_SYSTEM` as the system message and a user message holding the context and the
      claim (e.g. "Context:\n<context>\n\nClaim: <claim>"); the model decides, not a
      word-overlap rule of yours. (Temperature: the spec leaves it open; the reference passes
      `temperature=0.0`, since a verdict should not be sampled, and `cfg.temperature`, 0.0 by
      default, is accepted too; the length limit is cfg's, which completion applies: pass no
      max_tokens of your own, since a reasoning model spends tokens before it says "Yes");
    * each reply becomes a verdict with `parse_verdict` (provided): "Yes." -> True, "No" -> False;
    * verdicts in the order of the claims; score = faithfulness_score(verdicts);
    * a refusal is not special here: its sentences are claims like any other, each judged by the
      model (rag.ask leaves a refusal out before it calls this).

    Example (offline; the spec's):
        check_faithfulness("Q3 revenue was 4.2M. Margin was 40%.", [Chunk("c0", "Q3 revenue 4.2M, margin 21%.")])
        -> FaithfulnessReport(score=0.5, claims=["Q3 revenue was 4.2M.", "Margin was 40%."],
                              verdicts=[True, False])
    """
    # BEGIN SOLUTION M5
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([
            {"role": "system", "content": _VERIFY_SYSTEM},
            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"},
        ], temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
    # END SOLUTION


def context_relevance(question: str, chunks: list[Chunk], cfg: Config | None = None) -> tuple[float, list[str]]:
    """CR = |context sentences the model extracts as needed| / |context sentences| (RAGAS).
    Returns (CR, the extracted sentences). Low CR with a good answer is fine; a wrong answer
    with CR near 0 points at retrieval or chunking, with high CR at generation."""
    sentences = [s for c in chunks for s in split_sentences(c.text)]
    if not sentences:
        return 0.0, []
    reply = completion([
        {"role": "system", "content": _RELEVANCE_SYSTEM},
        {"role": "user", "content": f"{context_block(chunks)}\n\nQuestion: {question}"},
    ], temperature=0.0, cfg=cfg).choices[0].message.content or ""
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
