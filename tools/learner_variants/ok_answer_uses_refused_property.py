# replaces: answer
# kind: correct
# description: builds the Answer first, then empties its citations when the provided Answer.refused property says it is a refusal

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = [c.id for c in chunks]
    ids = list(dict.fromkeys(_CITE.findall(text)))
    result = Answer(text, [i for i in ids if i in given], [i for i in ids if i not in given])
    if result.refused:
        result.citations = []
    return result
