# replaces: check_faithfulness
# kind: mistake
# description: _VERIFY_SYSTEM as the system message, but the user message ends "Is the claim a hallucination?", and "Yes" is still read as supported: a real judge answers the question it was asked last
# violates: "\"Yes.\" -> True, \"No\" -> False" (check_faithfulness docstring): the reply's Yes no longer means supported
# note: from an outside learner's run (2026-12-01); the offline verifier read the question only in the system message, so the tests accepted it


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}\n\n"
                                                        "Is the claim a hallucination?"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
