# replaces: check_faithfulness
# kind: correct
# description: handles "no claims" up front and computes the score inline as round(supported / total, 4)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    if not claims:
        return FaithfulnessReport(score=1.0, claims=[], verdicts=[])
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(round(sum(verdicts) / len(verdicts), 4), claims, verdicts)
