# replaces: answer
# kind: correct
# description: keeps the model's text exactly as returned (no .strip()), only guarding against None

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = response.choices[0].message.content
    if text is None:
        text = ""
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    if is_refusal(text):
        citations = []
    return Answer(text, citations, [i for i in found if i not in given])
