# replaces: answer
# kind: mistake
# description: finds citations with `chunk.id in text` for each given chunk (ordered by text.find), not with _CITE; "c1" is found inside "[c10]" or "c12", and a bare "c1" in prose counts as a citation
# violates: "citations are the chunk ids found in the text (via the provided _CITE regex)" (project.md; answer docstring: "the ids `_CITE.findall(text)` finds")
# note: with chunks c1 and c10 and the reply "Revenue was 4.2M [c10].", citations become ["c1", "c10"]

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    present = [c.id for c in chunks if c.id in text]
    citations = sorted(dict.fromkeys(present), key=text.find)
    given = {c.id for c in chunks}
    dropped = list(dict.fromkeys(i for i in _CITE.findall(text) if i not in given))
    if is_refusal(text):
        citations = []
    return Answer(text, citations, dropped)
