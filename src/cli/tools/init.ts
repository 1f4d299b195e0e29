// `worlds tools init`: writes worlds/tools.yaml from flags (every setting has one) and prints the set's summary.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { stringify } from "yaml";
import { parseFlow, toolsConfig, type ToolsConfig } from "../../core/kinds/tools/config/schema";
import { configFlows, ToolsConfigProblem } from "../../core/kinds/tools/config/parse";
import { defaultName, DEFAULT_CONFIG, loadToolFile, ToolsConfigError } from "./load";
import { listMcpTools } from "./mcp-list";
import { readThenCallPairs } from "../../core/kinds/tools/tasks/generate";
import { summaryLines, measureLine, refusalLines, setLine } from "./summary";

export interface InitFlags {
  out?: string;
  file?: string;
  format?: "auto" | "openai" | "mcp" | "openapi";
  name?: string;
  read: string[];
  write: string[];
  include: string[];
  exclude: string[];
  intent: string[];
  flow: string[];
  mcpCommand?: string;
  preset?: string;
  dials: string[];
  generatorVersion?: string;
  yes: boolean;
  force: boolean;
}

function asProblem<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ToolsConfigProblem) throw new ToolsConfigError(e.message.replace(/^the flags: flows: /, "--own-flow ").replace(/^the flags: intents: /, "--own-intent "));
    throw e;
  }
}

export async function toolsInit(f: InitFlags, out: (s: string) => void): Promise<number> {
  const configPath = f.out ?? DEFAULT_CONFIG;
  if (existsSync(configPath) && !f.force) throw new ToolsConfigError(`${configPath} exists; pass --force to write it again`);
  let file = f.file;
  if (f.mcpCommand) {
    if (!f.yes) throw new ToolsConfigError("--mcp-command starts your server once, only to list its tools; pass --yes to consent");
    const listed = await listMcpTools(f.mcpCommand);
    file = resolve(dirname(configPath), "tools.mcp.json");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(listed, null, 2) + "\n");
    out(`ok  listed ${listed.tools.length} tools from your MCP server into ${file} and stopped it (the command is kept nowhere; no tool was called)\n`);
  }
  if (!file) throw new ToolsConfigError("name your tool file with --own-file PATH (an OpenAI tools file, an MCP tool list or an OpenAPI document), or list a server's with --mcp-command CMD --yes");
  const intents: Record<string, string> = {};
  for (const i of f.intent) {
    const eq = i.indexOf("=");
    if (eq <= 0 || eq === i.length - 1) throw new ToolsConfigError(`--own-intent takes TOOL=TEXT (got '${i}')`);
    intents[i.slice(0, eq)] = i.slice(eq + 1);
  }
  for (const fl of f.flow) if (!parseFlow(fl)) throw new ToolsConfigError(`--own-flow takes FROM.FIELD:TO.PARAM, e.g. get_order.id:refund_order.order_id (got '${fl}')`);
  if (f.dials.length && !f.preset) throw new ToolsConfigError("--dial names a dial of --preset custom: add --preset custom");
  const parsed = toolsConfig.safeParse({
    version: 1,
    file: relative(dirname(resolve(configPath)), resolve(file)) || file,
    format: f.format ?? "auto",
    name: f.name ?? defaultName(file),
    read: f.read,
    write: f.write,
    include: f.include,
    exclude: f.exclude,
    intents,
    flows: f.flow,
    arms: f.flow.length ? ["call", "read-then-call", "flow"] : ["call", "read-then-call"],
    ...(f.preset ? { measure: { preset: f.preset, dials: f.dials } } : {}),
    ...(f.generatorVersion ? { generator_version: f.generatorVersion } : {}),
  });
  if (!parsed.success) {
    const flagOf: Record<string, string> = { measure: "--preset/--dial", generator_version: "--generator-version" };
    throw new ToolsConfigError(parsed.error.issues.map((i) => `${flagOf[String(i.path[0])] ?? String(i.path[0])}: ${i.message}`).join("; "));
  }
  const config: ToolsConfig = parsed.data;
  const set = await loadToolFile(resolve(file), config);
  if (set.setRefusal) throw new ToolsConfigError(`${file}: the set is refused: ${set.setRefusal}`, refusalLines(set));
  const flows = asProblem(() => configFlows(config, set, "the flags"));
  // Only the forms generate can make: its own rule decides, so init never writes a form generate then refuses.
  const reachable = config.arms.filter((a) => a !== "read-then-call" || readThenCallPairs(set).length > 0);
  config.arms = reachable.length ? reachable : ["call"];
  // Computed before anything is written: a recipe the set cannot run is refused with nothing left behind.
  const summary = measureLine({ configPath, config, filePath: resolve(file), set, flows });
  mkdirSync(dirname(configPath), { recursive: true });
  writeFileSync(configPath, `# Tasks on your own tools (worlds tools). Every setting has a 'worlds tools init' flag; docs/tools.md.\n${stringify(config)}`);
  out(`ok  wrote ${configPath}: tasks on your tools (${config.name}), ${summary}\n`);
  out(`  your tools  ${setLine(set)}\n`);
  for (const l of summaryLines(set, flows)) out(`  ${l}\n`);
  if (!flows.length) out("  note        depth and shape need a declared flow: --own-flow FROM.FIELD:TO.PARAM to init, or flows: in worlds/tools.yaml\n");
  out("next: worlds tools generate\n");
  return 0;
}
