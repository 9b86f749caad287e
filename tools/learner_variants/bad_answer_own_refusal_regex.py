# replaces: answer
# kind: mistake
# description: its own refusal detection (don't / don’t / do not / cannot know|answer, "not in the context", "does not contain") instead of the provided is_refusal
# violates: "a refusal (`is_refusal(text)`, provided) has citations == []" (answer docstring)
# note: judged correct until is_refusal read a reply that answers in part (2026-12-01; the lesson, §7 M4: "X [c4]. I don't know when." is an answer); this regex refuses it and drops its citation
import re
_SAYS_NO = re.compile(r"\b(?:i|we)\s+(?:don['’]t|do\s+not|cannot|can['’]t)\s+(?:know|answer|find)\b"
                      r"|\b(?:does\s+not|doesn['’]t)\s+(?:contain|include|mention|say)\b"
                      r"|\bnot\s+in\s+the\s+(?:context|passages)\b", re.I)


def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    known = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    refused = not text or bool(_SAYS_NO.search(text))
    citations = [] if refused else [i for i in found if i in known]
    return Answer(text, citations, [i for i in found if i not in known])
