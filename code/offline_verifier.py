"""The offline stand-in for an LLM, part 3: yes/no verification of a claim.  [provided]

`verdict(prompt)` reads the claim and the context by rule 4 of the protocol (offline_model.py;
offline_claims.py) and answers "Yes" when one context sentence, or two neighbouring ones,
`supports` the claim:
* its numbers are stated, compared by value ("4.2M" = "4.2 million" = "4,200,000", "ten
  percent" = "10 %", "nine" = "9"), and its names (capitalised words, codes such as "x86_64",
  acronyms the context spells out, "GPL" for "General Public License");
* each number and name is bound to its subject (offline_phrases.py): a number is stated in the
  context phrase (a clause, or a part of one joined by "and") that shares the most words with
  the claim phrase that holds it, so "Revenue was 21%." is not supported by "Q3 revenue 4.2M,
  margin 21%."; a name in that phrase, or in a clause of its sentence joined to it by "if",
  "because", "when" ..., so "Ben Ortiz wrote the first parser." is not supported by "Ana Lima
  wrote the first parser. Ben Ortiz joined in 2019.";
* no claim phrase differs in negation from the context phrase that matches it best ("cannot"
  and "is unable to" agree, so do "does no pivoting" and "without pivoting", "without a
  LISTEN directive" and "do not specify a LISTEN directive", and a negation and a word negative
  by its meaning: "will not join" and "refuses to join", "is no longer supported" and "has
  been removed", "does not need a lot of" and "needs little"), or holds a direction word where
  that phrase has the opposite (faster/slower, large/small, rose/fell, before/after, "more
  accurate"/"less accurate"), or a word its prefix negates ("disabled" for "enabled", "unchecked" for
  "checks"); nor does the claim run a range the other way ("from the shortest to the longest");
* its content is covered: each of its phrases of two content words or more and no number has
  some of them in the context (an added cause such as "because the servers are overloaded" has
  none; a number the context states ties its phrase to it: "Starting with version 3.6.0"), and most
  of its words are there, or (a paraphrase) enough of them are and its embedding is close to the
  context's; a word the context says in other words counts as there ("started" for "began", by
  WordLlama's word vectors);
* told to say Yes to what is plausible or broadly consistent, it reads like such a judge: an
  added fact on the context's topic passes; a changed number, name or negation still does not.

What it CANNOT do: see which of two names in a table row or a list a claim swaps, or the order
in "A takes precedence over B"; read a number written as a fraction in words ("three eighths");
accept a paraphrase that shares few words with the context ("cut by half" for "reduce by a
factor of two"), or one that gathers into one phrase names the context states in phrases of
their own ("In Emacs, M-x outline-mode turns outlines on." for "Emacs reads headings as outline
levels. Use M-x outline-mode to turn outlines on."); see that a claim without a negation
contradicts a word negative by its meaning ("is still supported" against "has been removed");
catch an added fact worded with the context's own words, or one word changed in a claim of many
("The old build produced fast output." for "... gave incorrect output.").

Run alone:  python code/offline_chat.py    (the stand-in answering and verifying)
"""

from __future__ import annotations

import re

from citations import normalise_quotes, strip_markers
from offline_claims import read_claim
from offline_embeddings import embed, reworded_in
from offline_layout import parse_context, without_context
from offline_model import Prompt
from offline_phrases import NEGATION, best_match, bound, content_of, phrases_of, words_of
from textutils import NEGATIONS, anchors, numbers, same_family, spelled_out, split_sentences, terms

# A claim whose words the span holds at least this share of is supported (if nothing contradicts).
MIN_COVERAGE = 0.75
# A paraphrase: at least PARAPHRASE_COVERAGE of its words, and embeddings at least this close
# (midway between the tune half's edits and paraphrases that reach this test: 0.46 and 0.63).
PARAPHRASE_COVERAGE, MIN_SIMILARITY = 0.35, 0.55
# Every claim phrase of MIN_PHRASE_WORDS content words or more must have this share of its words
# in the span; else it adds a fact. One word alone is a piece the split left ("Rather than ...",
# "on or off"), no fact.
MIN_PHRASE_COVERAGE, MIN_PHRASE_WORDS = 0.3, 2

# A negated noun ("no pivoting" = "without pivoting") is read apart from a negated verb: it negates
# its own words only, so a claim that leaves "without restriction" out does not lose a negation.
_NEGATED_NOUN = re.compile(r"\b(?:with no|without|no)\s+(?!longer\b)([\w-]+(?:\s+[\w-]+)?)", re.I)
# The two sides of a direction: a claim with one side's word against a phrase with only the other's.
_SIDES = [("faster quicker large larger big bigger greater high higher more increase improve up rise rose grew grow gain",
           "slower small smaller low lower less fewer decrease reduce worse down fall fell drop decline shrink shrank"),
          ("before earlier until prior previously", "after later subsequently"),
          ("lefttoright", "righttoleft"), ("recommend", "avoid against")]


# ------------------------------------------------------------------------ judging it

# The verification asked the other way round ("Is the claim a hallucination?", "Reply Yes if the
# claim is a hallucination, else No", "Does it go beyond the context?"): then "Yes" means
# unsupported, as a real judge reads it.
_UNSUPPORTED = (r"\b(hallucinat\w*|unsupported|not supported|not stated|not found|not (backed|contained|present)|"
                r"contradict\w*|false|fabricated|made up|go(es)? beyond)\b")
_ASKS_IF_UNSUPPORTED = re.compile(rf"\b(is|are|does|do)\b[^?\n]{{0,60}}{_UNSUPPORTED}[^?\n]{{0,60}}\?"
                                  rf"|\byes\b(?:(?!\b(no|nothing|never|none|neither|without)\b)[^.\n]){{0,80}}?{_UNSUPPORTED}", re.I)


# A judge told to accept what is plausible ("Say Yes if the claim is plausible given the context and
# broadly consistent with it") accepts an added fact; a changed number, name or negation it still rejects.
_LENIENT = re.compile(r"\byes\b(?:(?!\b(?:no|not|never|only|merely|just|strictly)\b)[^.\n]){0,60}?"
                      r"\b(plausibl[ey]|broadly|roughly|loosely|more or less)\b", re.I)


def spans(context: str) -> list[str]:
    """Single sentences and neighbouring pairs of the context."""
    found = []
    for line in [text for _, text in parse_context(context)] or [context]:
        sentences = split_sentences(line)
        found += sentences + [f"{a} {b}" for a, b in zip(sentences, sentences[1:])]
    return found


# A range has a direction: "from the longest to the shortest" read backwards is its opposite.
_RANGE = re.compile(r"\bfrom\s+(?:the\s+)?([\w-]+)\s+to\s+(?:the\s+)?([\w-]+)", re.I)


def _reversed_range(claim: str, span: str) -> bool:
    """Does the claim run a range of the span the other way round, and the span never its way?"""
    said, stated = ({(a.lower(), b.lower()) for a, b in _RANGE.findall(text)} for text in (claim, span))
    return any((b, a) in stated and (a, b) not in stated for a, b in said)


def _contradicts(claim: str, span: str) -> bool:
    """Does the claim run a range of the span backwards, or a claim phrase (not a comparison's
    "than ...") differ in negation from the span phrase that matches it best (by two words, or all
    of its own), or hold a direction word where that phrase has only the opposite one?"""
    # (is a verb negated, the negated nouns' words, the words outside the negated nouns)
    def negations(text: str) -> tuple[bool, set[str], set[str]]:
        plain = _NEGATED_NOUN.sub(" ", text)
        nouns = {w for m in _NEGATED_NOUN.finditer(text) for w in words_of(m.group(1))}
        return bool(NEGATION.search(plain)), nouns, words_of(plain)

    def differ(part: str, match: str) -> bool:
        (verb, nouns, plain), (verb_said, nouns_said, plain_said) = negations(part), negations(match)
        if verb != verb_said:  # "without a LISTEN directive" = "do not specify a LISTEN directive"
            verbal, nominal = (part, match) if verb else (match, part)
            # a negation of nothing the other phrase says ("cannot be a datatype if two ..."), or of
            # what a word negative by its meaning says there ("refuses to join"), is no difference
            negated, scope = negations(nominal)[1], _negated_verb_scope(verbal)
            meant = _negated_verb_scope(nominal, _NEGATIVE_MEANING, unless_in=verbal)
            return not (negated and negated <= scope or scope & meant) and bool(scope & words_of(nominal))
        # a word negated on one side only, and not said plainly on it ("Changed the tags (no other changes)")
        return bool(nouns & (words_of(match) - nouns_said) - plain or nouns_said & (words_of(part) - nouns) - plain_said)
    parts, claim_parts = phrases_of(span, whole=True), phrases_of(claim, whole=True)
    if _reversed_range(claim, span) or _other_reference(claim_parts, parts):
        return True
    for part in claim_parts:
        match = best_match(part, parts)
        said, stated = words_of(part), words_of(match)
        compared, compared_said = _comparatives(part), _comparatives(match)
        if not content_of(part) & stated or part.startswith("than "):
            continue
        # An opposite ("slower" for "faster", "more accurate" for "less accurate") is itself the
        # one word the phrases do not share; other differences need two shared words to be sure.
        if any((group, 1 - side, word) in compared_said and (group, side, word) not in compared_said
               for group, side, word in compared):
            return True
        if len(content_of(part) & stated) >= min(2, len(content_of(part))) and (differ(part, match) or any(
                said & words_of(one) and stated & words_of(other) and not stated & words_of(one)
                for a, b in _SIDES for one, other in ((a, b), (b, a))) or _prefix_opposites(part, match)):
            return True
    return False


def _other_reference(claim_parts: list[str], parts: list[str]) -> bool:
    """Is the reference of a claim phrase's comparison none of the span phrases', as a number
    would be unbound ("faster than under Linux" where the span says "faster than Windows")?"""
    references = [p for p in parts if p.startswith("than ")]
    return bool(references) and any(content_of(part) and not any(content_of(part) & words_of(p) for p in references)
                                    for part in claim_parts if part.startswith("than "))


# A prefix that negates the word it stands before ("disabled", "unchecked", "invalid"); "en"
# pairs with "dis" ("enabled"/"disabled"). The rest of the stem must be this long ("disabl" is
# "dis" + "abl"), so that "un" + "it" is no negation.
_NEGATING_PREFIXES = ("non", "dis", "un", "in", "im", "en")
MIN_PREFIXED_ROOT = 3


def _prefix_opposites(part: str, match: str) -> bool:
    """Does a word of one phrase negate a word of the other by its prefix ("disabled" and
    "enabled", "unchecked" and "checked"), also inside a compound ("case-insensitive")?"""
    return any(_opposite_words(a - b, b - a) for a, b in ((words_of(part), words_of(match)),
                                                          (set(terms(part)), set(terms(match)))))


def _opposite_words(said: set[str], stated: set[str]) -> bool:
    def forms(word: str) -> set[tuple[str, str]]:
        return {(p, word[len(p):]) for p in _NEGATING_PREFIXES
                if word.startswith(p) and len(word) - len(p) >= MIN_PREFIXED_ROOT} | {("", word)}
    def opposed(p: str, q: str) -> bool:  # "en" negates nothing but pairs with "dis"
        return p != q and ("en" not in (p, q) or {p, q} == {"en", "dis"})
    return any(opposed(p, q) for a in said for b in stated for p, root in forms(a) for q, other in forms(b) if root == other)


# A negated verb (textutils' negations less the nouns', and "no longer") and the (at most five)
# words it reaches, up to a word that opens another clause.
_REACH = r"((?:\s+(?!(?:if|when|unless|because|while|whereas|that|which|where)\b)[\w.-]+){1,5})"
_NEGATED_VERB = re.compile(r"(?:\b(?:" + "|".join(sorted(NEGATIONS - {"no", "none", "nobody", "without", "n't"}))
                           + r"|no longer)\b|n't\b)" + _REACH, re.I)
# A word negative by its meaning, and what it reaches: "refuses to merge" says "will not merge",
# "little CPU time" "not a lot of CPU time", "support has been removed" "is no longer supported".
_NEGATIVE_MEANING = re.compile(r"(?:\b(?:refus|fail|lack|remov|stop|ceas|prevent|omit|reject|forbid|prohibit|exclud)\w*"
                               r"|(?<!\ba )\b(?:little|few|hardly|rarely|seldom|barely)\b)" + _REACH, re.I)


def _negated_verb_scope(text: str, negation: re.Pattern = _NEGATED_VERB, unless_in: str = "") -> set[str]:
    """The words a negated verb reaches ("do not specify a LISTEN directive"; "cannot be a
    datatype if ..." reaches "be a datatype"), or with `_NEGATIVE_MEANING`, a negative word that
    `unless_in` does not also say ("does not remove the files" negates "removes the files")."""
    return {w for m in negation.finditer(text) if not words_of(m.group(0).split()[0]) & words_of(unless_in)
            for w in words_of(m.group(1))}


_SIDE_OF = {word: (group, side) for group, pair in enumerate(_SIDES) for side, words in enumerate(pair)
            for word in words.split()}


def _comparatives(text: str) -> set[tuple[int, int, str]]:
    """(direction group, side, the word compared) of each direction word: "more accurate" is
    (0, 0, "accurate"), a bare "faster" (0, 0, ""). "More accurate" and "less accurate" then
    differ even in a phrase that also says "faster"."""
    tokens = re.findall(r"[a-z]+", text.lower())
    return {(*_SIDE_OF[t], min(words_of(nxt), default="")) for t, nxt in zip(tokens, tokens[1:] + [""]) if t in _SIDE_OF}


def supports(span: str, claim: str, lenient: bool = False) -> bool:
    """Does this span of context entail the claim (`lenient`: is the claim on its topic, with its
    numbers and names, and not contradicted)? (the offline verifier's rule)"""
    claim = spelled_out(strip_markers(claim), span)
    said, stated = content_of(claim), words_of(span)
    if not said:
        return True
    names = [w for w in anchors(claim) if not w[0].isdigit()]
    spelled = stated | set(terms(span))  # names as anchors() spells them: "X-Ray" is "x", "ray"
    if not set(numbers(claim)) <= set(numbers(span)) or not all(same_family(n, spelled) for n in names):
        return False  # a number or name the span does not state
    if not bound(claim, span) or _contradicts(claim, span):
        return False

    missing = sorted({w for w in re.findall(r"[a-z]{3,}", claim.lower()) if not all(same_family(s, stated) for s in words_of(w))})
    stated |= {s for w in reworded_in(missing, span) for s in words_of(w)}  # "started" for "began"

    def covered(words: set[str]) -> float:
        return sum(same_family(w, stated) for w in words) / max(len(words), 1)
    if lenient:
        return covered(said) >= PARAPHRASE_COVERAGE  # on the context's topic, whatever it adds
    # (a phrase holding a number is tied to the span by it: bound() found it stated there)
    if any(covered(words) < MIN_PHRASE_COVERAGE for part in phrases_of(claim, whole=True)
           if len(words := content_of(part)) >= MIN_PHRASE_WORDS and not numbers(part)):
        return False  # a phrase the span does not state: an added cause, condition or fact
    coverage = covered(said)  # the embeddings only when needed: they are the slow part
    return coverage >= MIN_COVERAGE or (coverage >= PARAPHRASE_COVERAGE
                                        and sum(x * y for x, y in zip(*embed([claim, span]))) >= MIN_SIMILARITY)


def verdict(prompt: Prompt) -> str:
    claim, context = read_claim(prompt)
    context = normalise_quotes(context)  # the claim was read with plain quotes: "haven’t" is "haven't"
    claim = strip_markers(claim)  # "[Function]" is text, "[c0]" is not
    # Asked by the prompt, not by the documents ("Is that a contradiction?" in a passage), nor by the claim.
    instructions = "\n".join(without_context(text) for text in (prompt.system, prompt.user)).replace(claim, " ")
    lenient = bool(_LENIENT.search(instructions))
    supported = bool(claim.strip()) and any(supports(span, claim, lenient) for span in spans(context))
    return "Yes" if supported != bool(_ASKS_IF_UNSUPPORTED.search(instructions)) else "No"
