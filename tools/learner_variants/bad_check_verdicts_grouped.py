# replaces: check_faithfulness
# kind: mistake
# description: collects supported and unsupported claims separately and returns verdicts [True]*supported + [False]*unsupported, no longer aligned with the claims
# violates: "FaithfulnessReport(score, claims, verdicts)" with one verdict per claim, "verify each" (seed); "the claim-by-claim verdicts that rag.py prints" (project.md, Debugging)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    supported, unsupported = [], []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        (supported if parse_verdict(reply.choices[0].message.content or "") else unsupported).append(claim)
    verdicts = [True] * len(supported) + [False] * len(unsupported)
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
