// Preloaded into a test's server (NODE_OPTIONS=--import): on SIGUSR2 it prints whether promises are tracked
// by async hooks, i.e. whether anything in the process has turned them on (in Node 20 the first run of any
// AsyncLocalStorage does, for good). Untracked, a promise's callback runs with execution async id 0.
import { executionAsyncId } from "node:async_hooks";

process.on("SIGUSR2", () => {
  Promise.resolve().then(() => process.stdout.write(`{"asyncHooksOn":${executionAsyncId() !== 0}}\n`));
});
