# replaces: answer
# kind: mistake
# description: treats a reply as a refusal only when it starts with "I don't know" (either apostrophe); "The context does not contain the answer [c1]." or "Unfortunately, I do not know [c0]." keep their citations
# violates: "a refusal (`is_refusal(text)`, provided) has citations == [], whatever ids it mentions" (answer docstring); "off-doc question -> refusal text, citations == []" (project.md contract table)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    refused = text.lower().replace("\u2019", "'").startswith("i don't know")
    citations = [] if refused else [i for i in found if i in given]
    return Answer(text, citations, [i for i in found if i not in given], refused)
