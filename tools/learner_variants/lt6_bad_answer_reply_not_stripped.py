# replaces: answer
# kind: mistake
# description: an outside learner's mistake (2026-12-01): the reply's text is kept as it came, surrounding whitespace and newlines included
# violates: "the reply text is `response.choices[0].message.content`, stripped" (code/generator.py, answer docstring)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = response.choices[0].message.content or ""
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    if is_refusal(text):
        citations = []
    return Answer(text, citations, [i for i in found if i not in given])
