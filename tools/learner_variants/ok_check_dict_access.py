# replaces: check_faithfulness
# kind: correct
# description: reads the verifier reply with LiteLLM's dict access response["choices"][0]["message"]["content"]
# note: LiteLLM's ModelResponse supports both attribute and dict access

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        response = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                               {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                              temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(response["choices"][0]["message"]["content"] or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
