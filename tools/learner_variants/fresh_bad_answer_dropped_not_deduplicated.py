# replaces: answer
# kind: mistake
# description: deduplicates the kept citations but fills `dropped` from the raw matches, so an invented id written twice is reported twice (["c99", "c99"])
# violates: "the ids `_CITE.findall(text)` finds, each once, in order of first appearance, keeping only ids of the given chunks; the others go to `dropped`" (answer docstring)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = _CITE.findall(text)
    citations = list(dict.fromkeys(i for i in found if i in given))
    dropped = [i for i in found if i not in given]
    return Answer(text, [] if is_refusal(text) else citations, dropped)
