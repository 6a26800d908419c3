/** Search terms longer than this are cut: no real domain search needs more. */
export const MAX_SEARCH_LENGTH = 100;

export const TOO_MANY_SEARCHES = "Too many searches from your address. Please wait a minute and try again.";
