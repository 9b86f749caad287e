# replaces: answer
# kind: mistake
# description: when the model refuses, asks again once at temperature 0.7 "in case it was too strict"; a refusal is the correct outcome for an off-document question, and the retry runs off the configured temperature
# violates: "Call ... at cfg.temperature" (project.md answer; answer docstring: "uses cfg.temperature (0.0: grounded answering wants extraction, not creativity)"); "off-doc question -> refusal text" (contract table)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    messages = build_prompt(query, chunks)
    response = completion(messages, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    if is_refusal(text):
        retry = completion(messages, temperature=0.7, cfg=cfg)
        text = (retry.choices[0].message.content or "").strip() or text
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [i for i in found if i in given]
    return Answer(text, [] if is_refusal(text) else citations, [i for i in found if i not in given])
