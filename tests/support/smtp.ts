// A real SMTP server (smtp-server) for tests: it keeps each received message's envelope and raw text,
// and can be stopped and started again on the same port to play an outage.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtp {
  port: number;
  url: string;
  messages: ReceivedMail[];
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** acceptDelayMs: the server takes that long to accept each message (a slow mail server). */
/** refuseRecipients: recipients matching it are refused permanently (550), as a server does for an unknown user. */
/** failDataFor: a message to recipients matching it is received, then (after acceptDelayMs) refused for now (451). */
export async function startSmtp(
  port = 0,
  options: { acceptDelayMs?: number; refuseRecipients?: RegExp; failDataFor?: RegExp } = {},
): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  const state = { port };

  async function start() {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (options.refuseRecipients?.test(address.address)) {
          const error = Object.assign(new Error("5.1.1 No such user here"), { responseCode: 550 });
          return callback(error);
        }
        callback();
      },
      onData(stream, session, callback) {
        let raw = "";
        stream.on("data", (chunk) => (raw += chunk));
        stream.on("end", () => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          const fail = session.envelope.rcptTo.some((r) => options.failDataFor?.test(r.address));
          const refusal = () => Object.assign(new Error("4.3.0 Try again later"), { responseCode: 451 });
          const answer = () => callback(fail ? refusal() : undefined);
          if (options.acceptDelayMs) setTimeout(answer, options.acceptDelayMs);
          else answer();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server!.once("error", reject);
      server!.listen(state.port, "127.0.0.1", () => resolve());
    });
    // A sender that goes away mid-message (the cluster test SIGKILLs a process while its outbox sends up to
    // four at once) is an ECONNRESET here: that message is not received, and the sender's outbox sends it
    // again. Unheard, smtp-server's 'error' would be an uncaught exception in the test process.
    server.on("error", () => {});
    state.port = (server.server.address() as AddressInfo).port;
  }

  await start();
  return {
    get port() {
      return state.port;
    },
    get url() {
      return `smtp://127.0.0.1:${state.port}`;
    },
    messages,
    start,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}
