# replaces: check_faithfulness
# kind: mistake
# description: verifies the whole answer as one claim (no claim decomposition)
# violates: "Split answer into claims, verify each" (seed); Known Difficulty Spike 4 "Scoring a whole answer as one true/false misses partial hallucination" (project.md)
from generator import _CITE

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        text = _CITE.sub("", answer_text).strip()
        claims = [text] if text else []
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
