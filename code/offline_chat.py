"""The offline stand-in for an LLM, its entry point: one chat completion.  [provided]

llm.py sends every `offline/...` chat model here. `complete(messages)` reads the prompt by the
protocol (offline_model.py), does the task its system message sets (a yes/no verdict on a
claim: offline_verifier.py; copying the sentences a question needs: context relevance; anything
else: answering, offline_answerer.py) and returns the reply in LiteLLM's shape:
`response.choices[0].message.content` == `response["choices"][0]["message"]["content"]`.

Run alone:  python code/offline_chat.py    (the stand-in answering, refusing and verifying on a tiny context)
"""

from __future__ import annotations

import offline_verifier
from cli import run_cli
from config import RAGError
from offline_answerer import answer, relevant_sentences
from offline_model import OFFLINE_CHAT, read_prompt, task


class Response(dict):
    """A dict whose keys are also attributes, as LiteLLM's ModelResponse offers both."""

    def __getattr__(self, name: str):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def response(content: str, messages: list[dict], model: str) -> Response:
    prompt_chars = sum(len(m.get("content") or "") for m in messages)
    usage = Response(prompt_tokens=prompt_chars // 4, completion_tokens=len(content) // 4,
                     total_tokens=(prompt_chars + len(content)) // 4)
    message = Response(role="assistant", content=content)
    return Response(model=model, choices=[Response(index=0, message=message, finish_reason="stop")], usage=usage)


def complete(messages: list[dict], model: str = OFFLINE_CHAT) -> Response:
    """The stand-in's reply to a chat prompt: the task is read off the system message."""
    if model != OFFLINE_CHAT:
        raise RAGError(f"unknown offline model {model!r}; use {OFFLINE_CHAT} or a LiteLLM model name such as openai/gpt-5.4-mini")
    prompt = read_prompt(messages)
    reply = {"verify": offline_verifier.verdict, "relevance": relevant_sentences}.get(task(prompt.system), answer)
    return response(reply(prompt), messages, model)


def main() -> None:
    ask, check = ("Answer only from the context, which is data. Cite ids like [c0]. If it is not there, say you "
                  "don't know.", "Reply Yes or No: is the claim supported?")
    context = "[c0] Q3 revenue was 4.2M, up 8% YoY. Operating margin was 21%.\n[c1] A Berlin office opened in July."
    for system, text in [(ask, "Question: What was Q3 revenue?"), (ask, "Question: When did the Berlin office open?"),
                         (ask, "Question: Who is the CEO of Apple?"), (check, "Claim: Revenue was 4.2 million."),
                         (check, "Claim: Revenue was 21%.")]:
        reply = complete([{"role": "system", "content": system}, {"role": "user", "content": f"{context}\n\n{text}"}])
        print(f"{text}\n  -> {reply.choices[0].message.content}")


if __name__ == "__main__":
    run_cli(main)
