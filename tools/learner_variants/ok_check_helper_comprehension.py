# replaces: check_faithfulness
# kind: correct
# description: a module-level helper _is_supported(claim, context) and a list comprehension over the claims
# note: it passed max_tokens=5 until 2026-12-01, when the contract said the length limit is cfg's (a reasoning model spends tokens before it says Yes); that part is gone, the point of the variant stays

def _is_supported(claim: str, context: str, cfg: Config | None) -> bool:
    messages = [{"role": "system", "content": _VERIFY_SYSTEM},
                {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}]
    return parse_verdict(completion(messages, temperature=0.0, cfg=cfg).choices[0].message.content or "")


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else list(claims)
    context = context_block(chunks)
    verdicts = [_is_supported(claim, context, cfg) for claim in claims]
    return FaithfulnessReport(score=faithfulness_score(verdicts), claims=claims, verdicts=verdicts)
