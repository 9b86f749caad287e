# replaces: check_faithfulness
# kind: mistake
# description: a learner probe (2026-12-01): its own system message "You check answers. Does the claim go beyond what the context says? Reply Yes or No." read with parse_verdict (Yes = supported)
# violates: "each reply becomes a verdict with parse_verdict: Yes. -> True" (check_faithfulness docstring): Yes must mean supported

_MY_VERIFIER = "You check answers. Does the claim go beyond what the context says? Reply Yes or No."


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
