# replaces: answer
# kind: correct
# description: checks is_refusal first and returns early with no citations (invented ids still listed in dropped); only a real answer goes through citation filtering

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    messages = build_prompt(query, chunks)
    content = completion(messages, cfg=cfg).choices[0].message.content
    text = content.strip() if content else ""
    found = list(dict.fromkeys(_CITE.findall(text)))
    valid = {c.id for c in chunks}
    dropped = [i for i in found if i not in valid]
    if is_refusal(text):
        return Answer(text, [], dropped, refused=True)
    return Answer(text, [i for i in found if i in valid], dropped, refused=False)
