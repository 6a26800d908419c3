import { Form, Link } from "react-router";
import { secondaryButton } from "../ui";

export function OwnerHeader({ email, title = "Your desk" }: { email: string; title?: string }) {
  return (
    <header className="flex flex-wrap items-center justify-between gap-4">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="mt-1 text-sm text-slate-300 wrap-anywhere">Signed in as {email}</p>
      </div>
      <nav aria-label="Owner" className="flex flex-wrap items-center gap-3">
        <Link to="/owner" className="text-slate-200 underline-offset-4 hover:underline">
          Desk
        </Link>
        <Form method="post" action="/owner">
          <button type="submit" name="intent" value="sign-out" className={secondaryButton}>
            Sign out
          </button>
        </Form>
      </nav>
    </header>
  );
}
