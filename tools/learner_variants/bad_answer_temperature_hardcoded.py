# replaces: answer
# kind: mistake
# description: hard-codes temperature=0.7 (copied from a chat example) instead of the configured temperature
# violates: "Call litellm.completion over build_prompt(...) at cfg.temperature" (seed, answer docstring)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), temperature=0.7, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    if is_refusal(text):
        citations = []
    return Answer(text, citations, [i for i in found if i not in given])
