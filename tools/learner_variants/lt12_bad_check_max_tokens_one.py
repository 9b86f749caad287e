# replaces: check_faithfulness
# kind: mistake
# description: a learner probe (2026-12-01, lt12): caps the verifier at max_tokens=1 ("the answer is one word; save tokens"); a reasoning model (the default Groq model gpt-oss-20b, o-series, gemini thinking) spends that token on reasoning and returns an empty reply, which completion() turns into RAGError, so every check fails with a real model; offline and mock replies ignore max_tokens
# violates: "the length limit is cfg's, which completion applies: pass no max_tokens of your own" (check_faithfulness docstring)


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else list(claims)
    if not claims:
        return FaithfulnessReport(1.0, [], [])
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([
            {"role": "system", "content": _VERIFY_SYSTEM},
            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"},
        ], temperature=0.0, max_tokens=1, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
