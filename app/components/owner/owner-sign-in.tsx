import { Form } from "react-router";
import { IntentButton } from "../intent-button";
import { ErrorAlert, Notice } from "../admin/notice";
import { card, inputClass, primaryButton, secondaryButton } from "../ui";
import { OWNER_SIGN_IN_TEXT } from "../../lib/owner-forms";

/**
 * The two steps of an owner's sign-in: an email address, then the 6-digit code from the email (or its
 * one-click link). `codeFor` is the address a code was asked for in this browser, when one was.
 */
export function OwnerSignIn({
  codeFor,
  error,
  email,
}: {
  codeFor: string | null;
  error: string | null;
  email: string;
}) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col justify-center px-5 py-10">
      <div className={card}>
        <h1 className="text-2xl font-bold">Owner sign-in</h1>
        <p className="mt-1 text-slate-300">See your domains, their traffic and your inquiries.</p>
        {codeFor ? (
          <>
            {error ? null : <Notice>{OWNER_SIGN_IN_TEXT.sent}</Notice>}
            <Form method="post" action="/owner" className="mt-6 flex flex-col gap-4">
              <p className="text-sm text-slate-300 wrap-anywhere">{`Code for ${codeFor}`}</p>
              <div>
                <label htmlFor="code" className="text-sm font-medium">
                  Code
                </label>
                <input
                  id="code"
                  name="code"
                  type="text"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="\d{6}"
                  maxLength={6}
                  required
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? "sign-in-error" : undefined}
                  className={inputClass}
                />
              </div>
              <IntentButton intent="sign-in" label="Sign in" busyLabel="Signing in..." className={primaryButton} />
            </Form>
            <Form method="post" action="/owner" className="mt-3">
              <button type="submit" name="intent" value="start-over" className={secondaryButton}>
                Use another email or get a new code
              </button>
            </Form>
          </>
        ) : (
          <Form method="post" action="/owner" className="mt-6 flex flex-col gap-4">
            <div>
              <label htmlFor="email" className="text-sm font-medium">
                Email
              </label>
              <input
                id="email"
                name="email"
                type="email"
                required
                maxLength={254}
                autoComplete="email"
                defaultValue={email}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? "sign-in-error" : undefined}
                className={inputClass}
              />
            </div>
            <IntentButton
              intent="send-code"
              label="Email me a sign-in code"
              busyLabel="Sending..."
              className={primaryButton}
            />
          </Form>
        )}
        {error ? (
          <ErrorAlert id="sign-in-error" className="mt-4">
            {error}
          </ErrorAlert>
        ) : null}
      </div>
    </main>
  );
}

export function OwnerSignInOff() {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col justify-center px-5 py-10">
      <div className={card}>
        <h1 className="text-2xl font-bold">Owner sign-in</h1>
        <p className="mt-3 text-slate-200">{OWNER_SIGN_IN_TEXT.turnedOff}</p>
      </div>
    </main>
  );
}
