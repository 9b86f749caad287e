# replaces: check_faithfulness
# kind: mistake
# description: its own verifier prompt asks the opposite question ("Is the claim a hallucination, i.e. NOT supported by the context? Reply Yes or No.") and still reads "Yes" as supported with parse_verdict: every verdict of a real judge is inverted
# violates: "one model call per claim ... with `_VERIFY_SYSTEM` as the system message" and "\"Yes.\" -> True, \"No\" -> False" (check_faithfulness docstring); F = |V|/|S| counts supported claims (project.md)
# note: the offline verifier answers by its own support rule whatever the question says, so offline it looks right

_HALLUCINATION_CHECK = (
    "You are a hallucination detector. You get a context and one claim. Is the claim a hallucination, "
    "i.e. NOT supported by the context? Reply with one word: Yes or No."
)


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _HALLUCINATION_CHECK},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
