# replaces: check_faithfulness
# kind: mistake
# description: `claims = claims or split_claims(answer_text)`: an explicitly given empty list is replaced by the answer's own claims
# violates: "check_faithfulness splits the answer with split_claims (unless claims are given)" (lesson, M5); signature "claims: list[str] | None = None" (seed)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = claims or split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
