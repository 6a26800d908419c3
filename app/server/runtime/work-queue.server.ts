// A small bound on expensive work (a 128 MiB scrypt run): at most `concurrency` jobs run at once and
// at most `maxWaiting` wait; beyond that a job is refused at once instead of piling up on libuv's
// thread pool, which static files, compression and the database's callers share.

export class QueueFullError extends Error {}

export interface WorkQueue {
  run<T>(job: () => Promise<T>): Promise<T>;
  stats(): { running: number; waiting: number; refused: number };
}

export function createWorkQueue(options: { concurrency: number; maxWaiting: number }): WorkQueue {
  let running = 0;
  let refused = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    running -= 1;
    const nextJob = waiting.shift();
    if (nextJob) {
      running += 1;
      nextJob();
    }
  };

  return {
    async run(job) {
      if (running >= options.concurrency) {
        if (waiting.length >= options.maxWaiting) {
          refused += 1;
          throw new QueueFullError("work queue full");
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running += 1;
      }
      try {
        return await job();
      } finally {
        release();
      }
    },
    stats: () => ({ running, waiting: waiting.length, refused }),
  };
}
