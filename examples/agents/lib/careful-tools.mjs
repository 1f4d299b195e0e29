// The careful tools agent's rules (examples/agents/tools-careful.mjs): the literal agent's reading of a request
// (lib/literal-tools.mjs), plus what a careful agent does that the literal one does not. It retries a call the world
// answers 503 (unavailable), takes the tool meant for the account the request names, repeats a step for "Do the
// same with ...", joins the values several answers report when asked to, starts a fresh chain at "Separately,
// also:", and never sends a value the request did not state. No model. It passes the first level of every dial.
import { firstSentence, values } from "./literal-tools.mjs";

const RETRIES = 8;

/** `a.b` inside an answer; a list answers with its first item's field. */
function at(answer, path) {
  let v = answer;
  for (const p of path.split(".")) v = Array.isArray(v) ? v[0]?.[p] : v?.[p];
  return v;
}

/** Works one task against a tools world's JSON surface and returns the reply. */
export async function solveCarefully(task, { base, key }) {
  const call = async (name, args) => {
    for (let i = 0; ; i++) {
      const res = await fetch(`${base}/call`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ name, arguments: args }) });
      const body = await res.json();
      if (res.status !== 503 || i >= RETRIES) return { status: res.status, body };
    }
  };
  const tools = task.tools.map((t) => t.function);
  const account = /\s*This is for account (\d+)\.\s*/.exec(task.request);
  const request = account ? task.request.replace(account[0], " ").trim() : task.request;
  const toolFor = (sentence) => {
    const s = sentence.toLowerCase();
    const fits = tools.filter((t) => firstSentence(t.description) && s.startsWith(firstSentence(t.description).replace(/ \(account \d+\)$/, "").toLowerCase()));
    return (account && fits.find((t) => t.description.includes(`(account ${account[1]})`))) || fits[0] || null;
  };
  let last = null; // the answer a "Then ..." step reads from
  let previous = null; // the step "Do the same" repeats
  let batch = []; // the answers of one step and its repeats, in the order asked
  const failed = [];
  for (const raw of request.split(/(?<=\.)\s+(?=Then |Do the same |Separately, also: )/)) {
    if (raw.startsWith("Separately, also: ")) (last = null), (batch = []);
    const again = /^Do the same with (.*)$/s.exec(raw);
    const sentence = raw.replace(/^(?:Then |Separately, also: )/, "").replace(/^./, (c) => c.toUpperCase());
    const tool = again ? previous : toolFor(sentence);
    if (!tool) continue;
    const cut = again ? 0 : sentence.search(/: |, with /);
    const [head, tail] = again ? ["", again[1]] : cut >= 0 ? [sentence.slice(0, cut), sentence.slice(cut)] : [sentence, ""];
    const args = values(tail);
    const text = head + tail;
    const joined = /using the ([A-Za-z0-9_.]+) values those \d+ answers report, joined in the order you asked for them, as ([A-Za-z0-9_]+)/.exec(text);
    const one = /using the ([A-Za-z0-9_.]+) (?:it reports|it gives you|that answer gives you) as ([A-Za-z0-9_]+)/.exec(text);
    if (joined) args[joined[2]] = batch.map((a) => String(at(a, joined[1]))).join("");
    else if (one && last) args[one[2]] = at(last, one[1]);
    const answer = await call(tool.name, args);
    if (answer.status !== 200) failed.push(`${tool.name} (${answer.status})`);
    if (!again) batch = [];
    batch.push(answer.body);
    last = answer.body;
    previous = tool;
  }
  return failed.length ? `I could not finish: ${failed.join(", ")} did not go through.` : "Done: I made the calls the request asked for.";
}
