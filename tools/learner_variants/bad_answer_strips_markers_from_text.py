# replaces: answer
# kind: mistake
# description: removes the [c0] markers from the answer text after parsing them ("cleaner output")
# violates: "answer(...) -> Answer(text="Q3 revenue was 4.2M [c0].", citations=["c0"])" — the text keeps its markers (seed, example I/O)
import re


def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    raw = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(raw)))
    text = re.sub(r"\s+([.,;!?])", r"\1", _CITE.sub("", raw)).strip()
    citations = [] if is_refusal(text) else [i for i in found if i in given]
    return Answer(text, citations, [i for i in found if i not in given])
