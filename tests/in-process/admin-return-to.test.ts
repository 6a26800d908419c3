import { beforeAll, describe, expect, it } from "vitest";
import { createAdmin, createDomain, type TestAdmin } from "../support/factories";
import { act } from "../support/in-process/routes";

// A form's returnTo is resolved before it is judged: only a path under /admin is a place to go back to.
let admin: TestAdmin;
beforeAll(async () => {
  admin = await createAdmin();
});

const OFFSITE = [
  "/admin/..//evil.example/x",
  "/admin/%2e%2e//evil.example/x",
  "/admin\\..\\\\evil.example/x",
  "/\\evil.example/admin",
  "https://evil.example/admin",
];

describe("returnTo after an admin's form post", () => {
  it("on /admin: back to the admin page asked for, never to another site", async () => {
    const domain = await createDomain({ prefix: "returnto" });
    const post = (returnTo: string) =>
      act("/admin", {
        cookie: admin.cookie,
        form: { intent: "price", id: String(domain.id), price: "1000", returnTo },
      });
    expect((await post("/admin?q=returnto")).location).toBe("/admin?q=returnto&notice=price-updated");
    for (const returnTo of OFFSITE) {
      const answer = await post(returnTo);
      expect(answer.status, returnTo).toBe(303);
      expect(answer.location, returnTo).toBe("/admin?notice=price-updated");
    }
  });

  it("on /admin/inquiries: the same, with the inbox as the fallback", async () => {
    const post = (returnTo: string) =>
      act("/admin/inquiries", { cookie: admin.cookie, form: { intent: "answer", id: "999999999", returnTo } });
    expect((await post("/admin/inquiries?status=paid")).location).toBe(
      "/admin/inquiries?status=paid&notice=inquiry-answer-refused",
    );
    for (const returnTo of OFFSITE) {
      const answer = await post(returnTo);
      expect(answer.status, returnTo).toBe(303);
      expect(answer.location, returnTo).toBe("/admin/inquiries?notice=inquiry-answer-refused");
    }
  });
});
