import { Form, Link } from "react-router";
import { secondaryButton } from "../ui";

export function AdminHeader({ email, title = "Admin Panel" }: { email: string; title?: string }) {
  return (
    <header className="flex flex-wrap items-center justify-between gap-4">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="mt-1 text-sm text-slate-300">Signed in as {email}</p>
      </div>
      <nav aria-label="Admin" className="flex flex-wrap items-center gap-3">
        <Link to="/admin" className="text-slate-200 underline-offset-4 hover:underline">
          Domains
        </Link>
        <Link to="/admin/inquiries" className="text-slate-200 underline-offset-4 hover:underline">
          Inquiries
        </Link>
        <Link to="/admin/portfolio" className="text-slate-200 underline-offset-4 hover:underline">
          Import / Export
        </Link>
        <Link to="/admin/owners" className="text-slate-200 underline-offset-4 hover:underline">
          Owners
        </Link>
        <Link to="/admin/insights" className="text-slate-200 underline-offset-4 hover:underline">
          Insights
        </Link>
        <Form method="post" action="/admin">
          <button type="submit" name="intent" value="logout" className={secondaryButton}>
            Sign Out
          </button>
        </Form>
        <Form method="post" action="/admin">
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
      </nav>
    </header>
  );
}
