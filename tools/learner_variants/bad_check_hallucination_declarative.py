# replaces: check_faithfulness
# kind: mistake
# description: its own verifier prompt says "Reply Yes if the claim is a hallucination (not stated by the context), else No." and still reads "Yes" as supported: every verdict of a real judge is inverted
# violates: "with `_VERIFY_SYSTEM` as the system message" and "\"Yes.\" -> True, \"No\" -> False" (check_faithfulness docstring)
# note: from an outside learner's run (2026-12-01); the offline verifier read only the question form ("Is the claim a hallucination?"), so the tests accepted it

_DETECTOR = ("You detect hallucinations. Reply Yes if the claim is a hallucination (not stated by the "
             "context), else No.")


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _DETECTOR},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
