# replaces: check_faithfulness
# kind: mistake
# description: claims = answer_text.split("."), which cuts "4.2M" into "4" and "2M"
# violates: "split_claims() (sentence-level claims ... "4.2M", "U.S." and "e.g." stay inside their claim)" (project.md, faithfulness.py)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = [c.strip() for c in answer_text.split(".") if c.strip()]
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
