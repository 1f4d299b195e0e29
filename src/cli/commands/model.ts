// `worlds model serve --script FILE`: a local OpenAI- and Anthropic-compatible model that answers from a script,
// so a judge (or any model feature) can be dry-run with no key and no network (docs/models.md).
import { z } from "zod";
import { flag, FlagError, type FlagDefs } from "../flags";
import { readScriptFile } from "../models/script-file";
import { startScriptedServer } from "../models/scripted-server";
import { RECEIVED_PATH } from "../../core/models/scripted/index";
import { trapSignals } from "../signals";
import { commandArgs, reportFlagError } from "./errors";
import type { Command } from "./types";

const DEFS: FlagDefs = {
  script: { kind: "value", placeholder: "FILE", help: "the rules it answers from (YAML or JSON; docs/models.md)" },
  port: { kind: "value", placeholder: "N", help: "port (default: a free one)" },
  host: { kind: "value", placeholder: "H", help: "address to listen on (default: 127.0.0.1)" },
  quiet: { kind: "switch", help: "do not print a line per request received" },
};

const SCHEMA = z.strictObject({
  script: flag.text().optional(),
  port: flag.int(0, 65535).optional(),
  host: flag.text().optional(),
  quiet: flag.switch(),
});

const USAGE = "worlds model serve --script FILE [--port N] [--host H] [--quiet]";
const SUMMARY =
  "Serves POST /v1/chat/completions and POST /v1/responses (OpenAI) and POST /v1/messages (Anthropic), streamed or\n" +
  `not, from a script until Ctrl-C, and lists what it received at GET ${RECEIVED_PATH}. Point OPENAI_BASE_URL / ANTHROPIC_BASE_URL at it to run --judge with no key.`;

export const model: Command = {
  summary: "run a scripted OpenAI/Anthropic-compatible model locally (dry runs and tests without a key)",
  async run(argv) {
    const [sub, ...rest] = argv;
    if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
      (sub ? process.stdout : process.stderr).write(`usage: ${USAGE}\n\n${SUMMARY}\n`);
      return sub ? 0 : 2;
    }
    if (sub !== "serve") return reportFlagError(new FlagError("model", `unknown sub-command '${sub}' (worlds model serve is the one there is).`));
    const args = commandArgs("model serve", rest, { defs: DEFS, schema: SCHEMA, usage: USAGE, summary: SUMMARY }, (a) => {
      if (a.command) throw new FlagError("model serve", "model serve takes no command after '--'.");
      if (!a.flags.script) throw new FlagError("model serve", "--script is required: the file of rules the model answers from (docs/models.md).");
    });
    if (typeof args === "number") return args;
    const f = args.flags;
    const loaded = readScriptFile(f.script!);
    if (!loaded.ok) {
      process.stderr.write(`worlds model serve: the script has ${loaded.problems.length} problem${loaded.problems.length === 1 ? "" : "s"}:\n${loaded.problems.map((p) => `  ${p}`).join("\n")}\n`);
      return 2;
    }
    const interrupt = trapSignals();
    let server;
    try {
      server = await startScriptedServer(loaded.script, {
        port: f.port,
        host: f.host,
        onReceived: f.quiet ? undefined : (r) => process.stderr.write(`#${r.n} ${r.method} ${r.path} ${r.model ?? "-"} -> ${r.status ?? "-"} ${r.rule ? `(${r.rule})` : "(no rule)"}\n`),
      });
    } catch (e) {
      interrupt.dispose();
      process.stderr.write(`worlds model serve: could not listen: ${(e as Error).message}\n`);
      return 3;
    }
    try {
      process.stdout.write(
        `scripted model listening on ${server.url} (${loaded.script.rules.length} rule${loaded.script.rules.length === 1 ? "" : "s"} from ${f.script})\n` +
          `OPENAI_BASE_URL=${server.env.OPENAI_BASE_URL}\nANTHROPIC_BASE_URL=${server.env.ANTHROPIC_BASE_URL}\n` +
          `received requests: curl ${server.url}${RECEIVED_PATH}\nCtrl-C stops it.\n`,
      );
      if (!interrupt.signal.aborted) await new Promise((r) => interrupt.signal.addEventListener("abort", r, { once: true }));
      return 0;
    } finally {
      await server.close();
      interrupt.dispose();
    }
  },
};
