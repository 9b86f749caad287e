# replaces: check_faithfulness
# kind: mistake
# description: an outside learner's mistake (2026-12-01): a refusal is scored 0.0 with no claims, judged by a rule of the learner's, not by the model
# violates: "claims ... else split_claims(answer_text) ... one model call per claim ... the model decides" (check_faithfulness docstring)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    from citations import is_refusal

    statements = split_claims(answer_text) if claims is None else list(claims)
    if answer_text.strip() and is_refusal(answer_text):
        return FaithfulnessReport(score=0.0, claims=[], verdicts=[])
    if not statements:
        return FaithfulnessReport(score=1.0, claims=[], verdicts=[])
    evidence = context_block(chunks)
    verdicts: list[bool] = []
    for statement in statements:
        question = f"Context:\n{evidence}\n\nClaim: {statement}"
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": question}], temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(score=faithfulness_score(verdicts), claims=statements, verdicts=verdicts)
