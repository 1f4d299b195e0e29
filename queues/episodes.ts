// Episode consumer. Hosted runs fill this in (issue: hosted runs); until then it acknowledges and logs.
import type { Env } from "../src/env";

export async function consumeEpisodes(batch: MessageBatch<unknown>, _env: Env): Promise<void> {
  for (const msg of batch.messages) {
    console.log(`worlds: episode message ${msg.id} on ${batch.queue} (attempt ${msg.attempts})`);
    msg.ack();
  }
}
