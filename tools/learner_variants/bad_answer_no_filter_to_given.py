# replaces: answer
# kind: mistake
# description: trusts the model: every bracketed id becomes a citation, also an invented [c99]
# violates: "Answer(text, citations); citations ⊆ chunk ids" (seed, contract table)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    citations = list(dict.fromkeys(_CITE.findall(text)))
    if is_refusal(text):
        citations = []
    return Answer(text, citations)
