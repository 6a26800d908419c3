// The rule for a new admin password (ADMIN_PASSWORD, create-admin): at least 12 characters and not one
// of the common passwords in zxcvbn's list (about 49,000 leaked passwords, shipped as a dependency).
// Signing in keeps the spec's 6-character rule, so existing accounts still get in.
export const NEW_PASSWORD_MIN_LENGTH = 12;

let common: Promise<Set<string>> | undefined;

function commonPasswords(): Promise<Set<string>> {
  // Loaded only when a password is set, not by every process at start.
  common ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set((dictionary["passwords-common"] as string[]).map((word) => word.toLowerCase())),
  );
  return common;
}

/** Why the password may not be used, or null when it may. */
export async function newPasswordProblem(password: string): Promise<string | null> {
  if (password.length < NEW_PASSWORD_MIN_LENGTH) return `must be at least ${NEW_PASSWORD_MIN_LENGTH} characters`;
  if ((await commonPasswords()).has(password.toLowerCase()))
    return "is one of the most common passwords; choose another";
  return null;
}
