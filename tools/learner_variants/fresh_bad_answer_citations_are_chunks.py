# replaces: answer
# kind: mistake
# description: returns the cited Chunk objects in `citations` ("more useful downstream") instead of their ids
# violates: "return Answer(text, citations) where citations are the chunk ids found in the text" (project.md); "citations ⊆ chunk ids" (contract table)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    by_id = {c.id: c for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    cited = [by_id[i] for i in found if i in by_id]
    return Answer(text, [] if is_refusal(text) else cited, [i for i in found if i not in by_id])
