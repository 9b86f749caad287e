# replaces: check_faithfulness
# kind: mistake
# description: verifies each claim against each chunk separately (one call per claim and chunk) and counts it supported if any single chunk supports it; a claim that combines facts from two chunks is never supported, and the calls multiply
# violates: "verify each against the joined context" (project.md); "the context is every chunk, joined (`context_block(chunks)`)" and "one model call per claim" (check_faithfulness docstring)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    verdicts = []
    for claim in claims:
        supported = False
        for chunk in chunks:
            reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                                {"role": "user", "content": f"Context:\n{context_block([chunk])}\n\nClaim: {claim}"}],
                               temperature=0.0, cfg=cfg)
            if parse_verdict(reply.choices[0].message.content or ""):
                supported = True
                break
        verdicts.append(supported)
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
