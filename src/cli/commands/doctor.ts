// `worlds doctor -- <agent command>`: the checks between "I have an agent" and "passk grades it", in order,
// each with the next action when it fails: server reachable, token accepted, agent starts, agent finishes,
// agent reaches the twin (one probe world: did any request arrive?), and only with calls the twin serves.
import { z } from "zod";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { connectServer, SERVER_FLAG_DEFS, SERVER_FLAG_SHAPE, ServerSetupError } from "../server/connect";
import { trapSignals } from "../signals";
import { runEpisode } from "../episode/episode";
import { describeOutcome } from "../render/outcome";
import { decisiveLines } from "../../core/results/stderr";
import { taskJsonText, type AgentTask } from "../../core/pipeline/index";
import type { AdminClient } from "../client";
import { reportFlagError } from "./errors";
import type { Command } from "./types";

const DEFS: FlagDefs = {
  ...SERVER_FLAG_DEFS,
  seed: { kind: "value", placeholder: "S", help: "the probe world's seed (default: acme-small); its first ticket is the probe task" },
  timeout: { kind: "value", placeholder: "S", help: "seconds the agent gets (default: 120)" },
};

const SCHEMA = z.strictObject({
  ...SERVER_FLAG_SHAPE,
  seed: flag.text().optional(),
  timeout: flag.seconds().optional(),
});

const USAGE = "worlds doctor [--server auto | --url URL] [--token T] [--seed S] [--timeout S] -- <agent command>";

export const doctor: Command = {
  summary: "check the server, the token and the agent (does it start, finish, reach the twin?) and say what to fix",
  async run(argv) {
    let args;
    try {
      args = parseArgs("doctor", argv, DEFS, SCHEMA);
      if (!args.help && args.flags.server && args.flags.url) throw new FlagError("doctor", "--server auto and --url name two servers; pick one.");
    } catch (e) {
      if (e instanceof FlagError) return reportFlagError(e);
      throw e;
    }
    if (args.help) {
      process.stdout.write(helpText(USAGE, "Checks each step an agent run depends on and prints the next action for the first that fails.", DEFS));
      return 0;
    }
    const f = args.flags;
    const ok = (what: string) => process.stdout.write(`ok    ${what}\n`);
    const bad = (what: string, next: string, code: number) => {
      process.stdout.write(`FAIL  ${what}\nnext: ${next}\n`);
      return code;
    };

    const interrupt = trapSignals();
    let server;
    try {
      server = await connectServer({ auto: f.server === "auto", url: f.url, token: f.token }, interrupt);
    } catch (e) {
      interrupt.dispose();
      if (e instanceof ServerSetupError) return bad(`server: ${e.message}`, e.nextAction, e.exitCode);
      throw e;
    }
    try {
      ok(server.local ? `server: started locally at ${server.url} for this check` : `server: ${server.url} answers and accepts the token`);
      const command = args.command ?? [];
      if (command.length === 0) return bad("agent command: none given", "put your agent's command after '--', e.g. worlds doctor -- node agent.mjs", 2);

      const seedName = f.seed ?? "acme-small";
      let probe: AgentTask | null;
      try {
        probe = await probeTask(server.client, seedName);
      } catch (e) {
        return bad(`seed: the server cannot give the probe seed '${seedName}' (${(e as Error).message})`, "pass --seed with a seed the server holds (GET /admin/seeds)", 3);
      }
      ok(`probe: a world of seed ${seedName}${probe ? `, task "${probe.subject}" from ${probe.requester.email}` : " (no ticket on its desk: the agent gets no task)"}`);

      const ep = await runEpisode({
        client: server.client,
        serverUrl: server.url,
        seed: seedName,
        argv: command,
        taskJson: probe ? taskJsonText(probe) : null,
        mode: "isolated",
        timeoutMs: (f.timeout ?? 120) * 1000,
        keepWorld: false,
        signal: interrupt.signal,
      });
      if (interrupt.received()) return interrupt.exitCode()!;
      if (ep.create_error) return bad(`world: could not be created (${ep.create_error.message})`, "check the server's logs (`worlds serve --verbose`)", 3);
      const agent = ep.agent!;
      // The first error line says why (`Cannot find module ...`), the last lines where it ended: show both.
      const stderrTail = decisiveLines(agent.stderr, 5).map((l) => `      | ${l}`).join("\n");
      if (!agent.started) return bad(`agent start: ${describeOutcome(agent)}`, `check the command after '--' (is '${command[0]}' installed and on PATH? paths are relative to ${process.cwd()})`, 2);
      ok("agent start: the command started");
      if (agent.timed_out) return bad(`agent finish: ${describeOutcome(agent)}${stderrTail ? `\n${stderrTail}` : ""}`, "make the agent exit when it has answered the task it was given (or raise --timeout)", 1);
      if (agent.exit_code !== 0) return bad(`agent finish: ${describeOutcome(agent)}${stderrTail ? `\n${stderrTail}` : ""}`, "fix the error above; the agent must exit 0 when it has done its work", 1);
      ok(`agent finish: ${describeOutcome(agent)}`);
      const t = ep.traffic;
      if (!t) return bad(`traffic: the world's trace could not be read (${ep.inspect_error?.message ?? "unknown error"})`, "check the server", 3);
      if (t.billing_requests === 0 && t.desk_requests === 0)
        return bad(
          "twin traffic: no request reached the world",
          "read STRIPE_API_KEY and STRIPE_API_BASE from the environment and point your billing client at them (stripe-node: new Stripe(key, {host, port, protocol})); the desk is ZENDESK_URL with ZENDESK_API_TOKEN",
          4,
        );
      if (t.billing_requests === 0)
        return bad(`twin traffic: ${t.desk_requests} desk request(s) but no billing request`, "point the billing client at STRIPE_API_BASE with STRIPE_API_KEY; passk calls a run with no billing traffic inconclusive", 4);
      ok(`twin traffic: ${t.billing_requests} billing and ${t.desk_requests} desk request(s) arrived`);
      if (t.unsupported.length > 0) {
        const list = t.unsupported.slice(0, 5).map((u) => `      ${u.method} ${u.path} (${u.kind === "route" ? "no such route in the twin" : "a parameter the twin refuses"}${u.message ? `: ${u.message}` : ""})`).join("\n");
        return bad(`twin coverage: ${t.unsupported.length} call(s) the twin does not serve\n${list}`, "change those calls to ones the twin serves, or report the gap with the requests above", 4);
      }
      ok("twin coverage: every call was one the twin serves");
      if (probe && agent.reply === "") process.stdout.write("note  reply: the agent printed nothing; in isolated mode stdout is the reply, and an empty one is graded as missed\n");
      else if (probe) ok(`reply: ${agent.stdout_bytes} bytes on stdout`);
      const changes = ep.diff?.entries.length ?? 0;
      process.stdout.write(`info  the agent changed ${changes} object(s) in the probe world (worlds run shows the diff)\nall checks passed: worlds passk --tasks <your tasks file> ${server.flags.map((f) => f + " ").join("")}-- ${command.join(" ")}\n`);
      return 0;
    } finally {
      await server.stop();
      interrupt.dispose();
    }
  },
};

/** The seed's first desk ticket as an agent task, so the probe exercises the same path a real task does. */
async function probeTask(client: AdminClient, seed: string): Promise<AgentTask | null> {
  const doc = (await client.seed(seed)) as { data?: { tickets?: Array<Record<string, unknown>>; users?: Array<{ id: number; name: string; email: string }> } };
  const ticket = doc.data?.tickets?.[0];
  if (!ticket) return null;
  const requester = (ticket.requester as { email: string; name?: string } | undefined) ?? doc.data?.users?.find((u) => u.id === ticket.requester_id);
  return {
    id: Number(ticket.id),
    label: "doctor-probe",
    subject: String(ticket.subject),
    body: String(ticket.description),
    requester: { email: requester?.email ?? "customer@example.com", name: requester?.name ?? "Customer" },
    priority: (ticket.priority as AgentTask["priority"]) ?? "normal",
    tags: (ticket.tags as string[]) ?? [],
  };
}
