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
