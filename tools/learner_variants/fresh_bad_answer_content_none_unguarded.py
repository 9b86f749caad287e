# replaces: answer
# kind: mistake
# description: reads response.choices[0].message.content.strip() with no guard, so a reply whose content is None (a tool call, a content filter) raises AttributeError
# violates: "the reply text is `response.choices[0].message.content` (it may be None: treat as \"\")" (answer docstring)
# note: llm.completion turns an empty LiteLLM reply into a RAGError, so only a monkeypatched completion (or a future provider path) shows the difference

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = response.choices[0].message.content.strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    return Answer(text, [] if is_refusal(text) else citations, [i for i in found if i not in given])
