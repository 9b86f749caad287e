# replaces: answer
# kind: correct
# description: passes model=cfg.model, temperature=cfg.temperature and cfg=cfg explicitly to config.completion

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    messages = build_prompt(query, chunks)
    response = completion(messages, model=cfg.model, temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    allowed = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in allowed]
    if is_refusal(text):
        citations = []
    return Answer(text, citations, [i for i in found if i not in allowed])
