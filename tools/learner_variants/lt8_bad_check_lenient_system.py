# replaces: check_faithfulness
# kind: mistake
# description: a learner probe (2026-12-01): its own lenient system message "You check answers. Say Yes if the claim is plausible given the context and broadly consistent with it; otherwise say No." (accepts an added cause)
# violates: "Reply Yes if the context states the claim" (_VERIFY_SYSTEM, which the check_faithfulness docstring names)

_MY_VERIFIER = ("You check answers. Say Yes if the claim is plausible given the context and broadly consistent "
                "with it; otherwise say No.")


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _MY_VERIFIER},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}], temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
