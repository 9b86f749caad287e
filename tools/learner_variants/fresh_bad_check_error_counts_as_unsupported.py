# replaces: check_faithfulness
# kind: mistake
# description: a failed verifier call is caught and counted as NOT supported ("be conservative"), so a rate limit or a wrong key shows up as a hallucination and lowers F
# violates: "Let a provider's error (a RAGError) through" (lesson §7 M4, stated for M5 too: "a provider failure raises"); F = |V|/|S| over verified claims (project.md)
# note: the mirror image of bad_check_error_counts_as_supported

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        try:
            reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                                {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                               temperature=0.0, cfg=cfg)
            verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
        except Exception:
            verdicts.append(False)
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
