import { describe, expect, it } from "vitest";
import { canonicalPageUrl } from "../../app/lib/page-url";
import { createWorkQueue, QueueFullError } from "../../app/server/runtime/work-queue.server";

describe("canonicalPageUrl: the page cache keys on what a page reads", () => {
  it.each([
    ["/domain/velora?utm_source=x&ref=y", "/domain/velora", false],
    ["/contact/velora?q=x", "/contact/velora", false],
    ["/?utm_campaign=z", "/", false],
    ["/?q=+nova+&fbclid=1", "/?q=nova", true],
    ["/?page=1", "/", false],
    ["/?page=abc&q=", "/", false],
    ["/?page=2.5", "/", false],
    ["/?page=3&q=nova", "/?q=nova&page=3", true],
    ["/?page=2", "/?page=2", true],
    ["/?page=1000000", "/?page=1000000", true],
    ["/?page=99999999", "/", false],
    ["/?q=a&q=b", "/?q=a", true],
    ["/domain/velora", "/domain/velora", false],
    ["/domain/shop.us.com", "/domain/shop.us.com", false],
    ["/domain/VeLoRa", "/domain/VeLoRa", true],
    ["/domain/%76elora", "/domain/%76elora", true],
    ["/domain/velora.", "/domain/velora.", true],
    ["/contact/Velora?x=1", "/contact/Velora", true],
    ["/category/Travel", "/category/Travel", true],
    ["/category/travel?page=2", "/category/travel?page=2", true],
    ["/", "/", false],
  ])("%s is keyed as %s", (url, canonical, search) => {
    expect(canonicalPageUrl(url)).toEqual({ url: canonical, search });
  });

  it("cuts a search term as the loader does", () => {
    expect(canonicalPageUrl(`/?q=${"a".repeat(500)}`).url).toBe(`/?q=${"a".repeat(100)}`);
  });
});

describe("createWorkQueue", () => {
  it("runs at most `concurrency` jobs, queues `maxWaiting`, refuses the rest at once", async () => {
    const queue = createWorkQueue({ concurrency: 2, maxWaiting: 3 });
    let running = 0;
    let most = 0;
    const release: Array<() => void> = [];
    const job = () =>
      new Promise<void>((resolve) => {
        running += 1;
        most = Math.max(most, running);
        release.push(() => {
          running -= 1;
          resolve();
        });
      });
    const results = Array.from({ length: 8 }, () =>
      queue.run(job).then(
        () => "done",
        (error) => (error instanceof QueueFullError ? "refused" : "error"),
      ),
    );
    await new Promise(setImmediate); // one turn of the event loop: the queue's promises settle
    expect(queue.stats()).toEqual({ running: 2, waiting: 3, refused: 3 });
    while (release.length > 0 || queue.stats().running > 0) {
      release.shift()?.();
      await new Promise(setImmediate); // one turn of the event loop: the queue's promises settle
    }
    expect(await Promise.all(results)).toEqual([
      "done",
      "done",
      "done",
      "done",
      "done",
      "refused",
      "refused",
      "refused",
    ]);
    expect(most).toBe(2);
    expect(queue.stats()).toEqual({ running: 0, waiting: 0, refused: 3 });
  });
});
