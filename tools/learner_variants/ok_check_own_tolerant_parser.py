# replaces: check_faithfulness
# kind: correct
# description: its own verdict reader: the first standalone "yes" or "no" in the reply decides ("**Yes**", "Verdict: YES", "No, not yes" -> No)
_YES_NO = re.compile(r"\b(yes|no)\b", re.I)


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg).choices[0].message.content or ""
        first = _YES_NO.search(reply)
        verdicts.append(bool(first) and first.group(1).lower() == "yes")
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
