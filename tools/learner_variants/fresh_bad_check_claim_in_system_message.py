# replaces: check_faithfulness
# kind: mistake
# description: appends the claim to the system message (_VERIFY_SYSTEM + "\n\nClaim: ...") and sends only the context as the user message
# violates: "with `_VERIFY_SYSTEM` as the system message and a user message holding the context and the claim" (check_faithfulness docstring)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": f"{_VERIFY_SYSTEM}\n\nClaim: {claim}"},
                            {"role": "user", "content": f"Context:\n{context}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
