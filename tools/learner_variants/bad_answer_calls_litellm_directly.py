# replaces: answer
# kind: mistake
# description: calls litellm.completion directly (as in Project 01), which cannot serve the offline model and skips the error handling of config.completion
# violates: "In this project the call goes through config.completion, which hands real model names to litellm.completion and offline/... names to the offline model" (project.md, generator.py)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    import litellm

    cfg = cfg or get_config()
    response = litellm.completion(model=cfg.model, messages=build_prompt(query, chunks),
                                  temperature=cfg.temperature)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    if is_refusal(text):
        citations = []
    return Answer(text, citations, [i for i in found if i not in given])
