# replaces: check_faithfulness
# kind: correct
# description: functional style: a local `verify(claim)` closure mapped over the claims with list(map(...)); explicit `if claims is None` for the default

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)

    def verify(claim: str) -> bool:
        messages = [{"role": "system", "content": _VERIFY_SYSTEM},
                    {"role": "user", "content": "Context:\n" + context + "\n\nClaim: " + claim}]
        reply = completion(messages, temperature=0.0, cfg=cfg)
        return parse_verdict(reply.choices[0].message.content or "")

    verdicts = list(map(verify, claims))
    return FaithfulnessReport(score=faithfulness_score(verdicts), claims=claims, verdicts=verdicts)
