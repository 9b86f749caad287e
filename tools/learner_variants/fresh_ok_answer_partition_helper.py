# replaces: answer
# kind: correct
# description: a module-level helper `_partition(text, allowed)` returns (kept, dropped) with one pass over _CITE.finditer; the reply is read with getattr(..., "content", None)


def _partition(text: str, allowed: set[str]) -> tuple[list[str], list[str]]:
    kept: list[str] = []
    dropped: list[str] = []
    for match in _CITE.finditer(text):
        cid = match.group(1)
        bucket = kept if cid in allowed else dropped
        if cid not in bucket:
            bucket.append(cid)
    return kept, dropped


def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), cfg=cfg)
    message = response.choices[0].message
    text = (getattr(message, "content", None) or "").strip()
    kept, dropped = _partition(text, {c.id for c in chunks})
    if is_refusal(text):
        kept = []
    return Answer(text, kept, dropped)
