// Whether the process has begun to shut down: /healthz reports it so a load balancer stops sending traffic.

let shuttingDown = false;

export function beginShutdown(): void {
  shuttingDown = true;
}

export function isShuttingDown(): boolean {
  return shuttingDown;
}
