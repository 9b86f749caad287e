# replaces: check_faithfulness
# kind: mistake
# description: ignores the cfg it is given: the verifier runs on whatever model the environment selects, not the caller's
# violates: "one model call per claim through `completion(messages, cfg=cfg)`" (code/faithfulness.py, check_faithfulness docstring "The rules, in full")
# note: the seed's signature has no cfg; it came with the restructure

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
