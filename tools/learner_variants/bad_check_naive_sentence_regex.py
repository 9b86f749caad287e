# replaces: check_faithfulness
# kind: mistake
# description: own claim splitter re.split(r"(?<=[.!?])\s+") (markers removed), which cuts "Sales in the U.S. rose 8%" and "e.g. in Texas" into fragments
# violates: "split_claims() (sentence-level claims ... "4.2M", "U.S." and "e.g." stay inside their claim)" (project.md, faithfulness.py); §9 "a claim split at 4.2M or U.S. - use the provided split_claims" (lesson)

def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = []
        for part in re.split(r"(?<=[.!?])\s+", answer_text.strip()):
            part = re.sub(r"\s*\[[^\]]+\]", "", part).strip()
            if part:
                claims.append(part)
    context = context_block(chunks)
    verdicts = []
    for claim in claims:
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
