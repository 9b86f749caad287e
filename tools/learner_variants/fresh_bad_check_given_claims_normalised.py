# replaces: check_faithfulness
# kind: mistake
# description: "cleans" the given claims like split_claims would (citation markers removed, whitespace collapsed, a final full stop added) and reports the cleaned versions, so a caller's claims come back changed
# violates: "claims: `claims` when given (used as they are)" (check_faithfulness docstring); lesson §7 M5: "given claims are used as they are and in order"

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    else:
        claims = [" ".join(strip_markers(c).split()) for c in claims]
        claims = [c if c.endswith((".", "!", "?")) else c + "." for c in claims if c]
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
