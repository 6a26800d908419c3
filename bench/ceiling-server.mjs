// The ceiling: a bare node:http server answering every request with the same bytes as the domain page.
// With a headers file (JSON, as the app sent them on a cached hit) it sends the page's own headers too, so
// that only the app's per-request work separates the two; without one, the body with a content type.
import { readFileSync } from "node:fs";
import http from "node:http";

const body = readFileSync(process.argv[2]);
const pageHeaders = process.argv[3] ? JSON.parse(readFileSync(process.argv[3], "utf8")) : {};
const headers = {
  "content-type": "text/html; charset=utf-8",
  ...pageHeaders,
  "content-length": String(body.length),
};
const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
process.on("SIGTERM", () => process.exit(0));
