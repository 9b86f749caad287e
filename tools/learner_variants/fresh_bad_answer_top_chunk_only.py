# replaces: answer
# kind: mistake
# description: prompts with chunks[:1] only ("the retriever already ranked them; the best one is enough"), so a fact in any other retrieved chunk is out of reach
# violates: "Call litellm.completion over build_prompt(...)" with the chunks it was given (project.md answer; answer docstring "Call the model over build_prompt(...)")

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    best = chunks[:1]
    response = completion(build_prompt(query, best), cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    return Answer(text, [] if is_refusal(text) else citations, [i for i in found if i not in given])
