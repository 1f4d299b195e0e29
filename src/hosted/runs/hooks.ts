// Webhook hooks: what a hook runs (a bundled seed, or a tasks file whose settings apply to every ticket), and
// how a help-desk ticket becomes the one task of a run. The ticket goes through the tasks compiler like any
// tasks file, so a webhook run is graded exactly as a `worlds passk` run of the same ticket would be.
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { z } from "zod";
import { agentEndpoint, MAX_TIMEOUT_S, type RunRequest } from "../../core/pipeline/index";
import { PROVIDERS } from "../../webhooks/verify";
import type { WebhookTicket } from "../../webhooks/normalize";
import { BUNDLED_SEEDS } from "../../seeds/bundled";
import { randomToken } from "../../http/ids";
import { hostedJudgeRequest, type HostedJudgeRequest } from "../../core/policy-judge/hosted";
import { STARTER_INVARIANTS } from "../../core/kinds/account/tasks/invariants";

export const hookRequest = z
  .strictObject({
    provider: z.enum(PROVIDERS),
    /** The signing secret the provider shows (Zendesk webhook secret, Intercom client secret, Front app secret). */
    secret: z.string().min(8, "must be at least 8 characters").max(512),
    /** A seed the server holds; each ticket becomes a policy-only (or tag-keyed) task on it. */
    seed: z.string().min(1).optional(),
    /** Or a tasks file's YAML: its seed, policy, invariants, budget and currency apply; its own tasks are not run. */
    tasks: z.string().min(1).optional(),
    agent: agentEndpoint,
    runs: z.number().int().min(1).max(100).default(1),
    mode: z.enum(["isolated", "shift"]).optional(),
    concurrency: z.number().int().min(1).max(100).optional(),
    timeout_s: z.number().int().min(1).max(MAX_TIMEOUT_S).optional(),
    /** The policy judge for every ticket's run (docs/judge.md): the policy's text, the model, a budget per run. */
    judge: hostedJudgeRequest.optional(),
  })
  .refine((h) => (h.seed === undefined) !== (h.tasks === undefined), { message: "send exactly one of seed and tasks", path: ["seed"] });
export type HookRequest = z.infer<typeof hookRequest>;

/** What hooks.config_json holds. */
export interface HookConfig {
  /** The tasks file's header (everything but its tasks). */
  header: Record<string, unknown>;
  agent: { url: string; secret: string };
  runs: number;
  mode?: "isolated" | "shift";
  concurrency?: number;
  timeout_s?: number;
  judge?: HostedJudgeRequest;
}

export const newHookId = () => `hk_${randomToken(16)}`;
export const HOOK_ID = /^hk_[A-Za-z0-9]{16}$/;

export type HookConfigOutcome = { ok: true; config: HookConfig } | { ok: false; message: string; path: string };

export function hookConfig(req: HookRequest): HookConfigOutcome {
  let header: Record<string, unknown>;
  if (req.seed !== undefined) header = { version: 1, seed: req.seed };
  else {
    let doc: unknown;
    try {
      doc = parseYaml(req.tasks!);
    } catch (e) {
      return { ok: false, path: "tasks", message: `tasks is not valid YAML: ${(e as Error).message}` };
    }
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) return { ok: false, path: "tasks", message: "tasks must be a tasks file (a YAML mapping with version and seed)" };
    const { tasks: _ignored, ...rest } = doc as Record<string, unknown>;
    header = rest;
  }
  const seed = header.seed;
  if (typeof seed !== "string" || BUNDLED_SEEDS[seed] === undefined)
    return { ok: false, path: req.seed !== undefined ? "seed" : "tasks.seed", message: `the server holds no seed named '${String(seed)}' (GET /admin/seeds lists the ones it does)` };
  return { ok: true, config: { header, agent: req.agent, runs: req.runs, mode: req.mode, concurrency: req.concurrency, timeout_s: req.timeout_s, ...(req.judge ? { judge: req.judge } : {}) } };
}

/** The run a delivered ticket starts: a one-task tasks file on the hook's seed and settings. */
export function ticketRun(config: HookConfig, hookId: string, provider: string, eventId: string, t: WebhookTicket): RunRequest {
  const id = oneLine(t.external_id ? `${provider}-${t.external_id}` : `${provider}-${eventId}`).slice(0, 100);
  const task: Record<string, unknown> = {
    id,
    requester: t.requester.email,
    ...(t.requester.name ? { requester_name: oneLine(t.requester.name) } : {}),
    subject: oneLine(t.subject),
    body: t.body,
    priority: t.priority,
    ...(t.tags.length ? { tags: t.tags.filter((x) => x.trim() !== "") } : {}),
    ...(t.expected ? { expected: oneLine(t.expected) } : {}),
  };
  const file = { ...withStarterInvariants(config.header), tasks: [task] };
  return {
    tasks: stringifyYaml(file),
    tasks_file: `${hookId}.yaml`,
    runs: config.runs,
    mode: config.mode,
    agent: config.agent,
    concurrency: config.concurrency,
    timeout_s: config.timeout_s,
    ...(config.judge ? { judge: config.judge } : {}),
  };
}

/**
 * A hook made with only `seed:` has no keys and no invariants of its own, so a ticket without a key would be a
 * file in which nothing can fail (refused 422). It gets what every starter file carries instead. Read at delivery,
 * so hooks stored before this rule get it too; a hook's tasks file keeps exactly the invariants it wrote.
 */
function withStarterInvariants(header: Record<string, unknown>): Record<string, unknown> {
  const bare = Object.keys(header).every((k) => k === "version" || k === "seed");
  return bare ? { ...header, invariants: [...STARTER_INVARIANTS] } : header;
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
