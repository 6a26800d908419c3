import { useEffect, useState } from "react";

/** The inquiry fee in cents, kept current by the server's event stream while JavaScript runs. */
export function useLiveFee(initialCents: number): number {
  const [feeCents, setFeeCents] = useState(initialCents);
  // A new fee from the loader (a revalidation) replaces the streamed one, adjusted during render
  // rather than in an effect so no render shows the old fee.
  const [loaderCents, setLoaderCents] = useState(initialCents);
  if (loaderCents !== initialCents) {
    setLoaderCents(initialCents);
    setFeeCents(initialCents);
  }
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/events/fee");
    source.addEventListener("fee", (event) => {
      const cents = Number(JSON.parse((event as MessageEvent<string>).data).cents);
      if (Number.isSafeInteger(cents) && cents >= 0) setFeeCents(cents);
    });
    return () => source.close();
  }, []);
  return feeCents;
}
