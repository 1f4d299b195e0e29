// The real local server with its model keys pointed at the scripted model on loopback: how the person and episode
// tests start (the Worker calls the person's and the judge's model with the server's own environment).
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { loadScript } from "../../../src/core/models/scripted/index";
import { startScriptedServer, type ScriptedServer } from "../../../src/cli/models/scripted-server";
import { startLocalServer, type LocalServer } from "../../../src/cli/server/local";
import { killAllStarted, ROOT } from "./cli";

/** The scripted model alone, from a script under the repository root (test/fixtures/models/...). */
export async function startScriptedModel(scriptPath: string): Promise<ScriptedServer> {
  const loaded = loadScript(readFileSync(join(ROOT, scriptPath), "utf8"), basename(scriptPath));
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  return startScriptedServer(loaded.script);
}

export async function startScriptedLocal(scriptPath: string): Promise<{ model: ScriptedServer; server: LocalServer; stop(): Promise<void> }> {
  const model = await startScriptedModel(scriptPath);
  const server = await startLocalServer({ modelEnv: { OPENAI_BASE_URL: model.env.OPENAI_BASE_URL } });
  return {
    model,
    server,
    async stop() {
      await server.stop();
      await model.close();
      killAllStarted();
    },
  };
}
