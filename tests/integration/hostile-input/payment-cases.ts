// Hostile input for the payment flow: the inquiry form (no-JS path), the JSON routes the browser calls,
// the test checkout page and the Stripe webhook. "{origin}" in a header is replaced by the server's origin.
import { CONTROL_PAYLOADS, encoded, SQL_PAYLOADS, UNICODE_PAYLOADS, XSS_PAYLOADS, type HostileCase } from "./cases";

const FORM = { "Content-Type": "application/x-www-form-urlencoded", Origin: "{origin}" };
const JSON_SAME_ORIGIN = { "Content-Type": "application/json", Origin: "{origin}" };
const VALID = { intent: "inquiry", name: "Ada Buyer", email: "ada@example.test", phone: "", offer: "", message: "I would like to buy it." };

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

const fieldPayloads = [
  ...XSS_PAYLOADS.slice(0, 4),
  ...SQL_PAYLOADS.slice(0, 4),
  ...CONTROL_PAYLOADS.slice(0, 4),
  ...UNICODE_PAYLOADS.slice(0, 5),
  "x".repeat(5_001),
  "y".repeat(200_000),
  "",
  "   ",
];

const inquiryFieldCases: HostileCase[] = (["name", "email", "phone", "offer", "message"] as const).flatMap((field) =>
  fieldPayloads.map<HostileCase>((payload) => ({
    name: `inquiry form ${field}=${JSON.stringify(payload).slice(0, 30)}`,
    method: "POST",
    path: "/payment/velora",
    headers: FORM,
    body: form({ ...VALID, [field]: payload }),
    expect: "handled",
    mustNotContain: /[<>]/.test(payload) ? [payload] : [],
  })),
);

const offerValues = ["-1", "NaN", "Infinity", "-Infinity", "1e309", "-0", "0x10", "1,000,000", "$5", "99999999999999999999999", "0.0000001"];

export const paymentCases: HostileCase[] = [
  ...inquiryFieldCases,
  ...offerValues.map<HostileCase>((offer) => ({
    name: `inquiry offer=${offer}`,
    method: "POST",
    path: "/payment/velora",
    headers: FORM,
    body: form({ ...VALID, offer }),
    expect: "handled",
  })),
  ...(["name", "email", "message"] as const).map<HostileCase>((field) => ({
    name: `inquiry without ${field}`,
    method: "POST",
    path: "/payment/velora",
    headers: FORM,
    body: form(Object.fromEntries(Object.entries(VALID).filter(([key]) => key !== field))),
    expect: "4xx",
    status: 400,
  })),
  { name: "inquiry with an unknown intent", method: "POST", path: "/payment/velora", headers: FORM, body: form({ ...VALID, intent: "refund-everything" }), expect: "4xx", status: 400 },
  { name: "inquiry with no intent", method: "POST", path: "/payment/velora", headers: FORM, body: "name=a", expect: "4xx", status: 400 },
  { name: "inquiry with every field twice", method: "POST", path: "/payment/velora", headers: FORM, body: `${form(VALID)}&${form({ ...VALID, name: "<b>x</b>" })}`, expect: "handled", mustNotContain: ["<b>x</b>"] },
  { name: "inquiry with an amount field (ignored)", method: "POST", path: "/payment/velora", headers: FORM, body: form({ ...VALID, amount: "-100", amount_cents: "1e309" }), expect: "handled" },
  { name: "inquiry with the honeypot filled", method: "POST", path: "/payment/velora", headers: FORM, body: form({ ...VALID, website: "http://spam.example" }), expect: "handled" },
  { name: "inquiry for a missing domain", method: "POST", path: "/payment/no-such-domain-anywhere", headers: FORM, body: form(VALID), expect: "4xx", status: 404 },
  { name: "inquiry for a hostile domain", method: "POST", path: `/payment/${encoded("<script>alert(1)</script>")}`, headers: FORM, body: form(VALID), expect: "4xx", mustNotContain: ["<script>alert(1)</script>"] },
  { name: "checkout with a forged inquiry id", method: "POST", path: "/payment/velora", headers: FORM, body: form({ intent: "checkout", inquiry: "' OR 1=1 --" }), expect: "4xx", status: 404 },
  { name: "checkout with a huge inquiry id", method: "POST", path: "/payment/velora", headers: FORM, body: form({ intent: "checkout", inquiry: "a".repeat(100_000) }), expect: "4xx" },
  { name: "inquiry form as JSON", method: "POST", path: "/payment/velora", headers: JSON_SAME_ORIGIN, body: JSON.stringify(VALID), expect: "4xx", status: 415 },
  { name: "inquiry form as text/plain", method: "POST", path: "/payment/velora", headers: { "Content-Type": "text/plain", Origin: "{origin}" }, body: form(VALID), expect: "4xx", status: 415 },
  { name: "inquiry form without a Content-Type", method: "POST", path: "/payment/velora", headers: { Origin: "{origin}" }, body: form(VALID), expect: "4xx", status: 415 },
  { name: "inquiry form as multipart without boundary", method: "POST", path: "/payment/velora", headers: { "Content-Type": "multipart/form-data", Origin: "{origin}" }, body: "x", expect: "4xx", status: 415 },
  { name: "inquiry form as broken multipart", method: "POST", path: "/payment/velora", headers: { "Content-Type": "multipart/form-data; boundary=zzz", Origin: "{origin}" }, body: "--zzz\r\nbroken", expect: "handled" },
  { name: "inquiry form as data request with JSON", method: "POST", path: "/payment/velora.data", headers: JSON_SAME_ORIGIN, body: "{}", expect: "4xx", status: 415 },
  { name: "inquiry form over the body limit", method: "POST", path: "/payment/velora", headers: FORM, body: form({ ...VALID, message: "m".repeat(2 * 1024 * 1024) }), expect: "4xx", status: 413 },
  { name: "inquiry form from another site", method: "POST", path: "/payment/velora", headers: { ...FORM, Origin: "https://evil.example" }, body: form(VALID), expect: "4xx" },
  { name: "payment page with a forged inquiry", path: `/payment/velora?inquiry=${encoded("<script>x</script>")}`, expect: "3xx", mustNotContain: ["<script>x</script>"] },
  { name: "payment page with junk flags", path: "/payment/velora?inquiry=&failed=%00&canceled=<b>", expect: "handled", mustNotContain: ["<b>"] },
  ...[...XSS_PAYLOADS.slice(0, 3), "..%2F..%2Fadmin", "%00", "a".repeat(300)].map<HostileCase>((name) => ({
    name: `payment page for ${JSON.stringify(name).slice(0, 30)}`,
    path: `/payment/${name.includes("%") ? name : encoded(name)}`,
    expect: "4xx",
    mustNotContain: /[<>]/.test(name) ? [name] : [],
  })),

  // JSON routes used by the JavaScript flow.
  ...[
    ["invalid JSON", "{"],
    ["JSON array", "[1,2,3]"],
    ["JSON string", '"hello"'],
    ["JSON null", "null"],
    ["deeply nested JSON", `${"[".repeat(5_000)}${"]".repeat(5_000)}`],
    ["amount and fee in the body", JSON.stringify({ domain_name: "velora", amount: -100, fee: 1e308, customer_info: { name: "A", email: "a@example.test", message: "m" } })],
    ["1e309 literal", '{"domain_name":"velora","amount":1e309}'],
    ["hostile customer_info", JSON.stringify({ domain_name: "velora", customer_info: { name: "<script>alert(1)</script>", email: "' OR 1=1", message: "\u0000", offer: "NaN" } })],
    ["customer_info as a string", JSON.stringify({ domain_name: "velora", customer_info: "x" })],
    ["domain_name as an object", JSON.stringify({ domain_name: { $ne: null } })],
    ["domain_name path trick", JSON.stringify({ domain_name: "../../admin" })],
    ["__proto__ pollution", '{"__proto__":{"isAdmin":true},"domain_name":"velora","constructor":{"prototype":{"x":1}}}'],
  ].map<HostileCase>(([label, body]) => ({
    name: `create-payment-intent: ${label}`,
    method: "POST",
    path: "/api/create-payment-intent",
    headers: JSON_SAME_ORIGIN,
    body,
    expect: "handled",
    mustNotContain: ["<script>alert(1)</script>"],
  })),
  { name: "create-payment-intent without Origin", method: "POST", path: "/api/create-payment-intent", headers: { "Content-Type": "application/json" }, body: "{}", expect: "4xx", status: 403 },
  { name: "create-payment-intent from another site", method: "POST", path: "/api/create-payment-intent", headers: { ...JSON_SAME_ORIGIN, Origin: "https://evil.example" }, body: "{}", expect: "4xx", status: 403 },
  { name: "create-payment-intent with Origin null", method: "POST", path: "/api/create-payment-intent", headers: { ...JSON_SAME_ORIGIN, Origin: "null" }, body: "{}", expect: "4xx", status: 403 },
  { name: "create-payment-intent as a form", method: "POST", path: "/api/create-payment-intent", headers: FORM, body: "domain_name=velora", expect: "4xx" },
  { name: "create-payment-intent over its limit", method: "POST", path: "/api/create-payment-intent", headers: JSON_SAME_ORIGIN, body: JSON.stringify({ pad: "p".repeat(64 * 1024) }), expect: "4xx", status: 413 },
  { name: "create-payment-intent by GET", path: "/api/create-payment-intent", expect: "4xx", status: 405 },
  ...["", "pi_<script>", "' OR '1'='1", "a".repeat(10_000), "\u0000"].map<HostileCase>((id) => ({
    name: `confirm-payment id ${JSON.stringify(id).slice(0, 20)}`,
    method: "POST",
    path: "/api/confirm-payment",
    headers: JSON_SAME_ORIGIN,
    body: JSON.stringify({ payment_intent_id: id, domain_name: "velora", customer_info: {} }),
    expect: "4xx",
    mustNotContain: ["pi_<script>"],
  })),
  { name: "confirm-payment with invalid JSON", method: "POST", path: "/api/confirm-payment", headers: JSON_SAME_ORIGIN, body: "{'a':", expect: "4xx" },
  ...[
    { client_secret: "<script>", card_number: "4242424242424242", expiry: "12/40", cvc: "123" },
    { client_secret: "x", card_number: "' OR 1=1", expiry: "99/99", cvc: "<b>" },
    { client_secret: 123, card_number: ["4242"], expiry: null, cvc: {} },
    { client_secret: "y", card_number: "4".repeat(3_000), expiry: "-1/-1", cvc: "NaN" },
  ].map<HostileCase>((body, index) => ({
    name: `test card confirm #${index + 1}`,
    method: "POST",
    path: "/api/test-payments/confirm",
    headers: JSON_SAME_ORIGIN,
    body: JSON.stringify(body),
    expect: "4xx",
    mustNotContain: ["<script>", "<b>"],
  })),

  // The test provider's checkout page (no-JS card entry).
  ...["<script>alert(1)</script>", "' OR 1=1", "..%2F..%2Fadmin", "a".repeat(500), "%00"].map<HostileCase>((id) => ({
    name: `test checkout ${JSON.stringify(id).slice(0, 20)}`,
    path: `/test-checkout/${id.includes("%") ? id : encoded(id)}`,
    expect: "4xx",
    mustNotContain: ["<script>alert(1)</script>"],
  })),
  { name: "test checkout POST for a forged id", method: "POST", path: "/test-checkout/forged", headers: FORM, body: "card_number=4242424242424242&expiry=12%2F40&cvc=123", expect: "4xx" },
  { name: "test checkout POST as JSON", method: "POST", path: "/test-checkout/forged", headers: JSON_SAME_ORIGIN, body: "{}", expect: "4xx", status: 415 },

  // Stripe's webhook (without STRIPE_WEBHOOK_SECRET it is not configured; either way, never a 500).
  { name: "webhook without signature", method: "POST", path: "/webhooks/stripe", headers: { "Content-Type": "application/json" }, body: '{"type":"payment_intent.succeeded"}', expect: "4xx" },
  { name: "webhook with a forged signature", method: "POST", path: "/webhooks/stripe", headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=deadbeef" }, body: "{}", expect: "4xx" },
  { name: "webhook with garbage", method: "POST", path: "/webhooks/stripe", headers: { "Content-Type": "text/plain", "Stripe-Signature": "<script>" }, body: "\u0000\u0001", expect: "4xx" },
  { name: "webhook over the body limit", method: "POST", path: "/webhooks/stripe", headers: { "Content-Type": "application/json", "Content-Length": String(5 * 1024 * 1024) }, body: "{}", expect: "4xx", status: 413 },
  { name: "webhook by GET", path: "/webhooks/stripe", expect: "4xx", status: 405 },
];
