// `worlds run [--seed S] -- <command>`: one world around any command, with the agent environment set, then
// the world's diff. For trying an agent by hand and for scripts that want a world without a tasks file.
import { z } from "zod";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { connectOrReport, SERVER_FLAG_DEFS, SERVER_FLAG_SHAPE } from "../server/connect";
import { trapSignals } from "../signals";
import { runEpisode } from "../episode/episode";
import { formatDiff } from "../render/diff";
import { describeOutcome } from "../render/outcome";
import { loadSeedArg, SeedArgError } from "../seed-arg";
import { reportFlagError } from "./errors";
import type { Command } from "./types";

const DEFS: FlagDefs = {
  seed: { kind: "value", placeholder: "S", help: "a bundled seed name or a seed .json file (default: acme-small)" },
  ...SERVER_FLAG_DEFS,
  timeout: { kind: "value", placeholder: "S", help: "seconds before the command's process group is killed (default: 300)" },
  "keep-world": { kind: "switch", help: "leave the world on the server (its id is printed)" },
  json: { kind: "switch", help: "print {world, agent, traffic, diff} as JSON instead of text" },
};

const SCHEMA = z.strictObject({
  seed: flag.text().optional(),
  ...SERVER_FLAG_SHAPE,
  timeout: flag.seconds().optional(),
  "keep-world": flag.switch(),
  json: flag.switch(),
});

const USAGE = "worlds run [--seed S] [--server auto | --url URL] [--token T] [--timeout S] [--keep-world] [--json] -- <command>";

export const run: Command = {
  summary: "run any command against one fresh world and print what it changed",
  async run(argv) {
    let args;
    try {
      args = parseArgs("run", argv, DEFS, SCHEMA);
      if (!args.help && args.flags.server && args.flags.url) throw new FlagError("run", "--server auto and --url name two servers; pick one.");
      if (!args.help && (!args.command || args.command.length === 0)) throw new FlagError("run", "no command: put it after '--', e.g. worlds run -- node my-agent.mjs");
    } catch (e) {
      if (e instanceof FlagError) return reportFlagError(e);
      throw e;
    }
    if (args.help) {
      process.stdout.write(helpText(USAGE, "Creates one world, runs the command with the world's endpoints and key in its environment, prints the diff, and destroys the world.", DEFS));
      return 0;
    }
    const f = args.flags;
    const command = args.command!;
    let seed;
    try {
      seed = loadSeedArg(f.seed ?? "acme-small");
    } catch (e) {
      if (e instanceof SeedArgError) {
        process.stderr.write(`worlds run: ${e.message}\n`);
        return 2;
      }
      throw e;
    }
    const interrupt = trapSignals();
    const server = await connectOrReport({ auto: f.server === "auto", url: f.url, token: f.token }, interrupt, (text, code) => (process.stderr.write(`worlds run: ${text}\n`), code));
    if (typeof server === "number") return server;
    try {
      const ep = await runEpisode({
        client: server.client,
        serverUrl: server.url,
        seed,
        argv: command,
        taskJson: null,
        mode: "run",
        timeoutMs: (f.timeout ?? 300) * 1000,
        keepWorld: !!f["keep-world"],
        signal: interrupt.signal,
      });
      if (ep.create_error) {
        process.stderr.write(`worlds run: the world could not be created: ${ep.create_error.message}\n`);
        return "exitCode" in ep.create_error ? (ep.create_error.exitCode as number) : 3;
      }
      const agent = ep.agent!;
      if (f.json) {
        process.stdout.write(JSON.stringify({ world: { id: ep.world!.id, kept: !!f["keep-world"] }, agent, traffic: ep.traffic, diff: ep.diff }, null, 2) + "\n");
      } else {
        process.stdout.write(`world ${ep.world!.id} (seed ${ep.world!.seed.name})${f["keep-world"] ? ", kept" : ", destroyed"}\n`);
        process.stdout.write(`command: ${describeOutcome(agent)}\n`);
        if (agent.reply) process.stdout.write(`output (${agent.stdout_bytes} bytes${agent.reply_truncated ? ", truncated" : ""}):\n${indent(agent.reply.slice(0, 4000))}\n`);
        if (ep.traffic) process.stdout.write(`requests: ${ep.traffic.billing_requests} billing, ${ep.traffic.desk_requests} desk${ep.traffic.unsupported.length ? `, ${ep.traffic.unsupported.length} the twin does not serve` : ""}\n`);
        if (ep.diff) process.stdout.write("\n" + formatDiff(ep.diff));
        if (ep.inspect_error) process.stderr.write(`worlds run: could not read the world's diff: ${ep.inspect_error.message}\n`);
      }
      if (interrupt.received()) return interrupt.exitCode()!;
      if (!agent.started) return 2;
      if (ep.inspect_error) return 3;
      return agent.exit_code === 0 && !agent.timed_out ? 0 : 1;
    } finally {
      await server.stop();
      interrupt.dispose();
    }
  },
};

function indent(text: string): string {
  return text.split("\n").map((l) => `  ${l}`).join("\n");
}
