# replaces: answer
# kind: mistake
# description: citations = the ids of all given chunks, not the ones the text cites
# violates: "citations are the chunk ids found in the text" (seed, answer docstring)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    citations = [] if is_refusal(text) else [c.id for c in chunks]
    return Answer(text, citations)
