/** Search terms longer than this are cut: no real domain search needs more. */
export const MAX_SEARCH_LENGTH = 100;
