import { useNavigate } from "react-router";
import { PAYMENT_TEXTS } from "../../lib/inquiry";

// Browser side of the payment JSON routes: a POST that always resolves, with the server's error text
// when it sent one, so every failure shows the spec's message instead of an exception.
// A refusal keeps the server's other fields too (`field_errors`: which fields to mark).
export type JsonResult<T> =
  { ok: true; data: T } | { ok: false; error: string | null; status: number; body?: Record<string, unknown> };

export async function postJson<T>(path: string, body: unknown): Promise<JsonResult<T>> {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    const data = (await response.json().catch(() => null)) as (T & { error?: unknown }) | null;
    if (!response.ok || !data || typeof data.error === "string") {
      return {
        ok: false,
        error: data && typeof data.error === "string" ? data.error : null,
        status: response.status,
        body: data && typeof data === "object" ? (data as Record<string, unknown>) : undefined,
      };
    }
    return { ok: true, data };
  } catch {
    return { ok: false, error: null, status: 0 };
  }
}

// True once JavaScript runs: the enhanced payment forms replace the plain ones.
export { useHydrated } from "../use-hydrated";

/** The confirm call every JavaScript payment ends with; the server checks the payment with the provider. */
export function useConfirmInquiry(domainName: string, returnPath: string) {
  const navigate = useNavigate();
  return async (paymentIntentId: string): Promise<string | null> => {
    const result = await postJson<{ ok: true }>("/api/confirm-payment", {
      payment_intent_id: paymentIntentId,
      domain_name: domainName,
    });
    // 402: the provider says the payment did not go through; the buyer may try again. Any other failure
    // comes after the provider took the money: the page (which asks the provider itself) shows the
    // outcome instead of a Pay button that would charge again.
    if (!result.ok && result.status === 402) return result.error ?? PAYMENT_TEXTS.confirmFailed;
    navigate(returnPath, { replace: true });
    return null;
  };
}
