// Security headers for every response. Pure functions: server.ts applies them, unit tests check them.

export interface SecurityOptions {
  /** STRIPE_API_BASE: a Stripe-compatible server (tests) the payment pages may talk to. */
  stripeApiBase?: string;
}

// Stripe's documented hosts for Stripe.js, the Payment Element and Checkout, allowed on payment pages only.
const STRIPE_HOSTS = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  connect: [
    "https://api.stripe.com",
    "https://m.stripe.network",
    "https://q.stripe.com",
    "https://r.stripe.com",
    "https://errors.stripe.com",
  ],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  img: ["https://*.stripe.com"],
  form: ["https://checkout.stripe.com"],
};

/** The path as React Router matches it: percent-decoded and lower-case (routes are case-insensitive). */
export function normalizedPath(rawPath: string): string {
  const path = rawPath.split("?")[0] ?? "";
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // a malformed escape: match on the raw text
  }
  return decoded.toLowerCase().replace(/\/{2,}/g, "/");
}

function underSection(path: string, section: string): boolean {
  // "/admin", "/admin/...", and React Router's data requests "/admin.data"
  return path === section || path.startsWith(`${section}/`) || path.startsWith(`${section}.`);
}

export function isPaymentPath(path: string): boolean {
  return underSection(normalizedPath(path), "/payment");
}

/** Pages with personal, payment or admin data: never stored by a browser or a shared cache. */
export function isPrivatePath(path: string): boolean {
  return isPrivateSection(normalizedPath(path));
}

function isPrivateSection(normalized: string): boolean {
  return (
    underSection(normalized, "/admin") ||
    underSection(normalized, "/payment") ||
    underSection(normalized, "/test-checkout") ||
    underSection(normalized, "/buy") ||
    underSection(normalized, "/deal") ||
    underSection(normalized, "/owner")
  );
}

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

export function contentSecurityPolicy(options: { nonce: string; path: string; stripeApiBase?: string }): string {
  return policyFor(isPaymentPath(options.path), options.nonce, options.stripeApiBase);
}

function policyFor(payment: boolean, nonce: string, stripeApiBase: string | undefined): string {
  const extra = (hosts: string[]) => (payment ? hosts : []);
  const testStripe = payment ? [originOf(stripeApiBase)].filter((origin): origin is string => origin !== null) : [];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, ...extra(STRIPE_HOSTS.script)],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", ...extra(STRIPE_HOSTS.img)],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...extra(STRIPE_HOSTS.connect), ...testStripe],
    "frame-src": payment ? STRIPE_HOSTS.frame : ["'none'"],
    "form-action": ["'self'", ...extra(STRIPE_HOSTS.form), ...testStripe],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
    "manifest-src": ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

const NONCE_SLOT = "\u0000nonce\u0000";
/** Headers per kind of response (payment page, private page, HTTPS), with a slot for the nonce: built once, not per request. */
const templates = new Map<string, { csp: [before: string, after: string]; rest: Record<string, string> }>();

function headerTemplate(options: SecurityOptions, payment: boolean, privatePath: boolean, https: boolean) {
  const key = `${payment} ${privatePath} ${https} ${options.stripeApiBase ?? ""}`;
  let template = templates.get(key);
  if (!template) {
    const csp = policyFor(payment, NONCE_SLOT, options.stripeApiBase);
    const rest: Record<string, string> = {
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "X-Frame-Options": "DENY",
      "Cross-Origin-Opener-Policy": "same-origin",
      "Permissions-Policy": payment
        ? 'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com")'
        : "camera=(), microphone=(), geolocation=(), payment=()",
    };
    if (https) rest["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
    if (privatePath) rest["Cache-Control"] = "no-store";
    const [before = "", after = ""] = csp.split(NONCE_SLOT);
    template = { csp: [before, after], rest };
    templates.set(key, template);
  }
  return template;
}

/**
 * The headers for one response; the CSP nonce is made per request by the caller, and `https` says
 * whether the browser reached us over HTTPS (app/server/http/proxy.server.ts): HSTS only then.
 */
export function securityHeaders(
  options: SecurityOptions,
  request: { path: string; nonce: string; https: boolean },
): Record<string, string> {
  const path = normalizedPath(request.path);
  const payment = underSection(path, "/payment");
  const privatePath = isPrivateSection(path);
  const template = headerTemplate(options, payment, privatePath, request.https);
  return { "Content-Security-Policy": `${template.csp[0]}${request.nonce}${template.csp[1]}`, ...template.rest };
}
