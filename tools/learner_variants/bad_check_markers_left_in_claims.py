# replaces: check_faithfulness
# kind: mistake
# description: splits the answer with split_sentences, so every claim keeps its [c0] markers ("Q3 revenue was 4.2M [c0].")
# violates: "split_claims() (sentence-level claims with citation markers removed ...)" (project.md, faithfulness.py); "check_faithfulness splits the answer with split_claims" (lesson, M5)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = [s.strip() for s in split_sentences(answer_text) if s.strip()]
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
