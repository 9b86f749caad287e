# replaces: check_faithfulness
# kind: mistake
# description: puts the verifier instructions into the user message and sends no system message
# violates: "verify each against the joined context via an LLM yes/no call"; "Provided: ... _VERIFY_SYSTEM prompt" (seed) — the verifier prompt is a system prompt

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        prompt = f"{_VERIFY_SYSTEM}\n\nContext:\n{context}\n\nClaim: {claim}"
        reply = completion([{"role": "user", "content": prompt}], temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
