# replaces: answer
# kind: mistake
# description: detects a refusal with `"don't know" in text.lower()`, so "I do not know [c1]", "I don’t know [c1]" or "The context does not contain the answer [c1]" keep their citations
# violates: "off-doc question -> refusal text, citations == []" (seed, contract table)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    if "don't know" in text.lower():
        citations = []
    return Answer(text, citations, [i for i in found if i not in given])
