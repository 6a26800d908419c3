// An owner signing in as a person does, in process: the emailed code asked for on /owner, read from the
// email, and typed in. Returns the owner's browser (its cookies).
import { CookieJar } from "../cookie-jar";
import { codeIn } from "../owner";
import { render } from "./document";
import { sentMail } from "./mail";

export async function signInByEmail(email: string, clientAddress = "10.9.0.1"): Promise<CookieJar> {
  const jar = new CookieJar();
  const seen = (await sentMail()).length;
  const asked = await render("/owner", { jar, clientAddress, form: { intent: "send-code", email } });
  if (asked.status !== 303) throw new Error(`send-code answered ${asked.status}: ${asked.body.slice(0, 300)}`);
  const address = email.trim().toLowerCase();
  const mail = (await sentMail())
    .slice(seen)
    .reverse()
    .find((message) => message.to.includes(address) && /sign-in code/i.test(message.raw));
  if (!mail) throw new Error(`no sign-in email to ${address}`);
  const signedIn = await render("/owner", { jar, clientAddress, form: { intent: "sign-in", code: codeIn(mail) } });
  if (signedIn.status !== 303 || !jar.cookies.has("owner_session"))
    throw new Error(`sign-in answered ${signedIn.status}: ${signedIn.body.slice(0, 300)}`);
  return jar;
}
