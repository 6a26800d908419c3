import { data, Form, redirect } from "react-router";
import { signedPageHeaders } from "../components/inquiry/inquiry-page-route";
import { BackLink, card, inputClass, PageShell, primaryButton } from "../components/ui";
import { DomainName } from "../components/domain-name";
import { domainPagePath } from "../lib/domain-name";
import { INQUIRY_LIMITS } from "../lib/inquiry";
import { formatUsd } from "../lib/money";
import { findDomainByParam } from "../server/catalog/domains.server";
import { clientIp } from "../server/http/request-context.server";
import { env } from "../server/runtime/env.server";
import { buyNowRefusal, startBuyNow, type BuyNowField } from "../server/sale/buy-now.server";
import { testPaymentsEnabled } from "../server/payments/index.server";
import { TEST_MODE_LABEL } from "../lib/test-card";
import type { Route } from "./+types/buy";

// Buy now (issue 37 item 1): name and email, then the provider's hosted checkout at the server's price.
// One form for both modes: the checkout is another site's page, so the post always reloads the document.

export async function loader({ params }: Route.LoaderArgs) {
  const domain = await findDomainByParam(params.domainName);
  if (!domain) throw data({ siteName: env.SITE_NAME }, { status: 404 });
  return {
    siteName: env.SITE_NAME,
    domainName: domain.domain_name,
    priceCents: domain.buy_now_cents,
    refusal: buyNowRefusal(domain),
    testMode: testPaymentsEnabled(),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const domain = await findDomainByParam(params.domainName);
  if (!domain) throw data(null, { status: 404 });
  const form = await request.formData();
  const result = await startBuyNow(domain, form, request, clientIp(context));
  if (result.ok) return redirect(result.checkoutUrl, 303);
  return data(
    {
      error: result.message,
      fieldErrors: result.fieldErrors,
      values: { name: String(form.get("name") ?? ""), email: String(form.get("email") ?? "") },
    },
    { status: result.status },
  );
}

export const headers = signedPageHeaders;

export default function BuyPage({ loaderData, actionData }: Route.ComponentProps) {
  const { domainName, priceCents, refusal } = loaderData;
  const price = priceCents ? formatUsd(priceCents) : "";
  const errors: Partial<Record<BuyNowField, string>> = actionData?.fieldErrors ?? {};
  return (
    <PageShell>
      <BackLink to={domainPagePath(domainName)}>Back to the domain</BackLink>
      <section className={`${card} mt-6`}>
        <h1 className="text-3xl font-semibold break-words">
          Buy <DomainName name={domainName} /> now
        </h1>
        {refusal ? (
          <p role="alert" className="mt-4 text-slate-200">
            {refusal}
          </p>
        ) : (
          <>
            <p className="mt-2 text-slate-300">
              Price: <strong className="text-white">{price}</strong>. You pay it through our card provider; the owner
              then sends you the transfer details on your deal page.
            </p>
            <Form method="post" reloadDocument className="mt-6 space-y-4">
              <Field
                label="Full Name"
                name="name"
                autoComplete="name"
                max={INQUIRY_LIMITS.name}
                error={errors.name}
                value={actionData?.values.name}
              />
              <Field
                label="Email Address"
                name="email"
                type="email"
                autoComplete="email"
                max={INQUIRY_LIMITS.email}
                error={errors.email}
                value={actionData?.values.email}
              />
              {actionData?.error && (
                <div role="alert" className="rounded-lg border border-red-500/50 bg-red-950/60 px-4 py-3 text-red-100">
                  {actionData.error}
                </div>
              )}
              <button type="submit" className={`${primaryButton} w-full text-lg`}>
                {`Pay ${price}`}
              </button>
              {loaderData.testMode ? <p className="text-center text-sm text-amber-200">{TEST_MODE_LABEL}</p> : null}
            </Form>
          </>
        )}
      </section>
    </PageShell>
  );
}

function Field(props: {
  label: string;
  name: BuyNowField;
  type?: string;
  autoComplete: string;
  max: number;
  error?: string;
  value?: string;
}) {
  const errorId = `${props.name}-error`;
  return (
    <label className="block">
      <span className="text-sm font-medium">{props.label}</span>
      <input
        name={props.name}
        type={props.type ?? "text"}
        required
        maxLength={props.max}
        autoComplete={props.autoComplete}
        defaultValue={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        className={`${inputClass} ${props.error ? "border-red-500" : ""}`}
      />
      {props.error ? (
        <span id={errorId} className="mt-1 block text-sm text-red-300">
          {props.error}
        </span>
      ) : null}
    </label>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  const name = loaderData?.domainName ?? "";
  return [{ title: `Buy ${name} | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex" }];
}
