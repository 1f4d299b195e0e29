// Episode consumer for both queues this Worker reads: `episodes` (run one episode per message) and its
// dead-letter queue (record the episode as an infrastructure error). Messages are handled concurrently within a
// batch; each is acked, retried with backoff, or put back (a run at its concurrency) on its own.
import type { Env } from "../src/env";
import { EPISODES_DLQ } from "../src/hosted/runs/config";
import { recordDeadLetter } from "../src/hosted/runs/dead-letter";
import { processEpisode, type Disposition } from "../src/hosted/runs/episode";
import { episodeMessage, sendEpisodes } from "../src/hosted/runs/messages";
import { backoffSeconds } from "../src/hosted/runs/config";

export async function consumeEpisodes(batch: MessageBatch<unknown>, env: Env, fetcher: typeof fetch = fetch): Promise<void> {
  const deadLetters = batch.queue === EPISODES_DLQ;
  await Promise.all(batch.messages.map((msg) => (deadLetters ? consumeDeadLetter(msg, env) : consumeEpisode(msg, env, fetcher))));
}

async function consumeEpisode(msg: Message<unknown>, env: Env, fetcher: typeof fetch): Promise<void> {
  const body = episodeMessage.safeParse(msg.body);
  if (!body.success) {
    // Not ours or corrupt: no episode to run. Let it take the retry path to the dead-letter queue, which logs it.
    console.error(`worlds: message ${msg.id} is not an episode message: ${body.error.issues[0]?.message}`);
    msg.retry({ delaySeconds: backoffSeconds(msg.attempts) });
    return;
  }
  let outcome: Disposition;
  try {
    outcome = await processEpisode(env, { id: msg.id, attempts: msg.attempts, body: body.data }, fetcher);
  } catch (e) {
    console.error(`worlds: episode ${body.data.episode} (message ${msg.id}, attempt ${msg.attempts}) failed: ${(e as Error).message}`);
    msg.retry({ delaySeconds: backoffSeconds(msg.attempts) });
    return;
  }
  if (outcome.kind === "ack") msg.ack();
  else if (outcome.kind === "retry") msg.retry({ delaySeconds: outcome.delaySeconds });
  else {
    // Waiting for a free slot is not a failure: a fresh message keeps the retry budget for real failures.
    try {
      await sendEpisodes(env, [{ ...body.data, deferrals: body.data.deferrals + 1 }], outcome.delaySeconds);
      msg.ack();
    } catch {
      msg.retry({ delaySeconds: outcome.delaySeconds });
    }
  }
}

async function consumeDeadLetter(msg: Message<unknown>, env: Env): Promise<void> {
  const body = episodeMessage.safeParse(msg.body);
  if (!body.success) {
    console.error(`worlds: dead letter ${msg.id} is not an episode message and is dropped: ${JSON.stringify(msg.body).slice(0, 500)}`);
    msg.ack();
    return;
  }
  try {
    await recordDeadLetter(env, body.data);
    msg.ack();
  } catch (e) {
    console.error(`worlds: dead letter for episode ${body.data.episode} could not be recorded: ${(e as Error).message}`);
    msg.retry({ delaySeconds: backoffSeconds(msg.attempts) });
  }
}
