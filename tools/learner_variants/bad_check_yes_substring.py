# replaces: check_faithfulness
# kind: mistake
# description: reads the verdict with `"yes" in reply.lower()`, so "No, not yes: the context says 21%" or "Yesterday..." count as supported
# violates: "LLM yes/no call" (seed); parse_verdict: "anything unreadable counts as not supported" and "No - because ..." is No (project.md, faithfulness.py)

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
        verdicts.append("yes" in (reply.choices[0].message.content or "").lower())
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
