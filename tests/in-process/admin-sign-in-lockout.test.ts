import { beforeAll, describe, expect, it } from "vitest";
import { createAdmin, type TestAdmin } from "../support/factories";
import { useTestClock } from "../support/in-process/clock";
import { render } from "../support/in-process/document";
import { visibleText } from "../support/visible-text";

// The wait an admin is told after ten failed sign-ins shrinks as time passes, and the page says what
// Retry-After says, down to the seconds of the last minute. Over HTTP, with the Secure cookies and the
// admin's own browser, in tests/integration/admin-rate-limit.test.ts.
const clock = useTestClock();
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

/** A wrong sign-in for the admin's email from `clientAddress`: its status, Retry-After and visible text. */
async function wrongSignIn(clientAddress: string) {
  const page = await render("/admin", {
    clientAddress,
    form: { intent: "login", email: admin.email, password: "wrong-password" },
  });
  return { status: page.status, seconds: Number(page.headers.get("retry-after")), text: visibleText(page.body) };
}

describe("failed sign-ins are limited to 10 in 15 minutes", { timeout: 60_000 }, () => {
  it("the lockout message gives the wait that is left, as Retry-After does", async () => {
    for (let i = 0; i < 10; i++) expect((await wrongSignIn(`10.0.1.${i}`)).status).toBe(401);
    const start = await wrongSignIn("10.0.1.202");
    expect(start.status).toBe(429);
    expect(start.seconds).toBeGreaterThan(840);
    expect(start.text).toContain("Too many failed sign-in attempts. Please wait 15 minutes and try again.");

    clock.advance((start.seconds - 270) * 1000); // about 4.5 minutes left
    const later = await wrongSignIn("10.0.1.203");
    expect(later.status).toBe(429);
    expect(later.seconds).toBeGreaterThan(240);
    expect(later.seconds).toBeLessThanOrEqual(270);
    expect(later.text).toContain("Too many failed sign-in attempts. Please wait 5 minutes and try again.");

    clock.advance((later.seconds - 40) * 1000); // under a minute left
    const lastMinute = await wrongSignIn("10.0.1.204");
    expect(lastMinute.status).toBe(429);
    expect(lastMinute.seconds).toBeLessThan(60);
    expect(lastMinute.text).toContain(
      `Too many failed sign-in attempts. Please wait ${lastMinute.seconds} seconds and try again.`,
    );

    // The window over, the email may try again.
    clock.advance(lastMinute.seconds * 1000 + 1000);
    expect((await wrongSignIn("10.0.1.205")).status).toBe(401);
  });
});
