# replaces: answer
# kind: mistake
# description: reads every [...] in the reply as a citation candidate (re.findall(r"\[(.*?)\]")), so footnotes "[1]", "[sic]" or "[Function]" land in `dropped` as "invented ids", and "[c0, c2]" is one unknown id
# violates: "citations: the ids `_CITE.findall(text)` finds ... the others go to `dropped`" (answer docstring); "via the provided _CITE regex" (project.md)
# note: Answer.dropped documents "Bracketed ids the model wrote that were not among the given chunks"

import re as _re


def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(s.strip() for s in _re.findall(r"\[(.*?)\]", text)))
    citations = [i for i in found if i in given]
    dropped = [i for i in found if i not in given]
    return Answer(text, [] if is_refusal(text) else citations, dropped)
