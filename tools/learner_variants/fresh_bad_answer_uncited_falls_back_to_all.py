# replaces: answer
# kind: mistake
# description: when the model cites nothing (and does not refuse), cites every given chunk "so the answer always has a source"
# violates: "citations are the chunk ids found in the text" (project.md); "citations: the ids `_CITE.findall(text)` finds" (answer docstring)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = [c.id for c in chunks]
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    if is_refusal(text):
        citations = []
    elif not citations:
        citations = given  # uncited answer: attribute it to the retrieved context
    return Answer(text, citations, [i for i in found if i not in given])
