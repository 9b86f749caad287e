# replaces: check_faithfulness
# kind: mistake
# description: a failed verifier call (provider error, timeout) is caught and counted as supported ("don't punish the answer for a network error")
# violates: "anything unreadable counts as not supported" (project.md, parse_verdict); "Provider errors become a one-line RAGError" (project.md, config.py)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        try:
            reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                                {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                               temperature=0.0, cfg=cfg)
            verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
        except Exception:
            verdicts.append(True)
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
