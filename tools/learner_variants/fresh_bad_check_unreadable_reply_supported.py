# replaces: check_faithfulness
# kind: mistake
# description: its own verdict reader: supported unless the reply starts with "no" (verdict = not reply.lower().lstrip("*").startswith("no")), so "I cannot tell", "Unsupported.", "The claim is not supported" or "False" count as supported
# violates: "each reply becomes a verdict with `parse_verdict` (provided)" (check_faithfulness docstring); parse_verdict: "an unreadable verdict is not evidence of support"

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        content = (reply.choices[0].message.content or "").strip().lower().lstrip("*")
        verdicts.append(not content.startswith("no"))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
