# replaces: answer
# kind: mistake
# description: ignores the cfg it is given and calls completion(messages) with the environment's settings
# violates: "call the model through `completion(messages, cfg=cfg)` ... `cfg=None` means `get_config()`" (code/generator.py, answer docstring "The rules, in full")
# note: the seed's signature is answer(query, chunks); the cfg parameter came with the restructure

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks))
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    if is_refusal(text):
        citations = []
    return Answer(text, citations, [i for i in found if i not in given])
