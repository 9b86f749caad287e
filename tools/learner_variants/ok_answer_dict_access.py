# replaces: answer
# kind: correct
# description: reads the reply with LiteLLM's documented dict access response["choices"][0]["message"]["content"]
# note: LiteLLM's ModelResponse supports both attribute and dict access; the seed says "Call litellm.completion"

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = (response["choices"][0]["message"]["content"] or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [] if is_refusal(text) else [i for i in found if i in given]
    return Answer(text, citations, [i for i in found if i not in given])
