// Reading an email as a mail program shows it (SMTP-received in integration tests, .eml files in process).
import type { ReceivedMail } from "./smtp";

/** The text part as a mail program shows it: headers dropped, quoted-printable decoded. */
export function mailText(mail: ReceivedMail): string {
  const split = mail.raw.indexOf("\r\n\r\n") >= 0 ? mail.raw.indexOf("\r\n\r\n") : mail.raw.indexOf("\n\n");
  const headers = mail.raw.slice(0, split);
  let body = mail.raw.slice(split).trim();
  if (/Content-Transfer-Encoding:\s*quoted-printable/i.test(headers)) {
    body = Buffer.from(
      body
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      "latin1",
    ).toString("utf8");
  } else if (/Content-Transfer-Encoding:\s*base64/i.test(headers)) {
    body = Buffer.from(body, "base64").toString("utf8");
  }
  return body.replace(/\r\n/g, "\n");
}

export function subjectOf(mail: ReceivedMail): string {
  return /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(mail.raw)?.[1]?.replace(/\r?\n[ \t]/g, " ") ?? "";
}
