// A hosted tools run's `tools` field (POST /admin/runs): the settings document and the tool file it names, sent
// as text, because the server reads no files. The CLI (`worlds tools run --url --agent-url`) builds it from disk.
import { z } from "zod";

export const hostedToolsRequest = z.strictObject({
  /** worlds/tools.yaml's text. Its `file:` is not read: the tool file comes as `file` beside it. */
  config: z.string().min(1, "the settings document is empty").max(1024 * 1024),
  /** The tool file's text (OpenAI tools, an MCP tool list or an OpenAPI document). */
  file: z.string().min(1, "the tool file is empty").max(16 * 1024 * 1024),
  /** The settings file as the user names it (results, replay lines); default worlds/tools.yaml. */
  config_file: z.string().min(1).max(500).optional(),
});
export type HostedToolsRequest = z.infer<typeof hostedToolsRequest>;
