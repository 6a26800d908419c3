// A small Stripe-compatible HTTP server for tests: the real stripe SDK talks to it through
// STRIPE_API_BASE (host/port/protocol options). It keeps payment intents, checkout sessions and
// refunds in memory, honours Idempotency-Key, records every request with its headers, and can be
// told to fail. Its /pay/<session> page plays Stripe Checkout: it pays and 303s to success_url.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
}

type Json = Record<string, any>;
interface Failure {
  method: string;
  path: string;
  times: number;
  status: number;
  error: { type: string; message: string; code?: string };
  /** Stored under the request's Idempotency-Key like any answer, so a retry with that key gets it again (Stripe does this for 24 h). */
  stored?: boolean;
}

export interface FakeStripe {
  url: string;
  requests: RecordedRequest[];
  paymentIntents: Map<string, Json>;
  sessions: Map<string, Json>;
  refunds: Map<string, Json>;
  /** Requests whose method and path start as given. */
  requestsTo(method: string, pathPrefix: string): RecordedRequest[];
  /** The next `times` matching requests answer with this error. */
  failNext(failure: Omit<Failure, "times"> & { times?: number }): void;
  /**
   * The next `times` matching requests are carried out at once but answered only after `ms`
   * (a slow or stalled Stripe: the work is done, the caller may have given up waiting).
   */
  delayNext(delay: { method: string; path: string; ms: number; times?: number }): void;
  /** Forgets the delays not used up yet. */
  clearDelays(): void;
  /** What the browser's Stripe.js does: confirm with a test payment method. */
  confirm(paymentIntentId: string, paymentMethod?: "pm_card_visa" | "pm_card_chargeDeclined"): Json;
  /** What the buyer does on Checkout: pay; returns the success URL with the session id filled in. */
  completeCheckout(sessionId: string): { paymentIntent: Json; successUrl: string };
  /** A bank debit or delayed method: the intent is processing until confirm() completes it. */
  startProcessing(paymentIntentId: string): Json;
  /** The next refunds are created with this status (Stripe: pending for some methods, or requires_action). */
  nextRefundStatus(status: "succeeded" | "pending" | "requires_action" | "failed", times?: number): void;
  /** What Stripe does later to a pending refund; a failed one gives the amount back to the intent. */
  settleRefund(refundId: string, status: "succeeded" | "failed" | "canceled", failureReason?: string): Json;
  stop(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** Stripe's form encoding: a[b][0][c]=v -> { a: { b: { 0: { c: "v" } } } }. */
export function parseStripeForm(text: string): Json {
  const result: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]\[|\]/).filter((part) => part !== "");
    let target = result;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) target[part] = value;
      else target = target[part] ??= {};
    });
  }
  return result;
}

function errorBody(error: Failure["error"]) {
  return { error: { ...error, request_log_url: null } };
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const paymentIntents = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const refunds = new Map<string, Json>();
  const idempotent = new Map<string, { status: number; body: Json }>();
  const failures: Failure[] = [];
  const delays: { method: string; path: string; ms: number; times: number }[] = [];
  const refundStatuses: string[] = [];
  let base = "";

  function confirm(intentId: string, paymentMethod = "pm_card_visa"): Json {
    const intent = paymentIntents.get(intentId);
    if (!intent) throw new Error(`no payment intent ${intentId}`);
    if (intent.status === "succeeded" || intent.status === "canceled") return intent;
    if (paymentMethod === "pm_card_chargeDeclined") {
      intent.status = "requires_payment_method";
      intent.last_payment_error = { type: "card_error", code: "card_declined", message: "Your card was declined." };
      return intent;
    }
    intent.status = "succeeded";
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
    intent.latest_charge = id("ch");
    return intent;
  }

  function createIntent(params: Json): Json {
    const intentId = id("pi");
    const intent = {
      id: intentId,
      object: "payment_intent",
      amount: Number(params.amount),
      amount_received: 0,
      currency: params.currency,
      status: "requires_payment_method",
      client_secret: `${intentId}_secret_${randomBytes(8).toString("hex")}`,
      description: params.description ?? null,
      metadata: params.metadata ?? {},
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
    paymentIntents.set(intentId, intent);
    return intent;
  }

  function completeCheckout(sessionId: string) {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    let intent = session.payment_intent ? paymentIntents.get(session.payment_intent)! : undefined;
    if (!intent) {
      const item = session.line_items["0"];
      intent = createIntent({
        amount: item.price_data.unit_amount,
        currency: item.price_data.currency,
        metadata: session.payment_intent_data?.metadata ?? {},
      });
      session.payment_intent = intent.id;
    }
    confirm(intent.id);
    session.status = "complete";
    session.payment_status = "paid";
    return {
      paymentIntent: intent,
      successUrl: String(session.success_url).replace("{CHECKOUT_SESSION_ID}", sessionId),
    };
  }

  function route(method: string, path: string, body: Json): { status: number; body: Json } {
    let match: RegExpExecArray | null;
    if (method === "POST" && path === "/v1/payment_intents") return { status: 200, body: createIntent(body) };
    if ((match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)) && method === "GET") {
      const intent = paymentIntents.get(match[1]!);
      return intent ? { status: 200, body: intent } : missing("payment_intent", match[1]!);
    }
    if ((match = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path)) && method === "POST") {
      const intent = paymentIntents.get(match[1]!);
      if (!intent) return missing("payment_intent", match[1]!);
      if (
        !["requires_payment_method", "requires_confirmation", "requires_action", "requires_capture"].includes(
          intent.status,
        )
      ) {
        return unexpectedState(`You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`);
      }
      intent.status = "canceled";
      intent.cancellation_reason = body.cancellation_reason ?? null;
      return { status: 200, body: intent };
    }
    if ((match = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path)) && method === "POST") {
      const session = sessions.get(match[1]!);
      if (!session) return missing("checkout.session", match[1]!);
      if (session.status !== "open")
        return unexpectedState("Only Checkout Sessions with a status of open can be expired.");
      session.status = "expired";
      return { status: 200, body: session };
    }
    if ((match = /^\/v1\/refunds\/([^/]+)$/.exec(path)) && method === "GET") {
      const refund = refunds.get(match[1]!);
      return refund ? { status: 200, body: refund } : missing("refund", match[1]!);
    }
    if ((match = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path)) && method === "POST") {
      if (!paymentIntents.has(match[1]!)) return missing("payment_intent", match[1]!);
      const intent = confirm(match[1]!, body.payment_method);
      if (intent.status !== "succeeded") {
        return {
          status: 402,
          body: errorBody({ type: "card_error", code: "card_declined", message: "Your card was declined." }),
        };
      }
      return { status: 200, body: intent };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const sessionId = id("cs_test");
      const item = body.line_items?.["0"];
      const session = {
        id: sessionId,
        object: "checkout.session",
        url: `${base}/pay/${sessionId}`,
        mode: body.mode,
        status: "open",
        payment_status: "unpaid",
        payment_intent: null,
        client_reference_id: body.client_reference_id ?? null,
        customer_email: body.customer_email ?? null,
        metadata: body.metadata ?? {},
        payment_intent_data: body.payment_intent_data ?? {},
        amount_total: Number(item?.price_data?.unit_amount) * Number(item?.quantity ?? 1),
        currency: item?.price_data?.currency,
        line_items: body.line_items,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
      };
      sessions.set(sessionId, session);
      return { status: 200, body: session };
    }
    if ((match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)) && method === "GET") {
      const session = sessions.get(match[1]!);
      return session ? { status: 200, body: session } : missing("checkout.session", match[1]!);
    }
    if (method === "POST" && path === "/v1/refunds") {
      const intent = paymentIntents.get(body.payment_intent);
      if (!intent) return missing("payment_intent", body.payment_intent);
      if (intent.status !== "succeeded") {
        return {
          status: 400,
          body: errorBody({
            type: "invalid_request_error",
            message: "This PaymentIntent has no successful charge to refund.",
          }),
        };
      }
      if ((intent.amount_refunded ?? 0) >= intent.amount_received) {
        return {
          status: 400,
          body: errorBody({
            type: "invalid_request_error",
            code: "charge_already_refunded",
            message: `Charge ${intent.latest_charge} has already been refunded.`,
          }),
        };
      }
      const status = refundStatuses.shift() ?? "succeeded";
      const refund = {
        id: id("re"),
        object: "refund",
        amount: intent.amount_received,
        payment_intent: intent.id,
        charge: intent.latest_charge,
        status,
        failure_reason: status === "failed" ? "expired_or_canceled_card" : null,
        currency: intent.currency,
      };
      refunds.set(refund.id, refund);
      if (status !== "failed" && status !== "canceled")
        intent.amount_refunded = (intent.amount_refunded ?? 0) + refund.amount;
      return { status: 200, body: refund };
    }
    return {
      status: 404,
      body: errorBody({ type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path})` }),
    };
  }

  function unexpectedState(message: string) {
    return {
      status: 400,
      body: errorBody({ type: "invalid_request_error", code: "payment_intent_unexpected_state", message }),
    };
  }

  function missing(kind: string, objectId: string) {
    return {
      status: 404,
      body: errorBody({
        type: "invalid_request_error",
        code: "resource_missing",
        message: `No such ${kind}: '${objectId}'`,
      }),
    };
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", base);
      const method = req.method ?? "GET";
      const body = method === "GET" ? Object.fromEntries(url.searchParams) : parseStripeForm(raw);
      const path = url.pathname;
      requests.push({ method, path, headers: req.headers, body });

      if (method === "GET" && path.startsWith("/pay/")) {
        const sessionId = path.slice("/pay/".length);
        if (!sessions.has(sessionId)) return res.writeHead(404).end("no such checkout");
        const { successUrl } = completeCheckout(sessionId);
        return res.writeHead(303, { Location: successUrl }).end();
      }
      const delay = delays.find((d) => d.method === method && path.startsWith(d.path) && d.times > 0);
      if (delay) delay.times -= 1;
      const reply = (status: number, payload: Json, extra: Record<string, string>) => {
        if (res.destroyed) return;
        res
          .writeHead(status, { "Content-Type": "application/json", "Request-Id": id("req"), ...extra })
          .end(JSON.stringify(payload));
      };
      const send = (status: number, payload: Json, extra: Record<string, string> = {}) => {
        if (delay) setTimeout(() => reply(status, payload, extra), delay.ms).unref();
        else reply(status, payload, extra);
      };

      if (req.headers.authorization !== `Bearer ${process.env.FAKE_STRIPE_KEY ?? "sk_test_fake"}`) {
        return send(401, errorBody({ type: "invalid_request_error", message: "Invalid API Key provided" }));
      }
      const failure = failures.find((f) => f.method === method && path.startsWith(f.path) && f.times > 0);
      if (failure) {
        failure.times -= 1;
        const key = method === "POST" ? req.headers["idempotency-key"] : undefined;
        if (failure.stored && typeof key === "string")
          idempotent.set(key, { status: failure.status, body: errorBody(failure.error) });
        return send(failure.status, errorBody(failure.error));
      }
      const key = method === "POST" ? req.headers["idempotency-key"] : undefined;
      if (typeof key === "string" && idempotent.has(key)) {
        const replay = idempotent.get(key)!;
        return send(replay.status, replay.body, { "Idempotent-Replayed": "true" });
      }
      const result = route(method, path, body);
      if (typeof key === "string" && result.status < 500) idempotent.set(key, result);
      send(result.status, result.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    paymentIntents,
    sessions,
    refunds,
    requestsTo: (method, pathPrefix) => requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix)),
    failNext: (failure) => failures.push({ times: 1, ...failure }),
    delayNext: (delay) => delays.push({ times: 1, ...delay }),
    clearDelays: () => void delays.splice(0),
    confirm: (intentId, paymentMethod) => confirm(intentId, paymentMethod),
    completeCheckout,
    startProcessing: (intentId) => {
      const intent = paymentIntents.get(intentId);
      if (!intent) throw new Error(`no payment intent ${intentId}`);
      intent.status = "processing";
      return intent;
    },
    nextRefundStatus: (status, times = 1) => {
      for (let i = 0; i < times; i += 1) refundStatuses.push(status);
    },
    settleRefund: (refundId, status, failureReason) => {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`no refund ${refundId}`);
      if (refund.status !== "failed" && status === "failed") {
        const intent = paymentIntents.get(refund.payment_intent)!;
        intent.amount_refunded -= refund.amount;
      }
      refund.status = status;
      refund.failure_reason = status === "failed" ? (failureReason ?? "expired_or_canceled_card") : null;
      return refund;
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Stripe event envelope around an object, as Stripe would post it. */
export function stripeEvent(type: string, object: Json, eventId = id("evt")): Json {
  return {
    id: eventId,
    object: "event",
    api_version: "2026-10-28.endive",
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object },
    pending_webhooks: 1,
  };
}
