# replaces: check_faithfulness
# kind: mistake
# description: gives the verifier the whole answer next to the context ("The assistant answered: ...") before the claim "for background", so the judge reads the statement under test as if it were evidence
# violates: "verify each against the joined context via an LLM yes/no call" (project.md); "a user message holding the context and the claim" (check_faithfulness docstring)
# note: a real judge asked "does the context support X" while X is printed in the prompt above it drifts towards Yes

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        user = (f"Context:\n{context}\n\nThe assistant answered: {answer_text}\n\nClaim: {claim}")
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM}, {"role": "user", "content": user}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
