// An account world's tools: the twin's own support operations (billing reads and writes, the help desk), each
// run as the REST request it stands for, so an agent on MCP or /tools/v1 is graded exactly as one on REST.
import { dict } from "../../../src/core/util/safe-tree";
import type { ToolCatalogue, ToolDefinition } from "../catalogue";
import type { ServiceSender } from "../service-call";
import { BILLING_READS } from "./billing-reads";
import { BILLING_WRITES } from "./billing-writes";
import type { AccountTool } from "./define";
import { DESK_TOOLS } from "./desk";

const TOOLS: AccountTool[] = [...BILLING_READS, ...BILLING_WRITES, ...DESK_TOOLS];
// No prototype: a caller's tool name ("constructor", "__proto__") can only ever miss.
const BY_NAME = dict<AccountTool>();
for (const t of TOOLS) {
  if (BY_NAME[t.definition.name]) throw new Error(`two account tools are named ${t.definition.name}`);
  BY_NAME[t.definition.name] = t;
}
const DEFINITIONS: ToolDefinition[] = TOOLS.map((t) => t.definition);

export function accountCatalogue(send: ServiceSender): ToolCatalogue {
  return {
    list: () => DEFINITIONS,
    call(ctx, name, args) {
      const tool = BY_NAME[name];
      if (!tool) return { ok: false, error: { code: "not_found", message: `No tool named '${name.slice(0, 80)}' in this world. The tools are: ${TOOLS.map((t) => t.definition.name).join(", ")}.` } };
      return tool.run(ctx, args, send);
    },
  };
}
