import { createRequestHandler } from "react-router";
const which = process.argv[2]; const N = Number(process.argv[3] ?? 3000);
const buildPath = which === "stock" ? "/work/wt-i16/bench/stock-app/build/server/index.js" : "/work/wt-i16/build/server/index.js";
const build = await import(buildPath);
if (which !== "stock") await build.entry.module.startApp();
const handle = createRequestHandler(build, "production");
const url = process.argv[4] ?? "http://127.0.0.1:4601/domain/velnora";
async function once() { const r = await handle(new Request(url, { headers: { host: "127.0.0.1:4601", "user-agent": "bench" } }), { cspNonce: "abcdefabcdefabcdefabcd==" }); return r.text(); }
for (let i = 0; i < 500; i++) await once();
for (let round = 0; round < 3; round++) {
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < N; i++) await once();
  const c = process.cpuUsage(c0); const t = performance.now() - t0;
  console.log(`${which}: cpu ${((c.user + c.system) / N).toFixed(0)} us/req wall ${(t / N * 1000).toFixed(0)} us/req`);
}
process.exit(0);
