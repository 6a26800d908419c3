import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("domain/:domainName", "routes/domain.tsx"),
  route("contact/:domainName", "routes/contact.tsx"),
  route("payment/:domainName", "routes/payment.tsx"),
  route("test-checkout/:checkoutId", "routes/test-checkout.tsx"),
  route("api/create-payment-intent", "routes/api.create-payment-intent.ts"),
  route("api/confirm-payment", "routes/api.confirm-payment.ts"),
  route("api/test-payments/confirm", "routes/api.test-payments.confirm.ts"),
  route("webhooks/stripe", "routes/webhooks.stripe.ts"),
  route("events/fee", "routes/events.fee.ts"),
  route("admin", "routes/admin.tsx"),
  route("admin/inquiries", "routes/admin.inquiries.tsx"),
  route("admin/portfolio", "routes/admin.portfolio.tsx"),
  route("admin/export/domains.csv", "routes/admin.export.domains.ts"),
  route("admin/export/inquiries.csv", "routes/admin.export.inquiries.ts"),
  route("healthz", "routes/healthz.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("sitemaps/:file", "routes/sitemap-part.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
