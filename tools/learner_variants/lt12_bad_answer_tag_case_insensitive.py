# replaces: answer
# kind: mistake
# description: a learner probe (2026-12-01, lt12): compares ids case-insensitively and returns them lowercased ("models sometimes write [C0]"), so in multi-file mode a file tag with capitals (tag of "Annual Report.pdf" is "Annual_Report") comes back as "annual_report:c3", an id no chunk has: resolve_citations then finds no page or quote for it
# violates: "citations ⊆ the given chunk ids (contract table)"


def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = (response.choices[0].message.content or "").strip()
    given = {c.id.lower() for c in chunks}
    citations, dropped = [], []
    for cid in _CITE.findall(text.lower()):
        target = citations if cid in given else dropped
        if cid not in target:
            target.append(cid)
    if is_refusal(text):
        citations = []
    return Answer(text, citations, dropped)
