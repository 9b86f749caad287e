# replaces: answer
# kind: mistake
# description: hard-codes model="gpt-4o-mini" instead of the configured model (fails without that provider, never runs offline)
# violates: "completion(messages, ...) and embedding(texts, ...) are the only doors to a model ... resolve_models() chooses the chat ... model" (project.md, config.py)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), model="gpt-4o-mini", temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    if is_refusal(text):
        citations = []
    return Answer(text, citations, [i for i in found if i not in given])
