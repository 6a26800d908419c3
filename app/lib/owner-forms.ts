// What the owner's sign-in and desk say, shared by the server and the pages.
function minutesText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

export const OWNER_SIGN_IN_TEXT = {
  badEmail: "Please enter a valid email address, like you@example.com.",
  badCodeFormat: "Enter the 6-digit code from the email.",
  sent: "If this address owns a domain here, a sign-in code is on its way. It works for 10 minutes.",
  wrongCode: "That code is not right. Check the email and try again.",
  expiredCode: "That code has expired. Ask for a new one.",
  usedCode: "That code was already used. Ask for a new one.",
  tooManyWrong: "Too many wrong codes. Ask for a new one.",
  noPendingCode: "Ask for a sign-in code first: enter your email address.",
  otherEmailCode: (email: string) =>
    `That code was sent to another email address. Enter the code sent to ${email}, or ask for a new one.`,
  badLink: "That sign-in link is not valid. Ask for a new code.",
  usedLink: "That sign-in link was already used. Ask for a new code.",
  expiredLink: "That sign-in link has expired. Ask for a new code.",
  linkOtherBrowser: "Open the sign-in link in the browser you asked for the code from, or enter the code there.",
  linkReplaced: "A newer code was sent after this link. Use the newest email.",
  tooManyRequests: (seconds: number) => `Too many sign-in codes asked for. Try again in ${minutesText(seconds)}.`,
  tooManyChecks: (seconds: number) => `Too many sign-in attempts. Try again in ${minutesText(seconds)}.`,
  turnedOff: "Owner sign-in is turned off on this site.",
} as const;

/** Messages a redirect may name by key (?error=key): never free text from the address bar. */
export const OWNER_LINK_ERRORS = {
  "bad-link": OWNER_SIGN_IN_TEXT.badLink,
  "used-link": OWNER_SIGN_IN_TEXT.usedLink,
  "expired-link": OWNER_SIGN_IN_TEXT.expiredLink,
  "other-browser": OWNER_SIGN_IN_TEXT.linkOtherBrowser,
  "link-replaced": OWNER_SIGN_IN_TEXT.linkReplaced,
  "too-many-wrong": OWNER_SIGN_IN_TEXT.tooManyWrong,
  "rate-limited": "Too many sign-in attempts. Try again later.",
} as const;
export type OwnerLinkError = keyof typeof OWNER_LINK_ERRORS;

export const OWNER_NOTICES: Record<string, string> = {
  "price-saved": "Price saved.",
  replied: "Your reply was sent.",
  answered: "The inquiry is marked as answered.",
  "answer-refused": "This inquiry can no longer be marked as answered.",
  "signed-out": "You are signed out.",
  "accept-offer": "Offer accepted: a deal is agreed.",
  "decline-offer": "The offer was declined.",
  "counter-offer": "Your counter-offer was sent.",
};
