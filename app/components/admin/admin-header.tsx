import { Form, Link, useLocation } from "react-router";
import { secondaryButton } from "../ui";

/**
 * The admin nav, in order. To add a page: one entry here. `also` lists path prefixes that belong to
 * the same page (a domain's own admin view is part of Domains).
 */
const ADMIN_LINKS: Array<{ to: string; label: string; also?: string[]; showsAwaiting?: boolean }> = [
  { to: "/admin", label: "Domains", also: ["/admin/domains/"] },
  { to: "/admin/inquiries", label: "Inquiries", showsAwaiting: true },
  { to: "/admin/deals", label: "Deals" },
  { to: "/admin/portfolio", label: "Import / Export" },
  { to: "/admin/owners", label: "Owners" },
  { to: "/admin/insights", label: "Insights" },
  { to: "/admin/pages", label: "Pages" },
];

const linkClass = "inline-flex items-center gap-2 whitespace-nowrap rounded-lg px-3 py-2 underline-offset-4";
const currentClass = `${linkClass} bg-slate-800 font-semibold text-white ring-1 ring-slate-600`;
const otherClass = `${linkClass} text-slate-200 hover:bg-slate-800/60 hover:underline`;

function isCurrent(pathname: string, link: (typeof ADMIN_LINKS)[number]): boolean {
  const path = pathname.replace(/\/+$/, "") || "/";
  return path === link.to || (link.also ?? []).some((prefix) => path.startsWith(prefix));
}

/**
 * The admin pages' heading and nav. `awaiting` is the number of inquiries awaiting a reply
 * (awaitingReply() in desk.server.ts), shown on the Inquiries link when given.
 */
export function AdminHeader({
  email,
  title = "Admin Panel",
  awaiting,
}: {
  email: string;
  title?: string;
  awaiting?: number;
}) {
  const { pathname } = useLocation();
  return (
    <header className="flex flex-wrap items-center justify-between gap-4">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="mt-1 text-sm text-slate-300">Signed in as {email}</p>
      </div>
      <nav aria-label="Admin" className="flex flex-wrap items-center gap-2">
        {ADMIN_LINKS.map((link) => {
          const current = isCurrent(pathname, link);
          return (
            <Link
              key={link.to}
              to={link.to}
              aria-current={current ? "page" : undefined}
              className={current ? currentClass : otherClass}
            >
              {link.label}
              {link.showsAwaiting && awaiting ? (
                <span
                  data-awaiting-count
                  className="rounded-full bg-blue-600 px-2 py-0.5 text-xs font-semibold text-white"
                >
                  {awaiting.toLocaleString("en-US")}
                  <span className="sr-only"> awaiting reply</span>
                </span>
              ) : null}
            </Link>
          );
        })}
        <Form method="post" action="/admin">
          <button type="submit" name="intent" value="logout" className={secondaryButton}>
            Sign Out
          </button>
        </Form>
        <AccountMenu />
      </nav>
    </header>
  );
}

/** Rarely needed, so out of the main row: a <details> menu, which opens without JavaScript. */
function AccountMenu() {
  return (
    <details className="relative">
      <summary className="cursor-pointer list-none rounded-lg px-3 py-2 text-slate-200 hover:bg-slate-800/60 [&::-webkit-details-marker]:hidden">
        Account <span aria-hidden="true">▾</span>
      </summary>
      <div className="absolute right-0 z-20 mt-2 w-72 rounded-xl border border-slate-700 bg-slate-900 p-4 shadow-xl">
        <p className="text-sm text-slate-300">Ends this admin&apos;s sessions on every device, this one included.</p>
        <Form method="post" action="/admin" className="mt-3">
          <button
            type="submit"
            name="intent"
            value="logout-everywhere"
            className={secondaryButton}
            title="Ends this admin's sessions on every device"
          >
            Sign out everywhere
          </button>
        </Form>
      </div>
    </details>
  );
}
