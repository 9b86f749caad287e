# replaces: check_faithfulness
# kind: correct
# description: the learner walkthrough's verifier layout: the claim first, labelled "Sentence:", then the bare context block
# note: the contract asks for "a user message holding the context and the claim", not for a label or an order

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Sentence: {claim}\n\n{context_block(chunks)}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
