# replaces: check_faithfulness
# kind: correct
# description: its own strict verifier system prompt instead of the provided _VERIFY_SYSTEM
# note: the seed provides _VERIFY_SYSTEM but does not require it; lesson M5 says "with _VERIFY_SYSTEM"
_MY_VERIFIER = ("Decide whether the statement is fully supported by the context. Answer Yes only if "
                "the context states it; answer No if anything in it (a number, a name, a date) is "
                "missing from or contradicted by the context. Answer with Yes or No only.")


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _MY_VERIFIER},
                            {"role": "user", "content": f"Context:\n{context}\n\nStatement: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
