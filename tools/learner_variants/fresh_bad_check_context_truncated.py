# replaces: check_faithfulness
# kind: mistake
# description: caps the verifier's context at 1,500 characters "to save tokens", so claims resting on the later retrieved chunks are judged against a context that lacks them
# violates: "the context is every chunk, joined (`context_block(chunks)`, provided): a claim may rest on any retrieved chunk, not only the first" (check_faithfulness docstring)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)[:1500]
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
