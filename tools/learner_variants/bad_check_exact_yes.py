# replaces: check_faithfulness
# kind: mistake
# description: verdict = reply.strip() == "Yes", so a real model's "Yes." or "**Yes**" counts as not supported
# violates: parse_verdict "reads "Yes.", "**no**", "Verdict: YES" tolerantly" (project.md, faithfulness.py); "reads each reply with parse_verdict" (lesson, M5)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append((reply.choices[0].message.content or "").strip() == "Yes")
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
