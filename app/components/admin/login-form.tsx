import { Form, useNavigation } from "react-router";
import { PASSWORD_MIN_LENGTH, type AdminActionResult } from "../../lib/admin-forms";
import { card, inputClass, primaryButton } from "../ui";
import { ErrorAlert } from "./notice";

export function LoginForm({ result }: { result?: AdminActionResult }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "login";
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col justify-center px-5 py-10">
      <div className={card}>
        <h1 className="text-2xl font-bold">Admin Login</h1>
        <p className="mt-1 text-slate-300">Sign in to manage domains</p>
        <Form method="post" action="/admin" className="mt-6 flex flex-col gap-4">
          <div>
            <label htmlFor="email" className="text-sm font-medium">
              Email
            </label>
            <input
              id="email"
              name="email"
              type="email"
              required
              autoComplete="username"
              defaultValue={result?.values?.email ?? ""}
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor="password" className="text-sm font-medium">
              Password
            </label>
            <input
              id="password"
              name="password"
              type="password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              autoComplete="current-password"
              className={inputClass}
            />
          </div>
          <button type="submit" name="intent" value="login" className={primaryButton} disabled={busy}>
            {busy ? "Signing in..." : "Sign In"}
          </button>
        </Form>
        {result?.error ? <ErrorAlert className="mt-4">{result.error}</ErrorAlert> : null}
      </div>
    </main>
  );
}
