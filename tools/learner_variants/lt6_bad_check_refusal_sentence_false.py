# replaces: check_faithfulness
# kind: mistake
# description: an outside learner's mistake (2026-12-01): a sentence that declines is marked unsupported without asking the model
# violates: "one model call per claim ... the model decides, not a rule of yours" (check_faithfulness docstring)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    from citations import is_refusal

    statements = split_claims(answer_text) if claims is None else list(claims)
    if not statements:
        return FaithfulnessReport(score=1.0, claims=[], verdicts=[])
    evidence = context_block(chunks)
    verdicts: list[bool] = []
    for statement in statements:
        if is_refusal(statement):
            verdicts.append(False)
            continue
        question = f"Context:\n{evidence}\n\nClaim: {statement}"
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": question}], temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(score=faithfulness_score(verdicts), claims=statements, verdicts=verdicts)
