# replaces: check_faithfulness
# kind: mistake
# description: its own claim split, [strip_markers(s) for s in split_sentences(answer_text) if s.strip()], which keeps a "claim" that was only citation markers (a trailing "[c0][c1]" paragraph, a "Sources: [c0]" line) as "" or "Sources:"; those empty claims are verified and counted
# violates: "claims: ... else `split_claims(answer_text)` (one claim per sentence, citation markers removed)" (check_faithfulness docstring)
# note: split_claims drops sentences with no word characters; this split does not

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = [strip_markers(s) for s in split_sentences(answer_text) if s.strip()]
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
