import { data, Form, Link, redirect, useNavigation } from "react-router";
import { card, PageShell, primaryButton } from "../components/ui";
import { env } from "../server/runtime/env.server";
import { markInquiryAnswered, replyLinkView, type ReplyLinkView } from "../server/refunds/refund-promise.server";
import type { Route } from "./+types/owner-reply";

// The owner's "I have replied to this buyer" link from the inquiry email. Signed links need no
// sign-in. GET only shows the confirmation (mail scanners prefetch links); the POST marks the inquiry
// answered, once, then redirects (Post/Redirect/Get) to the thank-you view.

const CONFIRMED_PARAM = "confirmed";

function linkParams(request: Request): URLSearchParams {
  const url = new URL(request.url);
  return url.searchParams;
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const search = linkParams(request);
  const { inquiryId: _id, ...view } = await replyLinkView(params.publicId, search, search.get(CONFIRMED_PARAM) === "1");
  return data({ siteName: env.SITE_NAME, view: view as ReplyLinkView }, { status: view.status });
}

export async function action({ params, request }: Route.ActionArgs) {
  const search = linkParams(request);
  search.delete(CONFIRMED_PARAM);
  const { inquiryId, ...view } = await replyLinkView(params.publicId, search);
  if (view.state === "ready" && inquiryId !== undefined) {
    const result = await markInquiryAnswered(inquiryId, "owner_link");
    // Lost a race with another click or with the deadline: show what the link shows now.
    if (!result.ok) {
      const { inquiryId: _id, ...now } = await replyLinkView(params.publicId, search);
      return data({ view: now as ReplyLinkView }, { status: now.status === 200 ? 409 : now.status });
    }
    search.set(CONFIRMED_PARAM, "1");
    return redirect(`/owner-reply/${encodeURIComponent(params.publicId)}?${search}`, 303);
  }
  return data({ view: view as ReplyLinkView }, { status: view.status });
}

export default function OwnerReplyPage({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData?.view ?? loaderData.view;
  return (
    <PageShell>
      <section className={`${card} text-center`} aria-live="polite">
        <ReplyLinkContent view={view} />
      </section>
    </PageShell>
  );
}

function ReplyLinkContent({ view }: { view: ReplyLinkView }) {
  const navigation = useNavigation();
  switch (view.state) {
    case "ready":
      return (
        <>
          <h1 className="text-3xl font-semibold">Confirm your reply</h1>
          <p className="mt-4 text-slate-300">
            Confirm that you have replied to <strong className="text-slate-100">{view.buyerName}</strong> about{" "}
            <strong className="text-slate-100">{view.domainName}</strong>. The buyer then keeps their inquiry with you,
            and your reply counts toward the reply time shown on your domain pages.
          </p>
          <ConfirmForm busy={navigation.state === "submitting"} />
          <p className="mt-6 text-sm text-slate-300">{`This link works once and expires on ${view.deadline}.`}</p>
        </>
      );
    case "done":
      return (
        <>
          <h1 className="text-3xl font-semibold">Thank you</h1>
          <p className="mt-4 text-slate-300" role="status">
            {`The inquiry from ${view.buyerName} about ${view.domainName} is marked as answered.`}
          </p>
        </>
      );
    case "used":
      return view.byAdmin ? (
        <ProblemView title="This inquiry is already answered">
          {`The site's administrator marked the inquiry about ${view.domainName} as answered on ${view.answeredAt}. Nothing else needs to be done.`}
        </ProblemView>
      ) : (
        <ProblemView title="This link has already been used">
          {`The inquiry about ${view.domainName} was marked as answered on ${view.answeredAt}. Nothing else needs to be done.`}
        </ProblemView>
      );
    case "refunded":
      return (
        <ProblemView title="This inquiry was refunded">
          {`The buyer's fee for the inquiry about ${view.domainName} was refunded${view.refundedAt ? ` on ${view.refundedAt}` : ""}, so there is no reply to confirm. You may still answer the buyer by email.`}
        </ProblemView>
      );
    case "expired":
      return (
        <ProblemView title="This link has expired">
          The reply window for this inquiry has ended
          {view.free ? "." : view.refunded ? " and the buyer's fee was refunded." : ", so the buyer's fee is being refunded automatically."}
        </ProblemView>
      );
    case "not_found":
      return <ProblemView title="This inquiry no longer exists">There is nothing to confirm for this link.</ProblemView>;
    default:
      return (
        <ProblemView title="This link is not valid">
          The link is incomplete or has been changed. Open it again from the inquiry email, copying the whole address.
        </ProblemView>
      );
  }
}

function ConfirmForm({ busy }: { busy: boolean }) {
  // No action: React Router posts to the current URL, signed query string included; the action checks it again.
  return (
    <Form method="post" className="mt-8">
      <button type="submit" className={primaryButton} disabled={busy}>
        {busy ? "Saving..." : "I have replied to this buyer"}
      </button>
    </Form>
  );
}

function ProblemView({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <>
      <h1 className="text-3xl font-semibold">{title}</h1>
      <p className="mt-4 text-slate-300" role="alert">
        {children}
      </p>
      <Link to="/" className={`${primaryButton} mt-8`}>
        Back to Home
      </Link>
    </>
  );
}

export function headers() {
  // The address carries a signature: keep it out of caches and other sites' Referer headers.
  // (same-origin, not no-referrer: with no-referrer the browser posts the form with "Origin: null",
  // which the cross-origin check refuses.)
  return { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `Confirm your reply | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex" }];
}
