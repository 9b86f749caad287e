# replaces: check_faithfulness
# kind: mistake
# description: a helper `_verify_all(claims, context, cfg, verdicts=[])` with a mutable default: every call appends to the same list, so the second report carries the first report's verdicts too
# violates: "verdicts in the order of the claims; score = faithfulness_score(verdicts)" (check_faithfulness docstring); FaithfulnessReport(score, claims, verdicts) per answer (project.md)


def _verify_all(claims, context, cfg, verdicts=[]):
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return verdicts


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    claims = split_claims(answer_text) if claims is None else claims
    verdicts = _verify_all(claims, context_block(chunks), cfg)
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
