#!/usr/bin/env node
// A scripted agent for tools worlds that reads requests literally, with no model: it picks the tool whose
// description (or intent) the request's sentence starts with, takes the values the sentence states, and carries a
// handed-over value from one answer into the next call. It shows the agent contract for tools worlds
// (docs/tools.md) and gives the tests known verdicts. Flags: --twice (repeat the last write: collateral_mutation),
// --silent (no reply: wrong_state), --wrong-tool (call a tool outside the block: malformed_call).
import { readFileSync } from "node:fs";

const task = JSON.parse(process.env.WORLDS_TASK_JSON ?? readFileSync(0, "utf8"));
const base = process.env.WORLDS_TOOLS_URL;
const key = process.env.WORLDS_TOOLS_KEY;
const flags = new Set(process.argv.slice(2));

async function call(name, args) {
  const res = await fetch(`${base}/call`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ name, arguments: args }) });
  return { status: res.status, body: await res.json() };
}

const tools = task.tools.map((t) => t.function);
const firstSentence = (d) => (d.split(/(?<=[.!?])\s/)[0] ?? "").trim().replace(/[.\s]+$/, "");

/** `order_id "K3X9QZ", amount 12.5` -> {order_id: "K3X9QZ", amount: 12.5} */
function values(text) {
  const out = {};
  const re = /([A-Za-z_][A-Za-z0-9_]*) ("(?:\\.|[^"\\])*"|-?\d+(?:\.\d+)?|true|false|null|\[[^\]]*\]|\{[^}]*\})/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out[m[1]] = JSON.parse(m[2]);
  return out;
}

function toolFor(sentence) {
  const s = sentence.toLowerCase();
  return tools.find((t) => s.startsWith(firstSentence(t.description).toLowerCase()) && firstSentence(t.description)) ?? null;
}

const sentences = task.request.split(/(?<=\.)\s+(?=Then )/);
let last = null;
let lastWrite = null;
for (const raw of sentences) {
  const sentence = raw.replace(/^Then /, "").replace(/^./, (c) => c.toUpperCase());
  const tool = toolFor(sentence);
  if (!tool) continue;
  const [head, tail = ""] = sentence.split(/: |, with /).length > 1 ? [sentence.slice(0, sentence.search(/: |, with /)), sentence.slice(sentence.search(/: |, with /))] : [sentence, ""];
  const args = values(tail);
  const handover = /using the ([A-Za-z0-9_.]+) (?:it reports|it gives you) as ([A-Za-z0-9_]+)/.exec(head + tail);
  if (handover && last) {
    const path = handover[1].split(".");
    let v = last;
    for (const p of path) v = Array.isArray(v) ? v[0]?.[p] : v?.[p];
    args[handover[2]] = v;
  }
  const r = await call(tool.name, args);
  last = r.body;
  lastWrite = { name: tool.name, args };
}
if (flags.has("--twice") && lastWrite) await call(lastWrite.name, lastWrite.args);
if (flags.has("--wrong-tool")) await call("no_such_tool_here", {});
if (!flags.has("--silent")) process.stdout.write("Done: I made the calls the request asked for.\n");
