# replaces: check_faithfulness
# kind: correct
# description: a module-level `_verify_messages(context, claim)` builds the two messages; the replies are collected first, then turned into verdicts with a comprehension; the given claims are copied into a new list (same items, same order)


def _verify_messages(context: str, claim: str) -> list[dict]:
    return [
        {"role": "system", "content": _VERIFY_SYSTEM},
        {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"},
    ]


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claim_list = list(claims) if claims is not None else split_claims(answer_text)
    if not claim_list:
        return FaithfulnessReport(1.0, [], [])
    context = context_block(chunks)
    replies = [completion(_verify_messages(context, c), temperature=0.0, cfg=cfg) for c in claim_list]
    verdicts = [parse_verdict(r.choices[0].message.content or "") for r in replies]
    return FaithfulnessReport(faithfulness_score(verdicts), claim_list, verdicts)
