# replaces: answer
# kind: mistake
# description: wraps the model call in try/except Exception and returns "I don't know" — a missing key or a wrong model name looks like a refusal
# violates: "Provider errors become a one-line RAGError that names the fix ... every entry point prints it as error: <message> and exits with code 2" (project.md, config.py)

def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    try:
        response = completion(build_prompt(query, chunks), temperature=cfg.temperature, cfg=cfg)
    except Exception:
        return Answer("I don't know.", [])
    text = (response.choices[0].message.content or "").strip()
    given = {c.id for c in chunks}
    found = list(dict.fromkeys(_CITE.findall(text)))
    citations = [] if is_refusal(text) else [i for i in found if i in given]
    return Answer(text, citations, [i for i in found if i not in given])
