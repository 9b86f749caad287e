# replaces: check_faithfulness
# kind: mistake
# description: calls the verifier without temperature=0.0, so RAG_TEMPERATURE=0.7 makes the verdicts sampled
# violates: "at temperature 0.0 (pass `temperature=0.0`)" (code/faithfulness.py, check_faithfulness docstring)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}], cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
