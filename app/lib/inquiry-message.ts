// A reply on an inquiry's page (issue 23): plain text up to 5,000 characters. Shared by the form's
// maxLength and the server's check; the text the buyer or owner typed is never thrown away.

export const MAX_MESSAGE_CHARS = 5000;
export const MESSAGE_FIELD = "message";

export type ParsedMessage = { ok: true; text: string } | { ok: false; message: string; text: string };

export function parseMessage(input: unknown): ParsedMessage {
  const raw = typeof input === "string" ? input : "";
  // NUL cannot be stored as text by PostgreSQL nor shown in a form field: dropped, and the writer told.
  const withoutNul = raw.replace(/\0/g, "");
  const text = withoutNul.replace(/\r\n?/g, "\n");
  if (withoutNul !== raw) {
    return {
      ok: false,
      message:
        "Your reply contained NUL characters, which cannot be sent. " +
        "They were removed: check the text and send it again.",
      text,
    };
  }
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, message: "Write your reply before sending it.", text };
  const length = [...trimmed].length;
  if (length > MAX_MESSAGE_CHARS) {
    return {
      ok: false,
      message:
        `Your reply is ${length.toLocaleString("en-US")} characters long; ` +
        `the limit is ${MAX_MESSAGE_CHARS.toLocaleString("en-US")}. Shorten it and send it again.`,
      text,
    };
  }
  return { ok: true, text: trimmed };
}
