# replaces: check_faithfulness
# kind: mistake
# description: "citation-aware" verification: each answer sentence is checked only against the chunks it cites (all chunks when it cites none), so a true claim that cites the wrong retrieved chunk is scored unfaithful
# violates: "the context is every chunk, joined (`context_block(chunks)`, provided): a claim may rest on any retrieved chunk, not only the first" (check_faithfulness docstring); "verify each against the joined context" (project.md)
# note: checking citations is a different measure (citation precision), not faithfulness F = |V|/|S|


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    from citations import CITE

    if claims is None:
        sentences = [s for s in split_sentences(answer_text) if re.search(r"\w", strip_markers(s))]
        claims = [strip_markers(s) for s in sentences]
        cited = [set(CITE.findall(s)) for s in sentences]
    else:
        cited = [set(CITE.findall(c)) for c in claims]
    verdicts = []
    for claim, ids in zip(claims, cited):
        evidence = [c for c in chunks if c.id in ids] or chunks
        reply = completion([{"role": "system", "content": _VERIFY_SYSTEM},
                            {"role": "user", "content": f"Context:\n{context_block(evidence)}\n\nClaim: {claim}"}],
                           temperature=0.0, cfg=cfg)
        verdicts.append(parse_verdict(reply.choices[0].message.content or ""))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
