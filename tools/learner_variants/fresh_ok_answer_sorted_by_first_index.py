# replaces: answer
# kind: correct
# description: orders the unique ids with sorted(set(found), key=found.index) (first appearance), then splits them into kept and dropped with two comprehensions

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    reply = completion(build_prompt(query, chunks), cfg=cfg)
    text = (reply.choices[0].message.content or "").strip()
    found = _CITE.findall(text)
    unique = sorted(set(found), key=found.index)
    ids = {chunk.id for chunk in chunks}
    kept = [cid for cid in unique if cid in ids]
    invented = [cid for cid in unique if cid not in ids]
    refused = is_refusal(text)
    return Answer(text=text, citations=[] if refused else kept, dropped=invented, refused=refused)
