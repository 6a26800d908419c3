// The inquiry form's texts and limits, shared by the form (browser) and its validation (server).

export const REQUIRED_FIELDS_MESSAGE = "Please fill in all required fields";

export const INQUIRY_LIMITS = {
  name: 120,
  email: 254,
  phone: 40,
  offer: 100,
  message: 5000,
  /** A field people never see; bots fill it. */
  honeypotField: "website",
} as const;

/**
 * Every character that starts a new line somewhere: CR and LF, the vertical tab and form feed, NEL, and
 * Unicode's line and paragraph separators. A one-line field (Full Name, Phone, Your Offer) refuses them,
 * so that a buyer cannot add a paragraph of their own to the owner's email.
 */
const LINE_BREAK = /[\n\v\f\r\u0085\u2028\u2029]/;

export function isOneLine(value: string): boolean {
  return !LINE_BREAK.test(value);
}

/** A one-line field's text with any line breaks (from a row stored before they were refused) made spaces. */
export function asOneLine(value: string): string {
  return value.replace(new RegExp(LINE_BREAK.source, "g"), " ");
}

export const PAYMENT_TEXTS = {
  initFailed: "Failed to initialize payment",
  initFailedServer: "Failed to create payment intent",
  cardErrorFallback: "An error occurred during payment",
  confirmFailed: "Failed to process inquiry",
  unexpected: "An unexpected error occurred",
  missingPublishableKey: "Stripe configuration error: Missing publishable key",
  stripeUnavailable:
    "The secure payment form could not be loaded. Check your connection and reload the page, or use the button below to pay on Stripe's checkout page.",
  loading: "Loading payment form...",
  processing: "Processing...",
} as const;
