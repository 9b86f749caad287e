# replaces: check_faithfulness
# kind: correct
# description: an outside learner's (2026-12-01): "Sentence: {claim}" with "Is it supported?" on the next line

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    statements = split_claims(answer_text) if claims is None else list(claims)
    if not statements:
        return FaithfulnessReport(score=1.0, claims=[], verdicts=[])
    evidence = context_block(chunks)
    verdicts: list[bool] = []
    for statement in statements:
        question = f"Context:\n{evidence}\n\nSentence: {statement}\nIs it supported?"
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": question}], temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(score=faithfulness_score(verdicts), claims=statements, verdicts=verdicts)
