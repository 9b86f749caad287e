# replaces: answer
# kind: mistake
# description: filters invented ids out of the citations but does not report them in Answer.dropped
# violates: "Answer dataclass (text, citations, and dropped: bracketed ids the model wrote that were not among the given chunks)" (project.md, generator.py); "put the rest in dropped" (lesson, M4)
# note: the seed's answer docstring and contract table never mention dropped

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    citations = [i for i in dict.fromkeys(_CITE.findall(text)) if i in given]
    if is_refusal(text):
        citations = []
    return Answer(text, citations)
