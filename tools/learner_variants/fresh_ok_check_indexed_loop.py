# replaces: check_faithfulness
# kind: correct
# description: preallocates verdicts = [False] * len(claims) and fills them by index in a range loop; the user message puts the claim in a "Statement:" line after the context

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = [False] * len(claims)
    for i in range(len(claims)):
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nStatement: {claims[i]}"}],
                           temperature=0.0, cfg=cfg)
        verdicts[i] = parse_verdict(reply["choices"][0]["message"]["content"] or "")
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
