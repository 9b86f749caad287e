# replaces: check_faithfulness
# kind: correct
# description: a learner probe (2026-12-01, lt12): 'Context:' then 'Verify: <claim>'


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
            {"role": "user", "content": f"Context:\n{context}\n\nVerify: {claim}"},
        ], temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
