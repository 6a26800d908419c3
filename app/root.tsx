import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { useNonce } from "./components/nonce";
import stylesheet from "./app.css?url";
import { testPaymentsEnabled } from "./server/payments/index.server";
import { getContactEmail } from "./server/catalog/legal-pages.server";
import { LEGAL_PAGES } from "./lib/legal-pages";

// With a precedence React writes the stylesheet ahead of the script preloads, so the one
// render-blocking request is not queued behind a dozen JavaScript files on a slow connection.
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: stylesheet, precedence: "default" }];

/**
 * Whether the site takes test payments only: then every page says so (PAYMENTS, app/server/runtime/env.server.ts);
 * and the operator's contact address for the footer (set on /admin/pages).
 */
export async function loader() {
  return { testMode: testPaymentsEnabled(), contactEmail: await getContactEmail() };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const testMode = rootData?.testMode ?? false;
  return (
    <html lang="en" className="bg-slate-950">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Without it browsers ask for /favicon.ico, a 404 that Lighthouse reports as a console error. */}
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-950 font-sans text-slate-100 antialiased">
        {testMode && (
          <aside
            aria-label="Test mode"
            className="bg-amber-400 px-4 py-1 text-center text-sm font-medium text-slate-950"
          >
            Test site: payments here use test cards only, and no money moves.
          </aside>
        )}
        {children}
        <SiteFooter contactEmail={rootData?.contactEmail ?? null} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** On every page: the operator's contact and the Terms, Privacy and Refund policy pages (card processors expect them). */
function SiteFooter({ contactEmail }: { contactEmail: string | null }) {
  return (
    <footer className="border-t border-slate-800 px-5 py-8 text-sm text-slate-300">
      <div className="mx-auto flex w-full max-w-5xl flex-wrap items-center justify-between gap-4">
        {contactEmail ? (
          <p>
            Contact:{" "}
            <a href={`mailto:${contactEmail}`} className="text-slate-100 underline underline-offset-4 hover:text-white">
              {contactEmail}
            </a>
          </p>
        ) : null}
        <nav aria-label="Legal" className="flex flex-wrap gap-4">
          {LEGAL_PAGES.map((page) => (
            <a
              key={page.slug}
              href={`/${page.slug}`}
              className="text-slate-100 underline underline-offset-4 hover:text-white"
            >
              {page.title}
            </a>
          ))}
        </nav>
      </div>
    </footer>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const heading = status === 404 ? "Page not found" : status < 500 ? "Request refused" : "Something went wrong";
  // On the server entry.server.tsx logs it (with the request id); in the browser the console shows it.
  if (status >= 500 && typeof document !== "undefined") console.error(error);
  const siteName = isRouteErrorResponse(error) && typeof error.data?.siteName === "string" ? error.data.siteName : null;
  return (
    <main className="mx-auto max-w-xl px-6 py-24 text-center">
      <title>{siteName ? `${heading} | ${siteName}` : heading}</title>
      <meta
        name="description"
        content={status === 404 ? "There is nothing at this address." : "Please try again in a moment."}
      />
      <h1 className="text-3xl font-semibold">{heading}</h1>
      <p className="mt-4 text-slate-300">
        {status === 404 ? "There is nothing at this address." : "Please try again in a moment."}
      </p>
      <a
        href="/"
        className="mt-8 inline-block rounded-lg bg-blue-600 px-5 py-2.5 font-medium text-white hover:bg-blue-500"
      >
        Back to Home
      </a>
    </main>
  );
}
