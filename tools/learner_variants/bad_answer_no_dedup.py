# replaces: answer
# kind: mistake
# description: citations = every _CITE match in the text, duplicates included ("[c0] ... [c0]" gives ["c0", "c0"])
# violates: "keep the ones that were given (deduplicated, in order)" (lesson, M4)
# note: the seed says only "citations are the chunk ids found in the text"; deduplication is stated in the lesson

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = _CITE.findall(text)
    citations = [i for i in found if i in given]
    dropped = [i for i in found if i not in given]
    if is_refusal(text):
        citations = []
    return Answer(text, citations, dropped)
