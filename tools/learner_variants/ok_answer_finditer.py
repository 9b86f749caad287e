# replaces: answer
# kind: correct
# description: collects ids with _CITE.finditer(...).group(1) into a dict used as an ordered set

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    settings = cfg or get_config()
    out = completion(build_prompt(query, chunks), temperature=settings.temperature, cfg=settings)
    text = (out.choices[0].message.content or "").strip()
    ordered = {}
    for match in _CITE.finditer(text):
        ordered.setdefault(match.group(1), None)
    ids = {c.id for c in chunks}
    cited = [cid for cid in ordered if cid in ids]
    dropped = [cid for cid in ordered if cid not in ids]
    return Answer(text, [] if is_refusal(text) else cited, dropped)
