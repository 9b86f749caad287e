# replaces: answer
# kind: mistake
# description: passes temperature=cfg.temperature or 0.7 ("fall back to a sensible default when unset"); the project's default 0.0 is falsy, so the model always runs at 0.7 unless someone configures a non-zero value
# violates: "uses cfg.temperature (0.0: grounded answering wants extraction, not creativity)" (answer docstring); "a low default temperature (0.0 ...)" (project.md config.py)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature or 0.7, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    return Answer(text, [] if is_refusal(text) else citations, [i for i in found if i not in given])
