# replaces: check_faithfulness
# kind: mistake
# description: a learner probe (2026-12-01, lt12): asks the judge "Does the context CONTRADICT the claim?" and reads Yes as unsupported (verdict = not parse_verdict); a claim the context never mentions is "not contradicted" and so counts as supported: it detects contradictions, not support
# violates: "with `_VERIFY_SYSTEM` as the system message ... each reply becomes a verdict with `parse_verdict`" (check_faithfulness docstring)


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else list(claims)
    if not claims:
        return FaithfulnessReport(1.0, [], [])
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([
            {"role": "system", "content": _VERIFY_SYSTEM},
            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}\n\nDoes the context contradict the claim? Reply Yes or No."},
        ], temperature=0.0, cfg=cfg)
        verdicts.append(not parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
