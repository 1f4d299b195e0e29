// The task an agent is handed for one ticket: the same fields whether it arrives on stdin (CLI runs) or in the
// body of the signed POST (hosted runs). Never carries the key or the rubric.
import type { RubricTicket } from "../rubric/schema";
import type { SeedTicket } from "../world/seed/schema";

export interface AgentTask {
  id: number;
  label: string;
  subject: string;
  body: string;
  requester: { name: string; email: string };
  priority: "low" | "normal" | "high" | "urgent";
  tags: string[];
}

export function agentTask(ticket: RubricTicket, seedTicket: SeedTicket): AgentTask {
  return {
    id: ticket.id,
    label: ticket.label,
    subject: seedTicket.subject,
    body: seedTicket.description,
    requester: ticket.requester,
    priority: ticket.priority,
    tags: ticket.tags,
  };
}

/** Fixed key order, so the bytes an agent sees do not depend on how the task was built. */
export function taskJsonText(task: AgentTask): string {
  return JSON.stringify({ id: task.id, label: task.label, subject: task.subject, body: task.body, requester: task.requester, priority: task.priority, tags: task.tags });
}
