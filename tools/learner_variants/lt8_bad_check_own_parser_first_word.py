# replaces: check_faithfulness
# kind: mistake
# description: a learner probe (2026-12-01): its own verdict parser, which takes the first yes/no-like word and so reads "Not supported." and "I cannot say yes to this; No." as supported
# violates: "each reply becomes a verdict with parse_verdict (provided)" (check_faithfulness docstring)

import re


def _my_verdict(reply: str) -> bool:
    cleaned = re.sub(r"^\W*(verdict|answer|final answer)\s*[:\-]\s*", "", reply.strip(), flags=re.I)
    for word in re.findall(r"[A-Za-z]+", cleaned):
        if word.lower() in ("yes", "supported"):
            return True
        if word.lower() in ("no", "unsupported"):
            return False
    return False


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}], temperature=0.0, cfg=cfg)
        verdicts.append(_my_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
