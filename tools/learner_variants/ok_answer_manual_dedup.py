# replaces: answer
# kind: correct
# description: one loop over the matches with a `seen` set: keeps first appearances of given ids, collects the rest as dropped

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    reply = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = reply.choices[0].message.content or ""
    text = text.strip()
    valid = {chunk.id for chunk in chunks}
    citations, dropped, seen = [], [], set()
    for cid in _CITE.findall(text):
        if cid in seen:
            continue
        seen.add(cid)
        (citations if cid in valid else dropped).append(cid)
    if is_refusal(text):
        citations = []
    return Answer(text=text, citations=citations, dropped=dropped)
