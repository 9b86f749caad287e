# replaces: check_faithfulness
# kind: mistake
# description: a learner probe (2026-12-01, lt12): one conversation for all claims: the context once, then per claim a user turn "Claim: ..." and the model's reply appended as an assistant turn; each call still judges one claim, but the judge sees every earlier claim and its verdict (and the prompt grows quadratically)
# violates: "one model call per claim ... a user message holding the context and the claim" (check_faithfulness docstring)


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else list(claims)
    if not claims:
        return FaithfulnessReport(1.0, [], [])
    messages = [{"role": "system", "content": _VERIFY_SYSTEM + "\n\nContext:\n" + context_block(chunks)}]
    verdicts = []
    for claim in claims:
        messages.append({"role": "user", "content": f"Claim: {claim}"})
        reply = completion(messages, temperature=0.0, cfg=cfg).choices[0].message.content or ""
        messages.append({"role": "assistant", "content": reply})
        verdicts.append(parse_verdict(reply))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
