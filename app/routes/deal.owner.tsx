import { Form } from "react-router";
import { signedPageHeaders } from "../components/inquiry/inquiry-page-route";
import { CancelDealForm, DealError, DealNotice, DealSummary } from "../components/sale/deal-summary";
import { card, inputClass, PageShell, primaryButton } from "../components/ui";
import { dealPageAction, dealPageLoader } from "../server/sale/deal-page.server";
import { TRANSFER_LIMITS } from "../lib/sale";
import type { Route } from "./+types/deal.owner";

// The owner's deal page, at the signed link in the owner's "has been sold" email: the transfer handover.

export async function loader({ params, request }: Route.LoaderArgs) {
  return dealPageLoader("owner", params.publicId, request);
}

export async function action({ params, request }: Route.ActionArgs) {
  return dealPageAction("owner", params.publicId, request);
}

export const headers = signedPageHeaders;

export default function OwnerDealPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view } = loaderData;
  const values = actionData?.values;
  return (
    <PageShell>
      <section className={card}>
        <h1 className="text-3xl font-semibold break-words">{`Sale of ${view.domainName}`}</h1>
        <DealNotice text={actionData ? null : view.notice} />
        <DealSummary view={view} />
        {view.status === "paid" ? (
          <Form method="post" className="mt-6 space-y-4">
            <p className="text-slate-300">
              Give the buyer the authorization code, or say how you moved the name (for example, pushed to their
              registrar account). The code is shown only to the buyer, on their page, never in an email.
            </p>
            <label className="block">
              <span className="text-sm font-medium">Authorization code</span>
              <input
                name="authCode"
                maxLength={TRANSFER_LIMITS.code}
                autoComplete="off"
                defaultValue={values?.code}
                className={inputClass}
              />
            </label>
            <label className="block">
              <span className="text-sm font-medium">Or a note to the buyer</span>
              <textarea
                name="transferNote"
                rows={3}
                maxLength={TRANSFER_LIMITS.note}
                defaultValue={values?.note}
                className={inputClass}
              />
            </label>
            <DealError text={actionData?.error} />
            <button type="submit" name="intent" value="send-transfer" className={primaryButton}>
              Send transfer details
            </button>
          </Form>
        ) : (
          <DealError text={actionData?.error} />
        )}
        {view.status === "agreed" ? <CancelDealForm /> : null}
      </section>
    </PageShell>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `Sale | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex" }];
}
