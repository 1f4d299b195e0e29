// What the hosted tools-run tests share: the tasks the server will generate from a settings text and tool file
// (so a test agent knows what solving one means), and a call on an episode's tools world.
import { exports } from "cloudflare:workers";
import { importToolSet } from "../../src/core/kinds/tools/toolset";
import { parseToolsConfig, configFlows } from "../../src/core/kinds/tools/config/parse";
import { generateToolsArms } from "../../src/core/kinds/tools/run/arms";
import type { ToolsTask } from "../../src/core/kinds/tools/tasks/generate";
import type { AgentRequestBody } from "../../src/core/pipeline/index";

export async function generatedTasks(configText: string, file: string): Promise<Map<string, ToolsTask>> {
  const config = parseToolsConfig(configText, "tools.yaml");
  const set = await importToolSet(file, { format: config.format, name: config.name, read: config.read, write: config.write });
  const arms = await generateToolsArms(set, config, configFlows(config, set, "tools.yaml"));
  return new Map(arms.flatMap((a) => a.tasks).map((t) => [t.id, t]));
}

export async function toolCall(body: AgentRequestBody, name: string, args: unknown): Promise<Response> {
  return exports.default.fetch(new Request(`${body.world.tools_url}/call`, { method: "POST", headers: { authorization: `Bearer ${body.world.key}`, "content-type": "application/json" }, body: JSON.stringify({ name, arguments: args }) }));
}
