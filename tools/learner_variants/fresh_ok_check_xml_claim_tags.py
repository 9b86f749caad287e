# replaces: check_faithfulness
# kind: correct
# description: the verifier's user message in XML tags, "<context>\n[c0] ...\n</context>\n\n<claim>...</claim>", with no "Claim:" label
# note: the docstring's "Context:\n...\n\nClaim: ..." is an example ("e.g."); the rule is a user message holding the context and the claim

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        user = f"<context>\n{context}\n</context>\n\n<claim>{claim}</claim>"
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM}, {"role": "user", "content": user}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
