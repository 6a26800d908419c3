import { data, redirect } from "react-router";
import { DomainName, Price } from "../components/domain-name";
import { InquiryForm, type InquiryValues } from "../components/payment/inquiry-form";
import { PaymentStep } from "../components/payment/payment-step";
import { PaymentNotice, PaymentSuccess } from "../components/payment/payment-success";
import { BackLink, card, NotFoundView, PageShell } from "../components/ui";
import { useLiveFee } from "../components/use-live-fee";
import { displayDomainName, shortDomainName } from "../lib/domain-name";
import { PAYMENT_TEXTS } from "../lib/inquiry";
import { BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS, isDatabaseBusy } from "../server/db/database.server";
import { findDomainByParam } from "../server/catalog/domains.server";
import { env } from "../server/runtime/env.server";
import { activeProviderName } from "../server/payments/index.server";
import { checkoutUrlForInquiry, paymentPagePath, reconcileInquiry, startInquiry } from "../server/payments/flow.server";
import { findInquiryByPublicId, findInquiryForDelistedDomain } from "../server/inquiries/inquiries.server";
import { getInquiryFeeCents } from "../server/catalog/settings.server";
import {
  mayCreatePayment,
  PAYMENTS_PAUSED_TEXT,
  providerAskRateLimit,
  TOO_MANY_CHECKS_TEXT,
  TOO_MANY_DECLINES_TEXT,
} from "../server/payments/card-testing.server";
import type { ProviderName } from "../server/payments/index.server";
import { clientIp, requestValues } from "../server/http/request-context.server";
import { inquiryPagePath } from "../server/inquiries/signed-links.server";
import { INQUIRY_LINK_ON_SUCCESS_MS, isInquiryPayer, payerCookieFor } from "../server/payments/payer-cookie.server";
import {
  currentFeePromise,
  formatUtc,
  getSilencePolicy,
  promisedDays,
} from "../server/inquiries/refund-promise.server";
import { feePromiseText } from "../lib/response-window";
import { formatUsd } from "../lib/money";
import type { Inquiry } from "../../db/schema";
import { now } from "../server/runtime/clock.server";
import type { Route } from "./+types/payment";

const NOT_FOUND_TEXT = "Domain not found.";
const PROVIDER_DOWN_TEXT = "We could not reach the payment provider. Please try again in a moment.";
const CANCELED_TEXT = "Payment canceled. You have not been charged.";
const PROCESSING_TEXT = "Payment processing: we will email you when it completes. There is nothing more to pay.";
const DELISTED_TEXT = "This domain is no longer listed, so this inquiry cannot be paid. You have not been charged.";
const EXPIRED_TEXT =
  "This inquiry was not paid within 24 hours and has expired. Your message is below: send it again at the current fee.";
const busyHeaders = (status: number) =>
  status === 503 ? { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) } : undefined;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const siteName = env.SITE_NAME;
  const url = new URL(request.url);
  const publicId = url.searchParams.get("inquiry");
  const domain = await findDomainByParam(params.domainName);
  // A domain deleted while its buyer was paying: the inquiry is still found, so the payment is recorded.
  const delistedInquiry = !domain && publicId ? await findInquiryForDelistedDomain(params.domainName, publicId) : null;
  if (!domain && !delistedInquiry) return data({ siteName, step: "not-found" as const }, { status: 404 });
  const domainName = domain?.domain_name ?? delistedInquiry!.domain_name;
  const view = { name: domainName, short: shortDomainName(domainName), display: displayDomainName(domainName) };
  const formStep = async (notice: string | null, values: Partial<InquiryValues> = {}) => ({
    siteName,
    step: "form" as const,
    domain: view,
    feeCents: await getInquiryFeeCents(),
    guidingPriceCents: domain?.asking_price_cents ?? null,
    testMode: activeProviderName() === "test",
    notice,
    values,
  });
  // "Edit details" on the payment step comes back here with the unpaid inquiry's values filled in.
  if (!publicId)
    return formStep(null, (domain && (await editedValues(request, url.searchParams.get("edit"), domain.id))) || {});
  const found = delistedInquiry ?? (await findInquiryByPublicId(publicId));
  if (!found || !domain || found.domain_id !== domain.id) {
    if (!delistedInquiry) throw redirect(`/payment/${encodeURIComponent(view.short)}`);
  }
  let state: Awaited<ReturnType<typeof reconcileInquiry>>;
  const askKey = `provider-ask:${clientIp(context)}`;
  try {
    const mayAsk = found!.status !== "pending" || (await providerAskRateLimit.hit(askKey));
    state = mayAsk
      ? await reconcileInquiry(found!)
      : { inquiry: found!, clientSecret: null, lastError: TOO_MANY_CHECKS_TEXT, processing: false };
  } catch (error) {
    requestValues(context).log.error(
      { inquiry: found!.id, error: (error as Error).message },
      "payment reconcile failed",
    );
    // Busy while recording: the provider has just said the payment succeeded, so no Pay button is offered.
    if (isDatabaseBusy(error)) return { siteName, step: "busy" as const, domain: view, message: BUSY_MESSAGE };
    state = { inquiry: found!, clientSecret: null, lastError: PROVIDER_DOWN_TEXT, processing: false };
  }
  const { inquiry } = state;
  if (inquiry.status === "paid" || inquiry.status === "refunded") {
    // Anyone may know the reference (the owner does): only the browser that started the inquiry sees
    // its details, and for an hour after payment the inquiry's signed link; the receipt keeps the link.
    const payer = await isInquiryPayer(request, inquiry.public_id);
    const fresh =
      payer && inquiry.paid_at !== null && now().getTime() - Date.parse(inquiry.paid_at) < INQUIRY_LINK_ON_SUCCESS_MS;
    return {
      siteName,
      step: "success" as const,
      domain: view,
      refunded: payer && inquiry.status === "refunded",
      delisted: !domain,
      inquiryPath: fresh ? inquiryPagePath("buyer", inquiry.public_id) : null,
      // The receipt's address only while the inquiry's link is shown too: a success URL passed on later shows neither.
      facts: payer ? await successFacts(inquiry, fresh) : undefined,
    };
  }
  if (state.processing) return { siteName, step: "processing" as const, domain: view };
  if (!domain) return { siteName, step: "delisted" as const, domain: view };
  if (inquiry.status === "failed") {
    // Expired, or closed after repeated declines: started again at today's fee, with what the buyer wrote.
    const { name, email, phone, offer, message } = inquiry;
    return formStep(inquiry.expired_at ? EXPIRED_TEXT : TOO_MANY_DECLINES_TEXT, { name, email, phone, offer, message });
  }
  const notice = url.searchParams.has("failed")
    ? PAYMENT_TEXTS.initFailed
    : url.searchParams.has("paused")
      ? PAYMENTS_PAUSED_TEXT
      : url.searchParams.has("canceled")
        ? CANCELED_TEXT
        : null;
  return {
    siteName,
    step: "payment" as const,
    domain: view,
    payment: {
      inquiryId: inquiry.public_id,
      amountCents: inquiry.amount_cents,
      provider: inquiry.provider === "stripe" ? ("stripe" as const) : ("test" as const),
      clientSecret: state.clientSecret,
      paymentId: inquiry.payment_intent_id,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? null,
      returnPath: paymentPagePath(inquiry),
      editPath: `/payment/${encodeURIComponent(view.short)}?edit=${encodeURIComponent(inquiry.public_id)}`,
      error: state.lastError ?? notice,
      promise: inquiry.amount_cents > 0 ? await currentFeePromise() : null,
    },
  };
}

/** What the success page states, all from the server's record of the inquiry (issue #26 item 6). */
async function successFacts(inquiry: Inquiry, fresh: boolean) {
  const paidInMoney = inquiry.amount_cents > 0 && inquiry.provider !== "credit";
  const promise =
    inquiry.status !== "paid" || inquiry.amount_cents === 0
      ? null
      : paidInMoney
        ? feePromiseText(await getSilencePolicy(), promisedDays(inquiry))
        : "If the owner doesn't reply by then, you get a new credit.";
  return {
    reference: inquiry.public_id,
    amount:
      inquiry.amount_cents === 0
        ? "Free"
        : inquiry.provider === "credit"
          ? "Paid with a credit"
          : formatUsd(inquiry.amount_cents),
    money: paidInMoney,
    testPayment: inquiry.provider === "test",
    replyBy: inquiry.reply_deadline_at ? formatUtc(inquiry.reply_deadline_at) : null,
    promise,
    // A receipt is sent only for a fee (app/server/inquiries/refund-promise.server.ts, queueBuyerReceipt).
    receiptTo: fresh && inquiry.amount_cents > 0 ? inquiry.email : null,
  };
}

/**
 * "Edit details" (or Back) from the payment step: the form again, filled with what the buyer typed. Only
 * while unpaid, and only in the browser that started the inquiry (the reference alone opens nothing).
 */
async function editedValues(
  request: Request,
  publicId: string | null,
  domainId: number,
): Promise<Partial<InquiryValues> | null> {
  if (!publicId || !(await isInquiryPayer(request, publicId))) return null;
  const inquiry = await findInquiryByPublicId(publicId);
  if (!inquiry || inquiry.domain_id !== domainId || inquiry.status !== "pending") return null;
  return {
    name: inquiry.name,
    email: inquiry.email,
    phone: inquiry.phone,
    offer: inquiry.offer,
    message: inquiry.message,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const domain = await findDomainByParam(params.domainName);
  if (!domain) throw data(null, { status: 404 });
  const form = Object.fromEntries(await request.formData());
  if (form.intent === "inquiry") {
    const started = await startInquiry(clientIp(context), domain, form);
    if (started.kind === "invalid") {
      const values = {
        name: form.name,
        email: form.email,
        phone: form.phone,
        offer: form.offer,
        message: form.message,
      };
      return data(
        {
          error: started.message,
          fieldErrors: started.fieldErrors,
          values: values as Partial<InquiryValues>,
          belowMinimum: started.belowMinimum ?? false,
          creditCode: typeof form.credit_code === "string" ? form.credit_code.slice(0, 64) : "",
        },
        { status: started.status, headers: busyHeaders(started.status) },
      );
    }
    const headers = { "Set-Cookie": await payerCookieFor(request, started.inquiry.public_id) };
    if (started.kind === "free") return redirect(paymentPagePath(started.inquiry), { status: 303, headers });
    try {
      return redirect(await checkoutUrlForInquiry(request, started.inquiry), { status: 303, headers });
    } catch (error) {
      requestValues(context).log.error(
        { inquiry: started.inquiry.id, error: (error as Error).message },
        "checkout creation failed",
      );
      return redirect(`${paymentPagePath(started.inquiry)}&failed=1`, { status: 303, headers });
    }
  }
  if (form.intent === "checkout") {
    const inquiry = await findInquiryByPublicId(String(form.inquiry ?? ""));
    if (!inquiry || inquiry.domain_id !== domain.id) throw data(null, { status: 404 });
    if (inquiry.status !== "pending") return redirect(paymentPagePath(inquiry), 303);
    if (!(await mayCreatePayment(clientIp(context), inquiry.provider as ProviderName)))
      return redirect(`${paymentPagePath(inquiry)}&paused=1`, 303);
    try {
      // The browser that pays an unpaid inquiry is its buyer's (the owner never sees an unpaid one).
      const headers = { "Set-Cookie": await payerCookieFor(request, inquiry.public_id) };
      return redirect(await checkoutUrlForInquiry(request, inquiry), { status: 303, headers });
    } catch (error) {
      requestValues(context).log.error(
        { inquiry: inquiry.id, error: (error as Error).message },
        "checkout creation failed",
      );
      return redirect(`${paymentPagePath(inquiry)}&failed=1`, 303);
    }
  }
  throw data(null, { status: 400 });
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  // The payment step carries a client secret: never cached, never shown to another visitor.
  const retryAfter = actionHeaders.get("Retry-After");
  return {
    "Cache-Control": "no-store",
    "Referrer-Policy": "same-origin",
    ...(retryAfter ? { "Retry-After": retryAfter } : {}),
  };
}

export default function PaymentPage({ loaderData, actionData }: Route.ComponentProps) {
  const feeCents = useLiveFee(loaderData.step === "form" ? loaderData.feeCents : 0);
  if (loaderData.step === "not-found") return <NotFoundView message={NOT_FOUND_TEXT} />;
  const { domain } = loaderData;
  return (
    <PageShell>
      <BackLink to={`/domain/${encodeURIComponent(domain.short)}`}>Back to {domain.display}</BackLink>
      <section className={`${card} mt-6`}>
        {loaderData.step === "form" && (
          <>
            <StepHeading
              title="Domain Inquiry"
              domainName={domain.display}
              guidingPriceCents={loaderData.guidingPriceCents}
            />
            <InquiryForm
              key={actionData ? JSON.stringify(actionData) : JSON.stringify(loaderData.values ?? "empty")}
              domainName={domain.name}
              feeCents={feeCents}
              testMode={loaderData.testMode}
              error={actionData?.error ?? loaderData.notice}
              fieldErrors={actionData?.fieldErrors ?? {}}
              values={actionData?.values ?? loaderData.values ?? {}}
              belowMinimum={actionData?.belowMinimum ?? false}
              creditCode={actionData?.creditCode}
              guidingPriceCents={loaderData.guidingPriceCents}
            />
          </>
        )}
        {loaderData.step === "payment" && (
          <>
            <StepHeading title="Complete Payment" domainName={domain.display} />
            <PaymentStep domainName={domain.name} {...loaderData.payment} />
          </>
        )}
        {loaderData.step === "success" && (
          <PaymentSuccess
            domainName={domain.display}
            refunded={loaderData.refunded}
            delisted={loaderData.delisted}
            inquiryPath={loaderData.inquiryPath}
            facts={loaderData.facts}
          />
        )}
        {loaderData.step === "processing" && <PaymentNotice title="Payment processing" text={PROCESSING_TEXT} />}
        {loaderData.step === "delisted" && <PaymentNotice title="Domain no longer listed" text={DELISTED_TEXT} />}
        {loaderData.step === "busy" && <PaymentNotice title="Payment processing" text={loaderData.message} />}
      </section>
    </PageShell>
  );
}

function StepHeading({
  title,
  domainName,
  guidingPriceCents = null,
}: {
  title: string;
  domainName: string;
  /** On the inquiry form: the price the buyer's offer is read against. */
  guidingPriceCents?: number | null;
}) {
  return (
    <header>
      <h1 className="text-3xl font-semibold">{title}</h1>
      <p className="mt-2 text-slate-300">
        Contact the owner of{" "}
        <strong className="block text-white">
          <DomainName name={domainName} fit />
        </strong>
      </p>
      {guidingPriceCents !== null ? (
        <p className="mt-2 text-slate-300">
          Guiding price:{" "}
          <strong className="text-lg text-blue-300">
            <Price>{formatUsd(guidingPriceCents)}</Price>
          </strong>
        </p>
      ) : null}
    </header>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  const siteName = loaderData?.siteName ?? "";
  if (!loaderData || loaderData.step === "not-found") {
    return [
      { title: `Domain not found | ${siteName}` },
      { name: "description", content: "Domain not found." },
      { name: "robots", content: "noindex" },
    ];
  }
  const titles = {
    form: "Domain Inquiry",
    payment: "Complete Payment",
    success: "Payment Successful",
    processing: "Payment processing",
    delisted: "Domain no longer listed",
    busy: "Payment processing",
  } as const;
  return [
    { title: `${titles[loaderData.step]}: ${loaderData.domain.display} | ${siteName}` },
    { name: "description", content: `${loaderData.domain.display} is for sale. Send your inquiry to the owner.` },
    { name: "robots", content: "noindex" },
  ];
}
