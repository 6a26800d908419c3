// Whether a request's User-Agent is a crawler's or a script's (isbot: curl and node's fetch are too).
// Asked several times for every public page (views are counted for people only, the page cache keeps a
// crawler's page only the second time it is asked for, a crawler's render waits for all content), and
// isbot's pattern is long: the answer is remembered for the agents seen lately, since a crawler sends
// the same one with every request.
import { isbot } from "isbot";

const MAX_AGENTS = 500;
const MAX_REMEMBERED_LENGTH = 512;
const known = new Map<string, boolean>();

export function isCrawler(userAgent: string | null | undefined): boolean {
  if (!userAgent) return false;
  if (userAgent.length > MAX_REMEMBERED_LENGTH) return isbot(userAgent);
  let crawler = known.get(userAgent);
  if (crawler === undefined) {
    if (known.size >= MAX_AGENTS) known.clear();
    crawler = isbot(userAgent);
    known.set(userAgent, crawler);
  }
  return crawler;
}
