# replaces: check_faithfulness
# kind: correct
# description: a learner probe (2026-12-01): the user message in Markdown sections, "## Context" and "## Claim", then "Answer Yes or No."

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    statements = split_claims(answer_text) if claims is None else list(claims)
    if not statements:
        return FaithfulnessReport(score=1.0, claims=[], verdicts=[])
    ctx = context_block(chunks)
    verdicts: list[bool] = []
    for claim in statements:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"## Context\n{ctx}\n\n## Claim\n{claim}\n\nAnswer Yes or No."}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(score=faithfulness_score(verdicts), claims=statements, verdicts=verdicts)
