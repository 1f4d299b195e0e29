// What the built-in model agent says to its model first: the task JSON an agent process would read on stdin,
// turned into the user's message, and the system prompt for the kind of world it is in. The task JSON is read
// through zod (it is the same bytes a process agent gets, core/pipeline/task.ts and cli/tools/run.ts), so an
// unexpected shape is a clear error, never a message of "undefined".
import { z } from "zod";
import type { ModelMessage } from "../models/index";

const ticketTask = z.object({
  id: z.number().int(),
  subject: z.string(),
  body: z.string(),
  requester: z.object({ name: z.string(), email: z.string() }),
});

const toolsTask = z.object({
  id: z.string(),
  request: z.string().min(1),
  /** The agent's own instructions (a replay task's `agent.instructions`): the system prompt it ran on in production. */
  instructions: z.string().max(200_000).optional(),
  /** Calls the conversation already holds (the history dial): made before, answered as the world answers them. */
  history: z.array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()), result: z.record(z.string(), z.unknown()) })).max(1000).optional(),
});

export type TaskKind = "ticket" | "tools" | "desk";

export interface TaskMessage {
  kind: TaskKind;
  user: string;
  system: string;
  /** Earlier calls and their answers, already in the conversation after the user's message. */
  history?: ModelMessage[];
}

export const SUPPORT_SYSTEM_PROMPT =
  "You are a billing and help-desk support agent with tools on the company's billing account and help desk. " +
  "Look things up before you act. Change only what the customer asks for, on the customer who wrote in; when the account " +
  "or the request is ambiguous, change nothing and say a colleague will follow up. Never claim an action you did not take. " +
  "When you are done, answer with the reply to the customer as plain text, and call no more tools.";

export const TOOLS_SYSTEM_PROMPT =
  "You are an assistant that completes the user's request with the tools you are given. Make exactly the calls the request " +
  "needs, with the values it states, and nothing else. When you are done, answer with a short plain-text summary of what you did, " +
  "and call no more tools.";

const DESK_REQUEST =
  "Work every open ticket on the help desk: list the open tickets, read each one, do what it rightly asks on the billing account, " +
  "and answer each with reply_to_ticket (status solved, or pending when a colleague must follow up). When the desk is done, say so in one line.";

/** `system` (--model-system FILE) overrides the task's own instructions, which override the kind's default prompt. */
export function taskMessage(taskJson: string | null, system?: string): { ok: true; value: TaskMessage } | { ok: false; message: string } {
  if (taskJson === null) return { ok: true, value: { kind: "desk", user: DESK_REQUEST, system: system ?? SUPPORT_SYSTEM_PROMPT } };
  let doc: unknown;
  try {
    doc = JSON.parse(taskJson);
  } catch (e) {
    return { ok: false, message: `the task is not JSON (${(e as Error).message})` };
  }
  const tools = toolsTask.safeParse(doc);
  if (tools.success) {
    const calls = tools.data.history ?? [];
    const history: ModelMessage[] = calls.length
      ? [
          { role: "assistant", content: null, toolCalls: calls.map((c, i) => ({ id: `history_${i + 1}`, name: c.name, arguments: c.arguments })) },
          ...calls.map((c, i): ModelMessage => ({ role: "tool", toolCallId: `history_${i + 1}`, content: JSON.stringify(c.result) })),
        ]
      : [];
    return { ok: true, value: { kind: "tools", user: tools.data.request, system: system ?? (tools.data.instructions || TOOLS_SYSTEM_PROMPT), ...(history.length ? { history } : {}) } };
  }
  const ticket = ticketTask.safeParse(doc);
  if (ticket.success) {
    const t = ticket.data;
    // The ticket as a help desk shows it to a person: who wrote, about what, what they said, and its number.
    const user = `Ticket #${t.id} from ${t.requester.name} <${t.requester.email}>\nSubject: ${t.subject}\n\n${t.body}`;
    return { ok: true, value: { kind: "ticket", user, system: system ?? SUPPORT_SYSTEM_PROMPT } };
  }
  return { ok: false, message: "the task is neither a ticket (subject, body, requester) nor a tools request (request)" };
}
