# replaces: check_faithfulness
# kind: correct
# description: "Here is the context:" then the context, a blank line, "Does the context support the following claim? Answer Yes or No." and the claim on its own line
# note: a learner playing the starter wrote this; "No." was read as an abbreviation (No. 5) and "Here is the" as part of the claim

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        user = (f"Here is the context:\n{context}\n\n"
                f"Does the context support the following claim? Answer Yes or No.\n{claim}")
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM}, {"role": "user", "content": user}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
