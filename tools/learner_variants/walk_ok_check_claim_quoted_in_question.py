# replaces: check_faithfulness
# kind: correct
# description: the learner walkthrough's verifier layout: the context, then the claim quoted inside the question ('Does the context support the claim "..."? Answer Yes or No.')
# note: a real judge reads this layout without trouble; the contract does not ask for a label

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    verdicts = []
    for claim in claims:
        user = f'Context:\n{context_block(chunks)}\n\nDoes the context support the claim "{claim}"? Answer Yes or No.'
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM}, {"role": "user", "content": user}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
