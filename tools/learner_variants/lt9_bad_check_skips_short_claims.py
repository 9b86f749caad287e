# replaces: check_faithfulness
# kind: mistake
# description: a learner probe (2026-12-01): claims under three words are left out of the score
# violates: "Split answer into claims, verify each against the joined context (seed: check_faithfulness)"


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    """Split answer into claims, verify each against the joined context via an LLM yes/no call, score it.

    The rules, in full:
    * claims: `claims` when given (used as they are), else `split_claims(answer_text)` (one
      claim per sentence, citation markers removed); no claims -> FaithfulnessReport(1.0, [], []);
    * the context is every chunk, joined (`context_block(chunks)`, provided): a claim may rest
      on any retrieved chunk, not only the first;
    * one model call per claim through `completion(messages, cfg=cfg)` from llm.py, with
      `_VERIFY_SYSTEM` as the system message and a user message holding the context and the
      claim (e.g. "Context:\n<context>\n\nClaim: <claim>"); the model decides, not a
      word-overlap rule of yours. (Temperature: the spec leaves it open; the reference passes
      `temperature=0.0`, since a verdict should not be sampled, and `cfg.temperature`, 0.0 by
      default, is accepted too);
    * each reply becomes a verdict with `parse_verdict` (provided): "Yes." -> True, "No" -> False;
    * verdicts in the order of the claims; score = faithfulness_score(verdicts);
    * a refusal is not special here: its sentences are claims like any other, each judged by the
      model (rag.ask leaves a refusal out before it calls this).

    Example (offline; the spec's):
        check_faithfulness("Q3 revenue was 4.2M. Margin was 40%.", [Chunk("c0", "Q3 revenue 4.2M, margin 21%.")])
        -> FaithfulnessReport(score=0.5, claims=["Q3 revenue was 4.2M.", "Margin was 40%."],
                              verdicts=[True, False])
    """
    if claims is None:
        claims = split_claims(answer_text)
    if not claims:
        return FaithfulnessReport(1.0, [], [])
    context = context_block(chunks)
    verdicts: list[bool] = []
    claims = [c for c in claims if len(c.split()) >= 3]
    if not claims:
        return FaithfulnessReport(1.0, [], [])
    for claim in claims:
        messages = [{"role": "system", "content": _VERIFY_SYSTEM},
                    {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}]
        reply = completion(messages, cfg=cfg, temperature=0.0)
        verdicts.append(parse_verdict(reply.choices[0].message.content))
    return FaithfulnessReport(faithfulness_score(verdicts), list(claims), verdicts)
