# replaces: answer
# kind: mistake
# description: builds its own short messages ("Answer from the context") instead of calling build_prompt
# violates: "Call litellm.completion over build_prompt(...)" (seed, answer docstring)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    context = "\n".join(f"[{c.id}] {c.text}" for c in chunks)
    messages = [{"role": "system", "content": "Answer the question from the context."},
                {"role": "user", "content": f"{context}\n\nQuestion: {query}"}]
    response = completion(messages, temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [] if is_refusal(text) else [i for i in found if i in given]
    return Answer(text, citations, [i for i in found if i not in given])
