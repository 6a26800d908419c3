import { Link, useRouteLoaderData } from "react-router";
import { categoryPath } from "../lib/categories";
import { displayDomainName, shortDomainName } from "../lib/domain-name";
import { formatUsd } from "../lib/money";
import { replyTimeText } from "../lib/response-window";
import { DomainName, Price } from "./domain-name";
import { TEST_MODE_LABEL } from "../lib/test-card";
import { ChatIcon, LockIcon } from "./icons";
import { BackLink, card, PageShell, primaryButton, secondaryButton } from "./ui";
import { useLiveFee } from "./use-live-fee";
import { SimilarNames } from "./similar-names";
import type { SimilarName } from "../lib/seo";

/**
 * A domain's for-sale page: shared by /domain/{short} and the lander a listed domain's own host
 * shows at /. The inquiry link is relative, so it works on whichever host serves the page.
 */
export function DomainView(props: {
  domain: { name: string; askingPriceCents: number };
  feeCents: number;
  /** Owner's typical reply time in days; shown when known. */
  replyDays?: number | null;
  back: { to: string; label: string } | null;
  /** The name's categories, each linking to its page. */
  categories?: Array<{ slug: string; name: string }>;
  /** The owner's short description, shown under the name. */
  pitch?: string | null;
  /** "More names like this" (similar.server.ts). */
  similar: SimilarName[];
  /** The fee's promise from the settings (feePromiseText), shown while there is a fee. */
  feePromise?: string;
  /** The buy now price: a "Buy now for $X" button beside the inquiry while the name is not under offer. */
  buyNowCents?: number | null;
  saleState?: "under_offer" | null;
}) {
  const { domain, back } = props;
  const feeCents = useLiveFee(props.feeCents);
  const shownName = displayDomainName(domain.name);
  const fee = formatUsd(feeCents);
  // The root loader's: whether the site takes test payments only (then no money moves).
  const testMode = useRouteLoaderData<{ testMode: boolean }>("root")?.testMode ?? false;
  return (
    <PageShell>
      {back ? <BackLink to={back.to}>{back.label}</BackLink> : null}
      <section className={`${card} ${back ? "mt-6" : ""} text-center`}>
        {/* The name on its own line (it shrinks to fit, then breaks at its dots), "is for sale" under it. */}
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">
          <DomainName name={domain.name} fit />{" "}
          <span className="mt-2 block text-2xl font-semibold text-slate-300 sm:text-3xl">is for sale</span>
        </h1>
        {props.pitch ? <p className="mt-4 break-words text-lg text-slate-200">{props.pitch}</p> : null}
        <p className="mt-6 text-sm uppercase tracking-widest text-slate-300">Guiding Price</p>
        <p className="mt-1 text-4xl font-semibold text-blue-300">
          <Price>{formatUsd(domain.askingPriceCents)}</Price>
        </p>
        {props.saleState === "under_offer" ? (
          <p
            data-sale-state
            className="mt-4 inline-block rounded-full bg-amber-400/15 px-3 py-1 font-medium text-amber-200"
          >
            Under offer
          </p>
        ) : (
          <p className="mt-4 text-slate-300">Premium domain available for acquisition</p>
        )}
        {props.categories && props.categories.length > 0 ? (
          <nav aria-label="Categories" className="mt-4">
            <ul className="flex flex-wrap justify-center gap-2">
              {props.categories.map((category) => (
                <li key={category.slug}>
                  <Link
                    to={categoryPath(category.slug)}
                    className="inline-block rounded-full border border-slate-600 px-3 py-1 text-sm text-slate-200 hover:border-blue-400"
                  >
                    {category.name}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </section>
      <section className={`${card} mt-6 flex gap-4`}>
        <ChatIcon className="h-8 w-8 shrink-0 text-blue-400" />
        <div className="min-w-0">
          <h2 className="text-lg font-semibold">Direct Communication</h2>
          <p className="mt-1 text-slate-300">
            You can speak directly with the owner of {shownName}: your message and contact details go straight to them.
          </p>
          {props.replyDays ? (
            <p className="mt-2 font-medium text-emerald-300">{replyTimeText(props.replyDays)}</p>
          ) : null}
        </div>
      </section>
      <HowItWorks free={feeCents === 0} />
      <section className={`${card} mt-6 text-center`}>
        {feeCents > 0 ? (
          <>
            <p className="text-lg">
              Start your inquiry process with a one-time fee of <strong data-fee>{fee}</strong>
            </p>
            <p className="mt-2 text-sm text-slate-300">
              The fee grants you direct contact with the owner and ensures serious inquiries. If the owner does not
              respond, you get a full refund or free credit.
            </p>
            {props.feePromise ? (
              <p data-promise className="mt-2 font-medium text-emerald-300">
                {props.feePromise}
              </p>
            ) : null}
          </>
        ) : (
          // A $0 fee is no filter and there is nothing to refund: promise neither.
          <p className="text-lg" data-fee-free>
            Start your inquiry process: inquiries are currently <strong>free</strong>.
          </p>
        )}
        <Link
          to={`/payment/${encodeURIComponent(shortDomainName(domain.name))}`}
          className={`${primaryButton} mt-6 text-lg`}
        >
          {feeCents > 0 ? `Start Inquiry (${fee})` : "Start Inquiry (free)"}
        </Link>
        {props.buyNowCents && !props.saleState ? (
          <Link
            to={`/buy/${encodeURIComponent(shortDomainName(domain.name))}`}
            className={`${secondaryButton} mt-6 ml-3 text-lg`}
          >
            {`Buy now for ${formatUsd(props.buyNowCents)}`}
          </Link>
        ) : null}
        {feeCents > 0 ? (
          <p data-payments className="mt-3 flex items-center justify-center gap-1.5 text-sm text-slate-300">
            <LockIcon className="h-4 w-4 shrink-0" />
            {testMode ? TEST_MODE_LABEL : "Payments by Stripe"}
          </p>
        ) : null}
      </section>
      <SimilarNames names={props.similar} />
    </PageShell>
  );
}

/** The four steps from inquiry to transfer, so a buyer knows what the fee starts. */
function HowItWorks({ free }: { free: boolean }) {
  const steps = [
    free ? "Send your message: inquiries are currently free." : "Pay the inquiry fee and send your message.",
    "The owner replies to you directly.",
    "You agree a price with the owner.",
    "The name is transferred through an escrow service.",
  ];
  return (
    <section aria-labelledby="how-it-works-heading" className={`${card} mt-6`}>
      <h2 id="how-it-works-heading" className="text-lg font-semibold">
        How it works
      </h2>
      <ol className="mt-3 grid gap-2 text-slate-300 sm:grid-cols-2">
        {steps.map((step, index) => (
          <li key={index} className="flex gap-3">
            <span
              aria-hidden="true"
              className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-blue-500/15 text-sm font-semibold text-blue-300"
            >
              {index + 1}
            </span>
            <span>{step}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
