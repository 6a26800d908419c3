import { Form } from "react-router";
import { signedPageHeaders } from "../components/inquiry/inquiry-page-route";
import { CancelDealForm, DealError, DealNotice, DealSummary } from "../components/sale/deal-summary";
import { formatUsd } from "../lib/money";
import { card, PageShell, primaryButton } from "../components/ui";
import { dealPageAction, dealPageLoader } from "../server/sale/deal-page.server";
import type { Route } from "./+types/deal";

// The buyer's deal page, at the signed link from the checkout's return and the emails. A wrong id or
// signature is the site's plain 404.

export async function loader({ params, request }: Route.LoaderArgs) {
  return dealPageLoader("buyer", params.publicId, request);
}

export async function action({ params, request }: Route.ActionArgs) {
  return dealPageAction("buyer", params.publicId, request);
}

export const headers = signedPageHeaders;

export default function DealPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view } = loaderData;
  return (
    <PageShell>
      <section className={card}>
        <h1 className="text-3xl font-semibold break-words">{`Your purchase of ${view.domainName}`}</h1>
        <DealNotice text={actionData ? null : view.notice} />
        {view.lostText ? (
          <p role="alert" className="mt-4 text-slate-200">
            {view.lostText}
          </p>
        ) : null}
        <DealSummary view={view} />
        {view.checkoutUrl ? (
          <a href={view.checkoutUrl} className={`${primaryButton} mt-6`}>
            Continue to payment
          </a>
        ) : null}
        {view.status === "agreed" ? (
          <>
            <Form method="post" reloadDocument className="mt-6">
              <button type="submit" name="intent" value="pay" className={primaryButton}>
                {`Pay ${formatUsd(view.amountDueCents)}`}
              </button>
            </Form>
            <CancelDealForm />
          </>
        ) : null}
        {view.status === "paid" ? (
          <p className="mt-6 text-slate-300">
            The owner has been asked to send the transfer details. They will appear here, and you will get an email.
          </p>
        ) : null}
        {view.status === "transferred" || view.status === "completed" ? <TransferDetails view={view} /> : null}
        {view.status === "transferred" ? (
          <Form method="post" className="mt-6">
            <p className="text-slate-300">Once the name is in your registrar account, confirm it:</p>
            <button type="submit" name="intent" value="received" className={`${primaryButton} mt-3`}>
              I have received the domain
            </button>
          </Form>
        ) : null}
        <DealError text={actionData?.error} />
      </section>
    </PageShell>
  );
}

function TransferDetails({ view }: { view: Route.ComponentProps["loaderData"]["view"] }) {
  return (
    <section aria-labelledby="transfer-heading" className="mt-6 rounded-xl border border-slate-700 p-4">
      <h2 id="transfer-heading" className="text-lg font-semibold">
        Transfer details
      </h2>
      {view.transferCode ? (
        <p className="mt-2">
          Authorization code:{" "}
          <code className="rounded bg-slate-950 px-2 py-1 break-all text-white">{view.transferCode}</code>
        </p>
      ) : null}
      {view.transferNote ? <p className="mt-2 whitespace-pre-wrap break-words">{view.transferNote}</p> : null}
      <p className="mt-2 text-sm text-slate-400">Keep the code private: it lets its holder move the name.</p>
    </section>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `Your purchase | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex" }];
}
