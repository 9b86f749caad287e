# replaces: answer
# kind: mistake
# description: never checks for a refusal, so "I don't know [c1]" keeps c1 as a citation
# violates: "off-doc question -> refusal text, citations == []" (seed, contract table)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    return Answer(text, [i for i in found if i in given], [i for i in found if i not in given])
