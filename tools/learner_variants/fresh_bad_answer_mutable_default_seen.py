# replaces: answer
# kind: mistake
# description: deduplicates with a helper `_unique(ids, seen=set())`, a mutable default shared across calls: an id cited in one answer is silently missing from every later answer that cites it
# violates: "citations: the ids `_CITE.findall(text)` finds, each once, in order of first appearance, keeping only ids of the given chunks" (answer docstring); "citations are the chunk ids found in the text" (project.md)


def _unique(ids, seen=set()):
    out = []
    for i in ids:
        if i not in seen:
            seen.add(i)
            out.append(i)
    return out


def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = _unique(_CITE.findall(text))
    citations = [i for i in found if i in given]
    return Answer(text, [] if is_refusal(text) else citations, [i for i in found if i not in given])
