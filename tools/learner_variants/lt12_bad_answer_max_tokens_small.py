# replaces: answer
# kind: mistake
# description: a learner probe (2026-12-01, lt12): hard-codes max_tokens=60 ("answers should be short"), overriding cfg.max_tokens (RAG_MAX_TOKENS); a real model's longer answer is cut mid-sentence (its citations lost), and a reasoning model spends the budget thinking and returns nothing (RAGError); offline and mock replies ignore max_tokens
# violates: "uses cfg.temperature ... and cfg.max_tokens (pass neither yourself)" (answer docstring)


def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), cfg=cfg, max_tokens=60)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    citations, dropped = [], []
    for cid in _CITE.findall(text):
        target = citations if cid in given else dropped
        if cid not in target:
            target.append(cid)
    if is_refusal(text):
        citations = []
    return Answer(text, citations, dropped)
