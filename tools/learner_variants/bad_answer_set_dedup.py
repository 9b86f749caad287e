# replaces: answer
# kind: mistake
# description: deduplicates with list(set(...)), so the order of the citations is lost (and changes from run to run with hash randomisation)
# violates: "keep the ones that were given (deduplicated, in order)" (lesson, M4); "answer deduplicates them, keeps the order of first appearance" (lesson 4.5)
# note: the seed only says "citations are the chunk ids found in the text"; the order is pinned by the lesson, not by the seed or project.md

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(set(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    dropped = [i for i in found if i not in given]
    if is_refusal(text):
        citations = []
    return Answer(text, citations, dropped)
