# replaces: answer
# kind: mistake
# description: a learner probe (2026-12-01): ids are compared after stripping the document tag, so [c3] and [other:c3] count as report:c3
# violates: "citations ⊆ the given chunk ids (contract table)"


def answer(query: str, chunks: list[Chunk], cfg: Config | None = None) -> Answer:
    """Call the model over build_prompt(...) at the configured temperature; return
    Answer(text, citations) where citations are the chunk ids found in the text (via the
    provided _CITE regex).

    The rules, in full:
    * call the model through `completion(messages, cfg=cfg)` from llm.py (imported above): it
      reaches LiteLLM for real models and the offline stand-in otherwise (litellm.completion
      itself cannot serve `offline/extractive`), and uses cfg.temperature (0.0: grounded
      answering wants extraction, not creativity); `cfg=None` means `get_config()`;
    * the reply text is `response.choices[0].message.content`; stripping its surrounding
      whitespace is allowed, not required (completion() never returns an empty reply: it raises
      RAGError instead);
    * citations: the ids `_CITE.findall(text)` finds, each once, in order of first appearance,
      keeping only ids of the given chunks; the others go to `dropped` (a model can invent [c99]);
    * a reply that cites nothing has citations == [] (never fill them in yourself);
    * a refusal (`is_refusal(text)`, provided) has citations == [], whatever ids it mentions
      (`dropped` then follows the rule above or stays empty: either is accepted).

    Example (offline):
        answer("What was Q3 revenue?", [Chunk("c0", "Q3 revenue was 4.2M, up 8% YoY.")])
        -> Answer(text="Q3 revenue was 4.2M, up 8% YoY [c0].", citations=["c0"])
        answer("Who is the CEO of Apple?", [Chunk("c0", "Q3 revenue was 4.2M, up 8% YoY.")])
        -> Answer(text="I don't know: ...", citations=[])
    """
    cfg = cfg or get_config()
    response = completion(build_prompt(query, chunks), cfg=cfg)
    text = response.choices[0].message.content.strip()
    given = {c.id for c in chunks}
    bare = {g.split(':')[-1] for g in given}
    citations: list[str] = []
    dropped: list[str] = []
    for cid in _CITE.findall(text):
        if cid.split(':')[-1] in bare:
            if cid not in citations:
                citations.append(cid)
        elif cid not in dropped:
            dropped.append(cid)
    if is_refusal(text):
        return Answer(text, [], dropped, refused=True)
    return Answer(text, citations, dropped, refused=False)
