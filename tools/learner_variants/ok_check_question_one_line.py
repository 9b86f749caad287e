# replaces: check_faithfulness
# kind: correct
# description: context block, then the question "Is the following claim supported by the context? <claim>" on one line

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        user = f"Context:\n{context}\n\nIs the following claim supported by the context? {claim}"
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM}, {"role": "user", "content": user}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
