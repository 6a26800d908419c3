import type { Page } from "@playwright/test";
import { signInAdmin } from "../support/admin";
import { expect, test } from "../support/fixtures";

// The filter and search rows (home, /admin, /admin/inquiries): the fields and buttons side by side in a row
// have one top and one height, so their labels line up too. Chromium draws a select a few pixels shorter
// than an input with the same padding, and a button a few pixels taller.

type Control = { name: string; top: number; height: number };

/** The rows of `form`'s visible text fields, selects and buttons: controls whose boxes overlap vertically. */
function controlRows(page: Page, form: string): Promise<Control[][]> {
  return page.evaluate((selector) => {
    const controls = [
      ...document.querySelectorAll<HTMLElement>(
        `${selector} input:not([type=checkbox]):not([type=hidden]), ${selector} select, ${selector} button`,
      ),
    ]
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => {
        const box = element.getBoundingClientRect();
        return { name: element.id || element.textContent?.trim() || element.tagName, top: box.top, height: box.height };
      })
      .sort((a, b) => a.top + a.height - (b.top + b.height));
    const rows: Control[][] = [];
    for (const control of controls) {
      const row = rows.find((each) =>
        each.some((other) => control.top < other.top + other.height && other.top < control.top + control.height),
      );
      if (row) row.push(control);
      else rows.push([control]);
    }
    return rows;
  }, form);
}

async function expectRowsLinedUp(page: Page, form: string, label: string) {
  const rows = await controlRows(page, form);
  expect(rows.length, `${label} has controls`).toBeGreaterThan(0);
  for (const row of rows) {
    const first = row[0]!;
    for (const control of row) {
      const where = `${label}: ${control.name} beside ${first.name}`;
      expect(Math.abs(control.top - first.top), `${where}, top`).toBeLessThan(1);
      expect(Math.abs(control.height - first.height), `${where}, height`).toBeLessThan(1);
    }
  }
}

test("the fields and buttons of a filter row line up, at 390 and 1366 px", async ({ page }) => {
  await signInAdmin(page);
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/#domains");
    await expect(page.getByRole("heading", { name: "Domains for sale" })).toBeVisible();
    await expectRowsLinedUp(page, "#domains form", `home filters at ${width}px`);
    await page.goto("/admin");
    await expect(page.getByLabel("Search domains")).toBeVisible();
    await expectRowsLinedUp(page, "form[role=search]", `admin search at ${width}px`);
    await page.goto("/admin/inquiries");
    await expect(page.getByLabel("Status")).toBeVisible();
    await expectRowsLinedUp(page, "form[role=search]", `inquiry filter at ${width}px`);
  }
});
