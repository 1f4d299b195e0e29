// `worlds tasks import … | head`: the reader closes the pipe and the next write fails with EPIPE, which Node
// raises as an 'error' event on process.stdout (or stderr) and, unheard, as an uncaught exception with a stack
// trace. Whoever closed the pipe wanted no more output, not a crash: from then on that stream's writes are
// dropped, and the command finishes as it would have (its agents stopped, its worlds and local server cleaned
// up, its exit code unchanged), only without printing.

type Output = Pick<NodeJS.WriteStream, "on" | "write">;

const guarded = new WeakSet<object>();

/** Every command's stdout and stderr end quietly on a closed pipe; any other write error is still thrown. */
export function quietOnClosedPipe(streams: readonly Output[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    if (guarded.has(stream)) continue;
    guarded.add(stream);
    let closed = false;
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((...args: unknown[]) => {
      if (!closed) return write(...args);
      // A callback still learns the write is done, so nothing waits on output no one reads.
      const done = args.find((a): a is () => void => typeof a === "function");
      if (done) queueMicrotask(done);
      return true;
    }) as Output["write"];
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE" || e.code === "ERR_STREAM_DESTROYED") {
        closed = true;
        return;
      }
      throw e;
    });
  }
}
