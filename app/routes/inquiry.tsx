import { data } from "react-router";
import { Conversation } from "../components/inquiry/conversation";
import { InquirySummary } from "../components/inquiry/inquiry-summary";
import { card, PageShell } from "../components/ui";
import { findSignedInquiry, inquiryPageView } from "../server/conversation/inquiry-page.server";
import { env } from "../server/runtime/env.server";
import type { Route } from "./+types/inquiry";

// The buyer's inquiry page, at the signed link from the success step and the receipt email. A wrong
// id or signature, or an inquiry that was never paid, is the site's plain 404: no hint of what exists.

export async function loader({ params, request }: Route.LoaderArgs) {
  const sig = new URL(request.url).searchParams.get("sig");
  const inquiry = await findSignedInquiry("buyer", params.publicId, sig);
  if (!inquiry) throw data({ siteName: env.SITE_NAME }, { status: 404 });
  return { siteName: env.SITE_NAME, view: await inquiryPageView("buyer", inquiry) };
}

export default function InquiryPage({ loaderData }: Route.ComponentProps) {
  const { view } = loaderData;
  return (
    <PageShell>
      <section className={card}>
        <h1 className="text-3xl font-semibold break-words">{`Your inquiry for ${view.domainName}`}</h1>
        <InquirySummary view={view} />
        <Conversation view={view} />
      </section>
    </PageShell>
  );
}

export function headers() {
  // The address is the buyer's key to the page: never cached, never sent to another site.
  return { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `Your inquiry | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex" }];
}
