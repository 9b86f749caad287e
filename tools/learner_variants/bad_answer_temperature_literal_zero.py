# replaces: answer
# kind: mistake
# description: passes temperature=0 literally, so RAG_TEMPERATURE / Config.temperature is ignored (same value only by default)
# violates: "Call litellm.completion over build_prompt(...) at cfg.temperature" (seed, answer docstring); "Every field has a RAG_<FIELD> environment override" (project.md, config.py)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), temperature=0, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    if is_refusal(text):
        citations = []
    return Answer(text, citations, [i for i in found if i not in given])
