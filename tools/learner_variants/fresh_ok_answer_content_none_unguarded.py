# replaces: answer
# kind: correct
# description: reads response.choices[0].message.content.strip() with no guard against None
# note: written as a mistake, reclassified: llm.completion turns an empty or None reply into a RAGError, so the content is always a string, and the answer docstring now says so instead of asking for a guard that can never act

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = response.choices[0].message.content.strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    return Answer(text, [] if is_refusal(text) else citations, [i for i in found if i not in given])
