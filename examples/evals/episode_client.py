#!/usr/bin/env python3
"""One task of a benchmark as an RL episode through a worlds server's episode API, in plain Python (stdlib only).

    WORLDS_URL=http://127.0.0.1:8787 WORLDS_TOKEN=... python3 episode_client.py benchmark.json [slug]

It creates the episode (POST /admin/episodes), runs a small policy that acts through the world's tools and talks
to the person until the person is done, then grades it (POST /admin/episodes/:id/grade) and prints the reward
record as JSON. Replace `policy` with your own: it is called as policy(messages, toolbox) and returns its next
message to the person, like `handle(messages, toolbox)` in docs/replay.md. An exception it raises ends the
episode at reward 0 with the error recorded. Options: --person P:M, --judge P:M (models the server runs),
--purpose train|eval.
"""
import argparse
import json
import os
import sys
import urllib.error
import urllib.request


class EpisodeError(Exception):
    """The server refused a request: its HTTP status, error code and message."""

    def __init__(self, status, code, message):
        super().__init__(f"HTTP {status} {code}: {message}")
        self.status, self.code = status, code


def request(method, url, token, body=None):
    data = None if body is None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(url, data=data, method=method, headers={"authorization": f"Bearer {token}", "content-type": "application/json", "accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as res:
            return res.status, json.loads(res.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        raw = e.read().decode("utf-8", "replace")
        try:
            return e.code, json.loads(raw)
        except ValueError:
            return e.code, {"error": {"code": "unexpected_answer", "message": raw[:200]}}


def expect(status, answer, wanted):
    if status != wanted:
        err = answer.get("error") if isinstance(answer, dict) else None
        err = err if isinstance(err, dict) else {}
        raise EpisodeError(status, err.get("code", "unexpected_answer"), err.get("message", json.dumps(answer)[:200]))
    return answer


class Toolbox:
    """The world's tools: call(name, arguments) answers the tool's result, or {"error": {code, message}}."""

    def __init__(self, tools_url, key):
        self.base, self.key = tools_url.rstrip("/"), key
        self._openai = expect(*request("GET", f"{self.base}/list?format=openai", key), 200)["tools"]

    def call(self, name, arguments=None):
        status, answer = request("POST", f"{self.base}/call", self.key, {"name": name, "arguments": arguments or {}})
        return answer

    def openai_tools(self):
        return json.loads(json.dumps(self._openai))

    def anthropic_tools(self):
        return [{"name": t["function"]["name"], "description": t["function"].get("description", ""), "input_schema": t["function"].get("parameters", {"type": "object", "properties": {}})} for t in self._openai]


def policy(messages, toolbox):
    """A stand-in policy for the example benchmark's first task: look the order up, ask for the email, refund."""
    last = messages[-1]["content"]
    if len(messages) == 1:
        toolbox.call("orders__get", {"order_id": "A-1001"})
        return "What is the email on the account?"
    if "@" in last:
        toolbox.call("refunds__create", {"charge_id": "ch_2"})
        return "I have refunded the duplicate charge."
    return "Could you tell me the email on the account?"


def run_task(server, token, task, agent, person, judge, purpose="train"):
    """Create, act, grade: the reward record (reward, passed, criteria, transcript, tool_calls, error, warnings)."""
    episode = expect(*request("POST", f"{server}/admin/episodes", token, {"task": task, "person": person, "judge": judge, "purpose": purpose}), 201)
    for warning in episode["warnings"]:
        print(f"warning: {warning}", file=sys.stderr)
    world = episode["world"]
    messages = [dict(m) for m in episode["messages"]]
    output, error = None, None
    try:
        toolbox = Toolbox(world["tools_url"], world["key"])
        while True:
            try:
                text = agent([dict(m) for m in messages], toolbox)
            except Exception as e:  # the policy's own failure: the episode ends at reward 0 with it recorded
                error = f"the agent raised: {type(e).__name__}: {e}"
                break
            messages.append({"role": "assistant", "content": text})
            if not world["person_url"] or not text.strip():
                output = text  # no person to hear it: it is the output beside the conversation
                break
            status, answer = request("POST", f"{world['person_url'].rstrip('/')}/respond", world["key"], {"said": text})
            if status == 409 and answer.get("error", {}).get("code") == "conversation_over":
                output = text
                break
            answer = expect(status, answer, 200)
            if answer["done"]:
                break
            messages.append({"role": "user", "content": answer["reply"]})
    except EpisodeError as e:
        error = f"the episode could not run: {e}"
    body = {"error": error} if error else {"output": output}
    return expect(*request("POST", f"{server}/admin/episodes/{episode['id']}/grade", token, body), 200)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("benchmark")
    ap.add_argument("slug", nargs="?")
    ap.add_argument("--person", default="openai:gpt-4.1-mini")
    ap.add_argument("--judge", default="openai:gpt-4.1-mini")
    ap.add_argument("--purpose", choices=["train", "eval"], default="train")
    args = ap.parse_args()
    server, token = os.environ.get("WORLDS_URL", "http://127.0.0.1:8787").rstrip("/"), os.environ.get("WORLDS_TOKEN")
    if not token:
        sys.exit("episode_client.py: set WORLDS_TOKEN to the server's admin token (worlds serve prints it)")
    with open(args.benchmark, encoding="utf-8") as f:
        doc = json.load(f)
    tasks = doc["tasks"] if isinstance(doc, dict) and "tasks" in doc else doc if isinstance(doc, list) else [doc]
    task = next((t for t in tasks if args.slug in (None, t.get("slug"))), None)
    if task is None:
        sys.exit(f"episode_client.py: {args.benchmark} has no task {args.slug!r}")
    try:
        result = run_task(server, token, task, policy, args.person, args.judge, args.purpose)
    except EpisodeError as e:
        sys.exit(f"episode_client.py: the server refused the episode: {e}")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
