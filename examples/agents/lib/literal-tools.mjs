// The literal tools agent's rules (examples/agents/tools-literal.mjs), usable by a process agent and by an HTTP
// agent alike: pick the tool whose description (or intent) a sentence of the request starts with, take the values
// the sentence states, and carry a handed-over value from one answer into the next call. No model.

export const firstSentence = (d) => (d.split(/(?<=[.!?])\s/)[0] ?? "").trim().replace(/[.\s]+$/, "");

/** `order_id "K3X9QZ", amount 12.5, entities [{"name": "a"}]` -> {order_id: "K3X9QZ", amount: 12.5, entities: [...]} */
export function values(text) {
  const out = {};
  const re = /([A-Za-z_][A-Za-z0-9_]*) (?=["\[{\-\d]|true|false|null)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = jsonEnd(text, re.lastIndex);
    if (end < 0) continue;
    try {
      out[m[1]] = JSON.parse(text.slice(re.lastIndex, end));
      re.lastIndex = end;
    } catch {
      // not a value after all: read on
    }
  }
  return out;
}

/** Where the JSON value starting at `i` ends: brackets counted outside strings, so lists of objects read whole. */
function jsonEnd(text, i) {
  const scalar = /^(?:"(?:\\.|[^"\\])*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
  if (text[i] !== "[" && text[i] !== "{") return scalar ? i + scalar[0].length : -1;
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '"') {
      for (j++; j < text.length && text[j] !== '"'; j++) if (text[j] === "\\") j++;
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") if (--depth === 0) return j + 1;
  }
  return -1;
}

/**
 * Works one task against a tools world's JSON surface and returns the reply (null with `silent`). Flags: twice
 * (repeat the last write: collateral_mutation), silent (no reply), wrongTool (call a tool outside the block).
 */
export async function solveLiterally(task, { base, key, twice = false, silent = false, wrongTool = false }) {
  const call = async (name, args) => {
    const res = await fetch(`${base}/call`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ name, arguments: args }) });
    return { status: res.status, body: await res.json() };
  };
  const tools = task.tools.map((t) => t.function);
  // A tool is named by its description's first sentence, or, when it has none, as the operation of its name.
  const opening = (t) => firstSentence(t.description ?? "") || `Carry out the ${t.name.replace(/[_-]+/g, " ")} operation`;
  const toolFor = (sentence) => {
    const s = sentence.toLowerCase();
    return tools.find((t) => s.startsWith(opening(t).toLowerCase())) ?? null;
  };
  let last = null;
  let lastWrite = null;
  for (const raw of task.request.split(/(?<=\.)\s+(?=Then )/)) {
    const sentence = raw.replace(/^Then /, "").replace(/^./, (c) => c.toUpperCase());
    const tool = toolFor(sentence);
    if (!tool) continue;
    const cut = sentence.search(/: |, with /);
    const [head, tail] = cut >= 0 ? [sentence.slice(0, cut), sentence.slice(cut)] : [sentence, ""];
    const args = values(tail);
    const handover = /using the ([A-Za-z0-9_.]+) (?:it reports|it gives you) as ([A-Za-z0-9_]+)/.exec(head + tail);
    if (handover && last) {
      let v = last;
      for (const p of handover[1].split(".")) v = Array.isArray(v) ? v[0]?.[p] : v?.[p];
      args[handover[2]] = v;
    }
    last = (await call(tool.name, args)).body;
    lastWrite = { name: tool.name, args };
  }
  if (twice && lastWrite) await call(lastWrite.name, lastWrite.args);
  if (wrongTool) await call("no_such_tool_here", {});
  return silent ? null : "Done: I made the calls the request asked for.";
}
