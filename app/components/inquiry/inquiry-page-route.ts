import type { ShouldRevalidateFunctionArgs } from "react-router";

// Route exports the buyer's and the owner's inquiry pages share (app/routes/inquiry.tsx, owner-reply.tsx).

// A refusal with 409 means the inquiry changed meanwhile (closed, answered): show it as it is now.
export function revalidateAfterConflict({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

// The address is the reader's key to the page: never cached, never sent to another site.
export function signedPageHeaders({ actionHeaders }: { actionHeaders: Headers }) {
  const retryAfter = actionHeaders.get("Retry-After");
  return {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    ...(retryAfter ? { "Retry-After": retryAfter } : {}),
  };
}
