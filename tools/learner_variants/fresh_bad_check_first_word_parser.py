# replaces: check_faithfulness
# kind: mistake
# description: reads the verdict from the reply's first word only (reply.split()[0].strip(".,!*:").lower() == "yes"), so "Verdict: Yes", "Answer: yes" or "The claim is supported." count as not supported
# violates: "each reply becomes a verdict with `parse_verdict` (provided)" (check_faithfulness docstring); parse_verdict reads "Verdict: YES" as True

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        words = (reply.choices[0].message.content or "").split()
        verdicts.append(bool(words) and words[0].strip(".,!*:").lower() == "yes")
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
