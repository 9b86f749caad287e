# replaces: check_faithfulness
# kind: correct
# description: the verifier call uses the configured temperature (cfg.temperature) instead of a literal 0.0
# note: the seed does not fix the verifier's temperature; the check_faithfulness docstring accepts cfg.temperature too
from config import get_config


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    cfg = cfg or get_config()
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=cfg.temperature, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
