# replaces: check_faithfulness
# kind: mistake
# description: one verifier call for all claims (numbered list, "answer Yes or No per line"), verdicts read line by line
# violates: "verify each against the joined context via an LLM yes/no call" (seed); "asks the model one yes/no question per claim" (lesson, M5)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    if not claims:
        return FaithfulnessReport(1.0, [], [])
    numbered = "\n".join(f"{i + 1}. {c}" for i, c in enumerate(claims))
    reply = completion([{"role": "system", "content": _VERIFY_SYSTEM + " For several claims, answer one line per claim."},
                        {"role": "user", "content": f"Context:\n{context_block(chunks)}\n\nClaims:\n{numbered}"}],
                       temperature=0.0, cfg=cfg)
    lines = [ln for ln in (reply.choices[0].message.content or "").splitlines() if ln.strip()]
    verdicts = [parse_verdict(line) for line in lines]
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
