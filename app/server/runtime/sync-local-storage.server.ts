// React's server renderer (react-dom/server, Node build) keeps the request it renders in an
// AsyncLocalStorage, read only when a resource hint (preload, preinit...) is called outside its own
// synchronous work. In Node 20 the first `run` of any AsyncLocalStorage turns async hooks on for the rest of
// the process: every promise, socket and timer of every request then pays for them (about 8% of an
// uncached page, issue 27). The production build gives the renderer this storage instead (vite.config.ts):
// the store is there while React's work runs, which is where this app's hints are made (in components).

/** The part of node:async_hooks' AsyncLocalStorage React's renderer uses, without async propagation. */
export class AsyncLocalStorage<T> {
  #store: T | undefined;

  getStore(): T | undefined {
    return this.#store;
  }

  run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    const previous = this.#store;
    this.#store = store;
    try {
      return callback(...args);
    } finally {
      this.#store = previous;
    }
  }
}
