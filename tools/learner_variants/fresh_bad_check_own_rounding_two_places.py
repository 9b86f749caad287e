# replaces: check_faithfulness
# kind: mistake
# description: computes the report's score inline as round(sum(verdicts) / len(verdicts), 2) instead of calling faithfulness_score, so two of three supported claims report 0.67 (faithfulness_score says 0.6667)
# violates: "verdicts in the order of the claims; score = faithfulness_score(verdicts)" (check_faithfulness docstring)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    if not claims:
        return FaithfulnessReport(1.0, [], [])
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(round(sum(verdicts) / len(verdicts), 2), claims, verdicts)
