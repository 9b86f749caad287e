# replaces: answer
# kind: mistake
# description: a learner probe (2026-12-01, lt12): decides refusal from the reply's first line only, is_refusal(text.splitlines()[0]) ("the verdict is up front"); "Based on the passages:\nI don't know [c1]." keeps c1, and a reply that opens with a declining line and then answers loses its citations
# violates: "a refusal (`is_refusal(text)`, provided) has citations == []" and "a reply that states a cited fact and declines the rest ... is an answer" (answer docstring, lesson §7 M4)


def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    citations, dropped = [], []
    for cid in _CITE.findall(text):
        target = citations if cid in given else dropped
        if cid not in target:
            target.append(cid)
    refused = is_refusal(text.splitlines()[0])
    if refused:
        citations = []
    return Answer(text, citations, dropped, refused=refused)
