# replaces: answer
# kind: mistake
# description: parses citations with a hand-written regex \[(c\d+)\] instead of _CITE, so file-tagged ids like [report:c3] are never found
# violates: "citations are the chunk ids found in the text (via the provided _CITE regex)" (seed, answer docstring); "_CITE regex (matches [c0] and [report:c3])" (project.md)
import re


def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(re.findall(r"\[(c\d+)\]", text)))
    citations = [i for i in found if i in given]
    dropped = [i for i in found if i not in given]
    if is_refusal(text):
        citations = []
    return Answer(text, citations, dropped)
