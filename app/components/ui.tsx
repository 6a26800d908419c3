import { Link } from "react-router";
import { ArrowLeftIcon } from "./icons";

export const primaryButton =
  "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-lg bg-blue-600 px-5 py-2.5 font-medium text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-400 disabled:opacity-60";
export const secondaryButton =
  "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-lg border border-slate-600 px-5 py-2.5 font-medium text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-400";
export const card = "rounded-2xl border border-slate-800 bg-slate-900/70 p-6";
/** An input's look without its width or margin: callers that size the field add both (`${fieldClass} w-40`). */
export const fieldClass =
  "block min-w-0 rounded-lg border border-slate-600 bg-slate-950 px-3 py-2 text-slate-100 placeholder:text-slate-400 focus:border-blue-400 focus:outline-none focus:ring-2 focus:ring-blue-400/40";
/**
 * A select, or a button beside fields in a filter row: the height of an input with fieldClass (42 px).
 * Chromium draws a select 3 px shorter than such an input, and a button is a few px taller.
 */
export const fieldHeight = "h-10.5";
/** A full-width input under its label. A width added to it would lose to w-full: use fieldClass for that. */
export const inputClass = `mt-1 w-full ${fieldClass}`;

export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} className="inline-flex max-w-full items-center gap-2 text-sm text-slate-300 hover:text-white">
      <ArrowLeftIcon className="h-4 w-4 shrink-0" />
      {/* min-w-0: a long domain name in it breaks instead of widening the page. */}
      <span className="min-w-0">{children}</span>
    </Link>
  );
}

export function PageShell({ children }: { children: React.ReactNode }) {
  return <main className="mx-auto w-full max-w-3xl px-5 py-10 sm:py-16">{children}</main>;
}

/** The spec's not-found view, shared by the domain and payment pages. */
export function NotFoundView({ message }: { message: string }) {
  return (
    <PageShell>
      <div className={`${card} text-center`}>
        <h1 className="text-2xl font-semibold">{message}</h1>
        <Link to="/" className={`${primaryButton} mt-6`}>
          Back to Home
        </Link>
      </div>
    </PageShell>
  );
}
