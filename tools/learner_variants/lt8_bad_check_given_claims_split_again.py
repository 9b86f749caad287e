# replaces: check_faithfulness
# kind: mistake
# description: a learner probe (2026-12-01): given claims are split again into sentences ([c for given in claims for c in split_claims(given)])
# violates: "claims: `claims` when given (used as they are)" (check_faithfulness docstring)


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else [c for given in claims for c in split_claims(given)]
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}], temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
