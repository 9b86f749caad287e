# replaces: check_faithfulness
# kind: mistake
# description: a learner probe (2026-12-01, lt12): verifies against context_block(chunks[:3]) ("the top three are the relevant ones; keep the judge's prompt small"), so a claim resting on retrieved chunk 4 or 5 (top_k is 5) is judged unsupported
# violates: "the context is every chunk, joined (`context_block(chunks)`, provided): a claim may rest on any retrieved chunk, not only the first" (check_faithfulness docstring)


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else list(claims)
    if not claims:
        return FaithfulnessReport(1.0, [], [])
    context = context_block(chunks[:3])
    verdicts = []
    for claim in claims:
        reply = completion([
            {"role": "system", "content": _VERIFY_SYSTEM},
            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"},
        ], temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
