# replaces: check_faithfulness
# kind: mistake
# description: a learner probe (2026-12-01): the user message asks "Does the claim contain anything not found in the evidence? Answer Yes or No." and still reads Yes as supported (every verdict the wrong way round for a real judge)
# violates: "each reply becomes a verdict with parse_verdict: Yes. -> True" (check_faithfulness docstring): Yes must mean supported


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}\n\nDoes the claim contain anything not found in the evidence? Answer Yes or No."}], temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
