// The ceiling: a bare node:http server answering every request with the same bytes as the domain page.
import { readFileSync } from "node:fs";
import http from "node:http";

const body = readFileSync(process.argv[2]);
const headers = { "content-type": "text/html; charset=utf-8", "content-length": String(body.length) };
const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
process.on("SIGTERM", () => process.exit(0));
