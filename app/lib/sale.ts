// The sale's limits, shared by its forms (browser) and their checks (server).

/** The owner's transfer details: an authorization code (one line) or a note. */
export const TRANSFER_LIMITS = { code: 200, note: 1000 } as const;
