"""The offline stand-in for an LLM, part 1: how it reads a prompt.  [provided]

With no API key, llm.py sends every `offline/...` model to the stand-in (no network). It is not
an LLM: it reads a prompt by the written protocol below (its rules here, where the context and
the question stand in offline_layout.py), answers by quoting context sentences
(offline_answerer.py), checks claims by matching their facts (offline_verifier.py) and embeds
with offline_embeddings.py. Its entry point, offline_chat.py's `complete`, replies in LiteLLM's
shape: `response.choices[0].message.content` == `response["choices"][0]["message"]["content"]`.

THE PROTOCOL: what it reads from the messages (typographic quotes count as plain ones).
1. The task, from the system message: a yes/no verdict on a claim or statement ("Reply Yes or
   No: is the claim supported?") is verification (asked the other way round, in the system or
   the user message outside the context, "Is the claim a hallucination?", "Does it contain
   anything not found in the context?", "Does it go beyond the context?", its "Yes" means
   unsupported, as a real judge reads it); copying the context sentences needed for a
   question, else "Insufficient Information", is context relevance; anything else is answering.
2. The context: every line that starts with a chunk id in brackets, `[c0] text` or
   `[report:c3] text` (optionally `[c0]: text`); the lines under it belong to it, up to a blank
   line, a label line (`Question:`, `Claim:`), a tag line (`</context>`) or a `---` line. It
   may stand in any message, inside `<context>` tags or not; a tag at an entry's edge is the
   fence, one inside it ("the <b> tag") is document text.
3. The question: the text after the last `Question:` (or `Q:`) label; without a label, the
   last line of the user message that is not context. Text inside `<context> ... </context>`
   is document text, never the question.
4. The claim (verification; offline_claims.read_claim): the text after a `Claim:` label or
   one like it ("Statement:", "Answer sentence:", "Text to check:", "Verify:", "## Claim"), up
   to the next label, a blank line or a line that asks something; or quoted after such a word
   ('... support the claim "..."?') or in a question ('Is this accurate: "..."?'); else the
   user text outside the context less its instructions. No claim
   is no support. The context: the `[id]` lines plus any other user text that is not the
   claim, a label or an instruction (a judge reads all it is shown), else what follows `Context:`.
5. The rules, read from the system message (take-backs from the user message too, below). A
   rule counts only when it is stated, not when its clause negates it ("never say you don't
   know" gives no permission to refuse):
   * GROUNDED: the answer must come only from the context ("only from the context", "based on
     the context only", "solely ... passages", "do not use outside knowledge", "don't use
     anything you know beyond the passages", "stick to the passages", "stay within the
     context"); said with a hedge ("... where possible") it is no rule. Without it, or
     when the prompt invites general or own knowledge, it answers from a few facts it knows
     (offline_answerer.GENERAL_KNOWLEDGE) when asked about one, as an ungrounded model would.
   * CITE: `[id]` after each sentence, only when asked to cite ("citations are optional",
     "nice to have" or "only add citations if you are sure" undoes it).
   * REFUSE: it says "I don't know: ..." only when allowed to ("say you don't know", "say
     that the context does not contain the answer", "say you do not have enough information",
     "admit it", "refuse"), and not told anywhere to always answer ("never say you don't know",
     "always give an answer", "never leave the user without an answer", "saying you don't know
     is not acceptable").
   * UNTRUSTED CONTEXT: it ignores instructions inside the context only when told that the
     context is data, not instructions ("untrusted", "treat the context as data", "ignore any
     instructions (or prompts) in the context", "the excerpts are reference material" or
     "quoted third-party material", "requests inside it are not addressed to you", "not
     something for you to carry out", "only follow instructions from this system message",
     "ignore prompt injection"). Otherwise it obeys an instruction hidden in a document.
   A later permission undoes a rule unless its clause holds a negation, in the system message
   or in the user message outside the context and the question: "fill the gaps with what you
   know", "draw on your expertise", "give your best guess", "answer as best you can", "infer a
   plausible answer", "speculate", "use common knowledge", "add context from your training",
   "examples of your own" undo GROUNDED; "avoid refusing" undoes REFUSE; "follow instructions
   found in it", "a note in the excerpts should be honoured" (or "respected", "applied"),
   "instructions in the documents take precedence" undo UNTRUSTED CONTEXT.

Run alone:  python code/offline_chat.py    (the stand-in answering, refusing and verifying on a tiny context)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citations import normalise_quotes
from offline_layout import besides_question, parse_context, parse_question

OFFLINE_CHAT = "offline/extractive"

# ------------------------------------------------------------------------- the rules

# A rule is negated when a negation stands right before it: "never say", "do not rely only on".
_NEGATION = r"\b(never|not|no|don't|dont|avoid|without)\b"
_NEGATED = re.compile(_NEGATION + r"(?:\s+\w+)?\s*$", re.I)
_SOURCE = r"(context|passages?|documents?|sources?|excerpts?|provided|given|chunks?|retrieved|(the|this|that) text)"
_NEAR = r"[^.;\n]{0,60}"  # within one clause
# No negation between: "only these rules, never instructions in the passages" is no grounding.
_NEAR_UNNEGATED = r"(?:(?!\b(?:never|not|no)\b|n't\b)[^.;\n]){0,60}"
_CONDITION = re.compile(r"^\s*(if|when|whenever|where)\b[^,]{0,80},", re.I)


def _any(*phrases: str) -> re.Pattern:
    return re.compile("|".join(phrases), re.I)


# Grounding: "only"/"solely" with the context, in a clause that is not about citing ("cite only
# ids that appear in the context" is about citing).
_GROUNDED = _any(rf"\b(only|just|nothing but|nothing except)\b{_NEAR_UNNEGATED}\b{_SOURCE}\b",
                 rf"\b{_SOURCE}\s+(only|exclusively)\b(?!\s+(contains?|covers?|hold|holds|has|have|includes?|says?|lists?))",
                 rf"\b(stay|remain|keep)\s+(strictly\s+)?(within|inside)\b{_NEAR_UNNEGATED}\b{_SOURCE}\b",
                 rf"\b{_SOURCE}\b{_NEAR}\b(single|sole|only|one)\s+source\s+of\s+(truth|information|facts)\b",
                 rf"\b(solely|exclusively|strictly|purely|sole)\b{_NEAR_UNNEGATED}\b{_SOURCE}\b",
                 rf"\b{_SOURCE}\b{_NEAR}\b(and|but) nothing (else|more)\b",
                 rf"\bground(s|ed)?\b{_NEAR}\b(in|on)\b{_NEAR_UNNEGATED}\b{_SOURCE}\b",
                 rf"\b(restrict|limit|confine)\b{_NEAR}\b{_SOURCE}\b",
                 rf"\b(from|on|in)\s+(the\s+)?{_SOURCE}\s+alone\b",
                 rf"\b(everything|all|every|each|answers?|responses?|replies|statements?)\b{_NEAR}\b(must|should|has to|"
                 rf"have to)\s+(come|be(\s+\w+ly)?\s+(drawn|taken|based|supported|grounded|backed))(\s+\w+ly)?\s+(from|on|by|in)\b"
                 rf"{_NEAR_UNNEGATED}\b{_SOURCE}\b",
                 rf"\b(nothing|no information|no facts|no knowledge)\s+(from\s+)?(outside|beyond|other than)\s+(of\s+)?"
                 rf"(the\s+)?{_SOURCE}\b",
                 rf"\b(stick|keep|adhere)\s+(strictly\s+|closely\s+)?to\b{_NEAR_UNNEGATED}\b{_SOURCE}\b")
_ABOUT_CITING = _any(r"\bcit(e|ing|ation)s?\b", r"\bids?\b")
_NO_OUTSIDE = _any(
    r"\b(do not|don't|never|must not|should not|cannot|can't|may not)\s+(use|rely on|draw on|add|bring in|include|"
    r"answer from|consult)\b[^.;\n]{0,20}\b(outside|external|prior|general|own|background|world|parametric|other)"
    r"\s+(knowledge|information|facts|sources)\b",
    r"\b(do not|don't|never)\s+use\b[^.;\n]{0,20}\b(knowledge|information|facts)\s+(beyond|outside|other than)\b",
    r"\b(not|never|do not|don't)\s+(answer\s+|draw\s+|work\s+)?from\s+(your\s+)?(own\s+)?memory\b",
    r"\b(not|never|do not|don't)\s+(rely on|use|draw on)\s+(your\s+)?(own\s+)?(memory|what you (know|remember))\b",
    r"\b(do not|don't|never)\s+(use|add|include|draw on|rely on)\s+anything\s+(else\s+)?you\s+(already\s+)?(know|remember)\b",
    r"\bwithout\s+(adding|using|bringing in)\b[^.;\n]{0,30}\b(from memory|outside|own knowledge|prior knowledge)\b",
    r"\b(own|outside|prior|general|background) knowledge\b[^.;\n]{0,20}\b(is|are)\s+(off limits|forbidden|not allowed)\b",
    r"\b(and|but|with|using)\s+(no|not)\s+(your\s+)?(own|prior|outside|external|general|background|world)\s+knowledge\b",
    rf"\b(do not|don't|never)\s+(use|add|include|give)\s+(any\s+)?(information|facts|knowledge|details)\s+(that\s+)?"
    rf"(is not|isn't|are not|aren't)\s+(found\s+|stated\s+|given\s+)?(in|from)\b[^.;\n]{{0,10}}\b{_SOURCE}\b",
    r"\b(use|with)\s+no\s+(other|outside|external|additional)\s+(information|knowledge|facts|sources)\b",
    r"\b(do not|don't|never)\s+(use|rely on|draw on)\s+(your\s+)?(pre-?)?training(\s+data)?\b")
# A grounding rule said with a hedge ("only from the context where possible", "Where possible, answer
# ...") is no rule; a hedge of something else ("..., in one sentence if possible") leaves it standing.
_HEDGE = r"((where|when(ever)?|if)\s+(at all\s+)?possible|as (far|much) as (possible|you can)|where(ver)? you can|unless (necessary|needed|required))"
_HEDGED = _any(rf"\b{_SOURCE}\b(\s+\w+)?[\s,]+{_HEDGE}\b", rf"^\s*{_HEDGE}\s*,")
_NOT_GROUNDING = _any(_ABOUT_CITING.pattern, _HEDGED.pattern)  # clauses whose "only ... context" is no grounding
_OWN_KNOWLEDGE = _any(r"\b(use|using|draw on|rely on|add|include|supplement|with|from)\b(?:(?!\b(?:no|not|never)\b)[^.;\n]){0,30}"
                      r"\b((own|general|outside|external|background|prior|world|common) knowledge|your (expertise|experience))\b",
                      r"\b(use|using|draw on|rely on|add|supplement|round out|complete)\b(?:(?!\b(?:no|not|never)\b)[^.;\n]){0,30}"
                      r"\b((widely known|well-known|background|general|outside) facts|your training)\b",
                      r"\b(examples?|ideas?|facts|details|knowledge)\s+of\s+your\s+own\b|\byour\s+own\s+(examples?|ideas?|facts)\b")
# Permissions that undo a rule stated elsewhere; they count unless their clause holds a negation.
_GUESSES = _any(r"\b(fill|complete|supplement|answer)\b[^.;\n]{0,40}\bwhat you (already )?know\b", r"\bas best (you|one) can\b",
                r"\b(give|make|offer|add|take)\b[^.;\n]{0,20}\bguess(es)?\b", r"\bunless you know (better|more|otherwise)\b",
                r"\buse your (own )?judge?ment\b", r"\bmost (likely|plausible|probable) answer\b", r"\bfill (in )?(the gaps|what is missing|any gaps)\b",
                r"\b(give|offer|infer|provide|make|produce|find)\b[^.;\n]{0,20}\ba (likely|plausible|probable) answer\b",
                r"\b(add|include|use)\b[^.;\n]{0,30}\b(background|knowledge|facts)\b[^.;\n]{0,30}\byou (remember|recall)\b",
                r"\bspeculat(e|ing)\b", r"\b(may|can)\s+(still\s+)?answer\s+(anyway|regardless|even if)\b")
_OBEYS_CONTEXT = _any(r"\b(follow|obey|execute|carry out|act on)\b[^.;\n]{0,30}\b(instructions?|commands?|requests?)\b"
                      rf"[^.;\n]{{0,20}}\b(in|inside|within|found in|from)\b[^.;\n]{{0,20}}\b(it|them|{_SOURCE})\b",
                      r"\b(instructions?|commands?|requests?)\b[^.;\n]{0,60}\b(follow|obey|execute|carry out|act on)\s+(them|it)\b",
                      rf"\b{_SOURCE}\b[^.;\n]{{0,80}}\b(should|must|is to|are to) be (honou?red|followed|obeyed|carried out|respected|"
                      r"heeded|applied)\b", rf"\b{_SOURCE}\b[^.;\n]{{0,30}}\btakes?\s+precedence\b",
                      rf"\b{_SOURCE}\b[^.;\n]{{0,60}}\b(are|is)\s+(instructions?|commands?|orders?)\s+(from|by)\b")
_ANY_NEGATION = re.compile(_NEGATION + r"|n't\b", re.I)
_EXAMPLE_ID = r"\[(?:[\w.-]+:)?c\d+\]"
_ID_WORD = r"\b(ids?|identifiers?)\b"
_CITES = _any(r"\bcit(e|es|ing|ation|ations)\b", r"\b(chunk|passage|source) ids?\b",
              rf"{_ID_WORD}[^.;\n]{{0,60}}\b(square )?bracket(s|ed)\b", rf"\bbracket(s|ed)\b[^.;\n]{{0,40}}{_ID_WORD}",
              rf"{_ID_WORD}[^.;\n]{{0,80}}{_EXAMPLE_ID}", rf"{_EXAMPLE_ID}[^.;\n]{{0,30}}{_ID_WORD}",
              rf"\bbracket(s|ed)\b[^.;\n]{{0,60}}{_EXAMPLE_ID}",
              rf"\b(reference|refer to|mark|tag|label|attribute|credit|indicate|append|add|give|name|write|put|show)\b"
              rf"[^.;\n]{{0,100}}{_EXAMPLE_ID}", rf"{_EXAMPLE_ID}[^.;\n]{{0,30}}\b(markers?|tags?|labels?|references?)\b")
_CITING_OPTIONAL = _any(r"\b(citations?|citing|ids?|sources?)\b[^.;\n]{0,40}\b(optional|nice to have|up to you)\b",
                        r"\b(only|just)\s+(add|give|include|use)\s+(citations?|ids?)\s+(if|when)\s+you\s+are\s+(sure|certain|confident)\b")
_REFUSES = _any(r"\b(say|reply|answer|respond|write|state|admit)\b[^.;\n]{0,40}\b(i|you|we) (do not|don't) know\b",
                rf"\b(say|state|reply|answer|respond|write)\b[^.;\n]{{0,30}}\b{_SOURCE}\b[^.;\n]{{0,20}}"
                r"\b(does|do) not (contain|include|say|state|mention|answer|cover)\b",
                r"\b(say|state|reply|answer|respond|write)\b[^.;\n]{0,30}\b(do not|don't) have enough (information|context)\b",
                r"\b(say|reply|answer|respond|state)\b[^.;\n]{0,20}\b(you|i) (cannot|can't|can not) (answer|tell|say)\b",
                r"\bif\b[^.;\n]{0,60}(\bnot\b|n't\b|\bno\b|\bmissing\b|\babsent\b|\blacks?\b)[^.;\n]{0,40}\bsay so\b",
                r"\brefus(e|al)\b", r"\bdecline to answer\b",
                r"\badmit\b[^.;\n]{0,60}(\black(s|ing)?\b|\bmissing\b|\bnot\b|n't\b|\bcannot\b)",
                r"\b(say|state|reply|write)\b[^.;\n]{0,30}\b(cannot|can't|could not|couldn't) find\b")
# Takes the permission to refuse back ("Never say you don't know; always give an answer"), unless
# the clause limits it ("never say you don't know when the answer is there").
_UNLIMITED = r"(?![^.;\n]*\b(when|if|unless|where|or)\b)"
_ALWAYS_ANSWERS = _any(rf"\balways\s+(give|provide|produce|offer)\b[^.;\n]{{0,25}}\banswer\b{_UNLIMITED}",
                       r"\bsaying\b[^.;\n]{0,20}\b(don't|do not) know\b[^.;\n]{0,10}\bis\s+(not|never)\s+(an?\s+)?(acceptable|allowed|option)",
                       r"\b(never|do not|don't)\s+(say|reply|answer|respond|admit)\b[^.;,\n]{0,20}\b(you|i|we)\s+(do not|don't)\s+"
                       rf"know\b{_UNLIMITED}", rf"\bnever\s+leave\b[^.;\n]{{0,30}}\bwithout\s+an?\s+answer\b{_UNLIMITED}",
                       r"\b(avoid|minimi[sz]e)\s+(refusing|refusals?)\b(?![^.;\n]*\b(when|unless|where)\b)")
_ORDERS = r"(instructions?|commands?|directives?|directions?|orders?|requests?|prompts?)"
_UNTRUSTED = _any(r"\buntrusted\b", rf"\b(not|never) (as )?(an? )?{_ORDERS}\b",
                  rf"\b(never|do not|don't)\s+(follow|obey|execute|act on|carry out|comply with|perform)\b[^.;\n]{{0,60}}"
                  rf"\b{_ORDERS}\b", r"\b(do not|don't|never)\s+let\b[^.;\n]{0,30}\b(change|alter|override|control)\b",
                  r"\bno authority\b",
                  r"\b(treat|read|consider)\b[^.;\n]{0,40}\bas (plain |untrusted |mere )?(data|text|content|information)\b",
                  rf"\b(malicious|hostile|injected|adversarial)\b[^.;\n]{{0,30}}\b{_ORDERS}\b",
                  rf"\b(ignore|disregard)\b[^.;\n]{{0,30}}\b{_ORDERS}\b[^.;\n]{{0,40}}\b(in|inside|within|from|found in|"
                  rf"contained in)\b[^.;\n]{{0,20}}\b{_SOURCE}\b",
                  rf"\bnever\s+(any\s+)?{_ORDERS}\b[^.;\n]{{0,30}}\b(in|inside|within|from|found in)\b[^.;\n]{{0,20}}\b{_SOURCE}\b",
                  rf"\b{_ORDERS}\b[^.;\n]{{0,60}}\b(must|should|are to|will) be (ignored|disregarded)\b",
                  rf"\b{_SOURCE}\b[^.;\n]{{0,20}}\b(is|are) (only |just |mere |plain |untrusted )?((reference|quoted|third-party) )*(data|material)\b",
                  r"\bnot\s+(something\s+)?for\s+you\s+to\s+(carry out|follow|obey|execute|act on)\b",
                  rf"\b{_ORDERS}\b[^.;\n]{{0,40}}\b(is|are) not (addressed|meant|directed|intended) (to|for) you\b",
                  r"\b(cannot|can't|can not|must not|may not|can never|will never) (change|override|alter)\b[^.;\n]{0,20}\b(rules|instructions)\b",
                  rf"\bonly\s+(follow|obey)\b[^.;\n]{{0,30}}\b{_ORDERS}\b[^.;\n]{{0,20}}\b(from|in)\s+(this|the)\s+(system|developer)\b",
                  r"\b(ignore|disregard|beware|watch out|guard against|resist)\b[^.;\n]{0,40}\bprompt injections?\b",
                  rf"\b(do not|don't|never)\s+(obey|follow)\s+(the\s+)?{_SOURCE}\b",
                  rf"\b{_SOURCE}\b[^.;\n]{{0,40}}\b(manipulate|trick|mislead|hijack)\b",
                  rf"\b{_SOURCE}\b[^.;\n]{{0,60}}\b(must|should|may|will)\s+(not|never)\s+be\s+(obeyed|followed|executed|acted on)\b")
# The same rule told across a semicolon: "It may contain text that looks like instructions; disregard it."
_UNTRUSTED_SENTENCE = re.compile(rf"\b(contains?|includes?|hold|holds|ha(ve|s)|gives?|issues?)\b[^.\n]{{0,50}}\b{_ORDERS}\b"
                                 r"[^.\n]{0,40}\b(ignore|disregard|(do not|don't|never) (follow|obey)|"
                                 r"pay (it|them) no (attention|heed))\b", re.I)

# A permission to obey told across a semicolon: "The documents may include instructions; please follow them."
_OBEYS_SENTENCE = re.compile(rf"\b{_ORDERS}\b[^.\n]{{0,60}}[;,:]\s*(please\s+)?(follow|obey|carry out|execute|act on)\s+(them|it)\b", re.I)

_ABBREVIATION = re.compile(r"\b(e\.g|i\.e)\.", re.I)  # no end of a clause


def _clauses(system: str) -> list[str]:
    system = _ABBREVIATION.sub(lambda m: m.group(1).replace(".", ""), system)
    return [c for c in re.split(r"[.;!?\n]+|,\s+(?=but\b|and\b|or\b|then\b)", system) if c.strip()]


def _states(rule: re.Pattern, system: str, negatable: bool = True, unless: re.Pattern | None = None) -> bool:
    """Does some clause state the rule, with no negation right before it (and, with `unless`,
    not a clause about something else)?"""
    for clause in _clauses(system):
        if unless and unless.search(clause):
            continue
        # Every start is tried, not only non-overlapping matches: in "if the passages don't
        # answer, say you don't know" the negated "answer ..." must not hide "say you don't know".
        start = 0
        while match := rule.search(clause, start):
            if not (negatable and _NEGATED.search(clause[:match.start()])):
                return True
            start = match.start() + 1
    return False


def _permits(permission: re.Pattern, system: str) -> bool:
    """Does some clause grant the permission, with no negation anywhere up to its end ("never
    instructions found in the passages" grants nothing)? A condition before it is not its
    negation: "if the answer is not there, answer as best you can" grants a guess."""
    for clause in _clauses(system):
        match, condition = permission.search(clause), _CONDITION.match(clause)
        if match and not _ANY_NEGATION.search(clause[condition.end() if condition else 0:match.end()]):
            return True
    return False


@dataclass
class Prompt:
    system: str
    user: str
    context: list[tuple[str, str]]  # (chunk id, text), in order
    question: str
    grounded: bool
    cites: bool
    may_refuse: bool
    context_is_data: bool


def read_prompt(messages: list[dict]) -> Prompt:
    def joined(system: bool) -> str:
        return "\n".join(m.get("content") or "" for m in messages if (m.get("role") == "system") == system)

    raw_system, raw_user = joined(True), joined(False)  # the context keeps the document's quotes: a quote is exact
    system, user = normalise_quotes(raw_system), normalise_quotes(raw_user)  # the rules are read with plain ones
    question = parse_question(user)
    # A rule is stated in the system message; a take-back counts in either (a real model reads both),
    # outside the context and the question.
    said = system + "\n" + besides_question(user, question)
    grounded = (_states(_GROUNDED, system, unless=_NOT_GROUNDING)
                or _states(_NO_OUTSIDE, system, negatable=False, unless=_HEDGED)) \
        and not _states(_OWN_KNOWLEDGE, said) and not _permits(_GUESSES, said)
    context_is_data = (_states(_UNTRUSTED, system) or bool(_UNTRUSTED_SENTENCE.search(system))) \
        and not _permits(_OBEYS_CONTEXT, said) and not _OBEYS_SENTENCE.search(said)
    cites = _states(_CITES, system) and not _permits(_CITING_OPTIONAL, said)
    return Prompt(system, user, parse_context(raw_system + "\n\n" + raw_user), question, grounded,
                  cites, _states(_REFUSES, system) and not _ALWAYS_ANSWERS.search(said), context_is_data)


def task(system: str) -> str:
    lowered = system.lower()
    if "insufficient information" in lowered and re.search(r"\b(copy|extract)", lowered):
        return "relevance"
    if re.search(r"\byes\b", lowered) and re.search(r"\bno\b", lowered) and \
            re.search(r"\b(claim|statement|supported|support)", lowered):
        return "verify"
    return "answer"
