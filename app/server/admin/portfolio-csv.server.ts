// Portfolio CSV: import (all rows or none, with per-row errors) and streamed exports.
import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import {
  buyNowBelowMinimumText,
  CLEAR_OWNER_EMAIL,
  DomainEntrySchema,
  fieldErrors,
  type DomainEntry,
} from "../../lib/admin-forms";
import { centsToDollarText } from "../../lib/money";
import { guardCell, unguardCell } from "../../lib/csv-cells";
import { formatCategoryList, type CategoryName } from "../../lib/categories";
import { nowIso } from "../runtime/clock.server";
import { categoriesOfDomains, setDomainCategories } from "../catalog/categories.server";
import { insertInBatches } from "../../../db/batch-insert";
import { db } from "../db/database.server";
import { inList, inTransaction, type Executor } from "../db/dialect.server";
import { withoutNul } from "../db/strip-nul.server";
import { inquiryOwnerIs } from "../catalog/domains.server";

export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 200_000;
const MAX_REPORTED_ERRORS = 100;
const HEADER_NAMES = new Set(["domain", "domain_name", "domain name", "name"]);
/** Names looked up per query during an import; rows per page of an export. */
const CHUNK = 1000;

export interface RowError {
  line: number;
  message: string;
}
export type ImportResult =
  { ok: true; added: number; updated: number } | { ok: false; errors: RowError[]; moreErrors: number };
/**
 * A valid row; ownerEmail null keeps a listed domain's owner email, categories null (the file has no
 * `categories` column) keeps its categories.
 */
type ImportEntry = Omit<DomainEntry, "ownerEmail" | "categories"> & {
  ownerEmail: string | null;
  categories: CategoryName[] | null;
};
/** The columns after the first four, found by their header; -1 when the file has none. */
interface ExtraColumns {
  categories: number;
  pitch: number;
  buyNowPrice: number;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The upload as text, or the reason it cannot be read: spreadsheets often save another encoding. */
function decodeUpload(bytes: Uint8Array): string | RowError {
  try {
    return utf8.decode(bytes);
  } catch {
    return {
      line: 0,
      message:
        'The file is not UTF-8 text (accented letters would be garbled). Save it as "CSV UTF-8" and import it again.',
    };
  }
}

function readRows(text: string): Array<{ line: number; cells: string[] }> | RowError {
  try {
    const records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      info: true,
    }) as unknown as Array<{
      record: string[];
      info: { lines: number };
    }>;
    return records.map(({ record, info }) => ({ line: info.lines, cells: record }));
  } catch (error) {
    if (error instanceof CsvError)
      return {
        line: (error as CsvError & { lines?: number }).lines ?? 0,
        message: `The file is not valid CSV: ${error.message}`,
      };
    throw error;
  }
}

/** Adds new domains and updates listed ones from CSV columns domain, price, tracking id, owner email. */
export async function importPortfolioCsv(upload: string | Uint8Array): Promise<ImportResult> {
  const text = typeof upload === "string" ? upload : decodeUpload(upload);
  if (typeof text !== "string") return { ok: false, errors: [text], moreErrors: 0 };
  const rows = readRows(text);
  if (!Array.isArray(rows)) return { ok: false, errors: [rows], moreErrors: 0 };
  if (rows.length > 0 && rows.every(({ cells }) => cells.length === 1 && cells[0]!.includes(";"))) {
    return {
      ok: false,
      errors: [
        {
          line: 0,
          message:
            'The file separates columns with ; instead of commas. Save it as "CSV UTF-8 (comma delimited)" and import it again.',
        },
      ],
      moreErrors: 0,
    };
  }
  // Columns after the first four are found by their header (an export's `categories` column, say).
  const extra: ExtraColumns = { categories: -1, pitch: -1, buyNowPrice: -1 };
  if (rows.length > 0 && HEADER_NAMES.has((rows[0]!.cells[0] ?? "").toLowerCase())) {
    const header = rows.shift()!.cells.map((cell) => cell.toLowerCase());
    extra.categories = header.indexOf("categories");
    extra.pitch = header.indexOf("pitch");
    extra.buyNowPrice = header.indexOf("buy_now_price");
  }
  if (rows.length === 0)
    return { ok: false, errors: [{ line: 1, message: "The file has no domain rows." }], moreErrors: 0 };
  if (rows.length > MAX_IMPORT_ROWS) {
    return {
      ok: false,
      errors: [
        { line: 1, message: `The file has ${rows.length} rows; at most ${MAX_IMPORT_ROWS} can be imported at once.` },
      ],
      moreErrors: 0,
    };
  }

  const errors: RowError[] = [];
  const entries: ImportEntry[] = [];
  const firstLineOf = new Map<string, number>();
  for (const { line, cells } of rows) {
    // U+0000 means nothing in any cell, and PostgreSQL text cannot hold it: gone on both engines alike.
    const [domainName = "", askingPrice = "", trackingIdCell = "", ownerEmailCell = ""] = cells.map(
      (cell) => withoutNul(cell) as string,
    );
    const trackingId = unguardCell(trackingIdCell);
    const ownerEmail = unguardCell(ownerEmailCell);
    const clearOwner = ownerEmail.toLowerCase() === CLEAR_OWNER_EMAIL;
    const categories = extra.categories >= 0 ? unguardCell(cells[extra.categories] ?? "") : "";
    const pitch = extra.pitch >= 0 ? unguardCell(cells[extra.pitch] ?? "") : "";
    const buyNowPrice = extra.buyNowPrice >= 0 ? withoutNul(cells[extra.buyNowPrice] ?? "") : "";
    const parsed = DomainEntrySchema.safeParse({
      domainName,
      askingPrice,
      buyNowPrice,
      trackingId,
      ownerEmail: clearOwner ? "" : ownerEmail,
      categories,
      pitch,
    });
    if (!parsed.success) {
      errors.push({ line, message: Object.values(fieldErrors(parsed.error)).join("; ") });
      continue;
    }
    const seen = firstLineOf.get(parsed.data.domainName);
    if (seen !== undefined) {
      errors.push({ line, message: `${parsed.data.domainName} is already on line ${seen} of this file` });
      continue;
    }
    firstLineOf.set(parsed.data.domainName, line);
    // An empty cell keeps a listed domain's owner email; "none" removes it.
    entries.push({
      ...parsed.data,
      ownerEmail: clearOwner ? "" : parsed.data.ownerEmail || null,
      categories: extra.categories >= 0 ? parsed.data.categories : null,
    });
  }
  if (extra.buyNowPrice >= 0) {
    errors.push(...(await buyNowBelowMinimum(entries, firstLineOf)));
    errors.sort((a, b) => a.line - b.line);
  }
  if (errors.length > 0) {
    return {
      ok: false,
      errors: errors.slice(0, MAX_REPORTED_ERRORS),
      moreErrors: Math.max(0, errors.length - MAX_REPORTED_ERRORS),
    };
  }

  const timestamp = nowIso();
  return inTransaction(async (trx) => {
    const fresh: ImportEntry[] = [];
    const updateListed = listedDomainUpdater(trx);
    for (let start = 0; start < entries.length; start += CHUNK) {
      const chunk = entries.slice(start, start + CHUNK);
      const live = await liveIdsByName(
        trx,
        chunk.map((entry) => entry.domainName),
      );
      for (const entry of chunk) {
        const id = live.get(entry.domainName);
        if (id === undefined) fresh.push(entry);
        else await updateListed(id, entry, timestamp);
      }
    }
    await insertInBatches(
      trx,
      "domains",
      fresh.map((entry) => ({
        domain_name: entry.domainName,
        asking_price_cents: entry.askingPrice,
        tracking_id: entry.trackingId,
        owner_email: entry.ownerEmail ?? "",
        pitch: entry.pitch,
        buy_now_cents: entry.buyNowPrice,
        created_at: timestamp,
        updated_at: timestamp,
      })),
    );
    if (extra.categories >= 0 || extra.pitch >= 0 || extra.buyNowPrice >= 0)
      await writeExtras(trx, entries, extra, timestamp);
    return { ok: true as const, added: fresh.length, updated: entries.length - fresh.length };
  });
}

/**
 * Gives each row's domain the row's categories, pitch and buy now price, for the columns the file has (after
 * the rows are written, so new names have ids).
 */
async function writeExtras(
  trx: Executor,
  entries: ImportEntry[],
  extra: ExtraColumns,
  timestamp: string,
): Promise<void> {
  for (let start = 0; start < entries.length; start += CHUNK) {
    const chunk = entries.slice(start, start + CHUNK);
    const ids = await liveIdsByName(
      trx,
      chunk.map((entry) => entry.domainName),
    );
    for (const entry of chunk) {
      const id = ids.get(entry.domainName);
      if (id === undefined) continue;
      if (entry.categories) await setDomainCategories(trx, id, entry.categories);
      if (extra.pitch >= 0 || extra.buyNowPrice >= 0)
        await trx
          .updateTable("domains")
          .set({
            ...(extra.pitch >= 0 ? { pitch: entry.pitch } : {}),
            ...(extra.buyNowPrice >= 0 ? { buy_now_cents: entry.buyNowPrice } : {}),
            updated_at: timestamp,
          })
          .where("id", "=", id)
          .execute();
    }
  }
}

/**
 * Rows giving a listed name a buy now price below its minimum offer, refused as the edit forms refuse it.
 * Read with the file, before the import's transaction: a minimum offer changed meanwhile is not seen.
 */
async function buyNowBelowMinimum(entries: ImportEntry[], lineOf: Map<string, number>): Promise<RowError[]> {
  const priced = entries.filter((entry) => entry.buyNowPrice !== null);
  const errors: RowError[] = [];
  for (let start = 0; start < priced.length; start += CHUNK) {
    const chunk = priced.slice(start, start + CHUNK);
    const floors = await db
      .selectFrom("domains")
      .select(["domain_name", "min_offer_cents"])
      .where("deleted_at", "is", null)
      .where("min_offer_cents", "is not", null)
      .where(
        inList(
          "domain_name",
          chunk.map((entry) => entry.domainName),
        ),
      )
      .execute();
    const floorOf = new Map(floors.map((row) => [row.domain_name, Number(row.min_offer_cents)]));
    for (const entry of chunk) {
      const floor = floorOf.get(entry.domainName);
      if (floor !== undefined && entry.buyNowPrice! < floor)
        errors.push({ line: lineOf.get(entry.domainName)!, message: buyNowBelowMinimumText(floor) });
    }
  }
  return errors;
}

/** The ids of the live domains among `names`, by name. */
async function liveIdsByName(executor: Executor, names: string[]): Promise<Map<string, number>> {
  const rows = await executor
    .selectFrom("domains")
    .select(["id", "domain_name"])
    .where("deleted_at", "is", null)
    .where(inList("domain_name", names))
    .execute();
  return new Map(rows.map((row) => [row.domain_name, row.id]));
}

/**
 * Updates a listed domain: the row's price and tracking ID, and its owner email unless the cell was empty.
 * Built and compiled once per import, then run with each row's values: building an import's up to
 * 200,000 updates one by one cost twice as much as running them.
 */
function listedDomainUpdater(executor: Executor) {
  const compiled = executor
    .updateTable("domains")
    .set((eb) => ({
      asking_price_cents: eb.val(0),
      tracking_id: eb.val(""),
      owner_email: eb.fn.coalesce(eb.val<string | null>(null), eb.ref("owner_email")),
      updated_at: eb.val(""),
    }))
    .where("id", "=", 0)
    .compile();
  return async (id: number, entry: ImportEntry, timestamp: string): Promise<void> => {
    // The parameters in the order of the statement above.
    // A compiled query skips the plugins, NUL stripping included (see strip-nul.server.ts).
    const parameters = [entry.askingPrice, entry.trackingId, entry.ownerEmail, timestamp, id].map(withoutNul);
    await executor.executeQuery({ ...compiled, parameters });
  };
}

/** A number written as given (a price's "123.00"): unquoted, as every number is. */
interface DecimalCell {
  decimal: string;
}
type CsvCell = string | number | DecimalCell;

const decimal = (text: string): DecimalCell => ({ decimal: text });

/**
 * Every text cell quoted and guarded against running as a formula (app/lib/csv-cells.ts): quotes alone do
 * not keep a spreadsheet that splits at `;` from reading `note;=1+1` as two cells, the second a formula.
 * Numbers are written bare, so they stay numbers.
 */
const CSV_OPTIONS = {
  quoted_string: true,
  cast: {
    string: (value: string) => guardCell(value),
    object: (value: Record<string, unknown>) => ({ value: (value as unknown as DecimalCell).decimal, quoted: false }),
  },
};

function csvRecords(records: CsvCell[][]): string {
  return stringify(records, CSV_OPTIONS);
}

/** Streams rows page by page (keyset on id): the database is never held for the whole download. */
export function csvStream<R extends { id: number }>(
  header: string[],
  nextChunk: (afterId: number) => Promise<R[]>,
  toCells: (row: R) => CsvCell[],
) {
  let afterId = 0;
  let headerSent = false;
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        // A byte-order mark first: spreadsheets then read the file as UTF-8 (accents intact).
        controller.enqueue(encoder.encode(`\uFEFF${csvRecords([header])}`));
        return;
      }
      const rows = await nextChunk(afterId);
      if (rows.length === 0) return controller.close();
      afterId = rows[rows.length - 1]!.id;
      controller.enqueue(encoder.encode(csvRecords(rows.map(toCells))));
    },
  });
}

/**
 * Same first four columns as the import, and its `categories`, `pitch` and `buy_now_price` columns, so an
 * export can be edited and imported back.
 */
export function exportPortfolioCsv(): ReadableStream<Uint8Array> {
  return csvStream(
    [
      "domain",
      "price",
      "tracking_id",
      "owner_email",
      "paid_inquiries",
      "created_at",
      "categories",
      "pitch",
      "buy_now_price",
    ],
    async (afterId) => {
      const rows = await db
        .selectFrom("domains")
        .select([
          "id",
          "domain_name",
          "asking_price_cents",
          "tracking_id",
          "owner_email",
          "inquiry_count",
          "created_at",
          "pitch",
          "buy_now_cents",
        ])
        .where("deleted_at", "is", null)
        .where("id", ">", afterId)
        .orderBy("id")
        .limit(CHUNK)
        .execute();
      const categories = await categoriesOfDomains(rows.map((row) => row.id));
      return rows.map((row) => ({
        ...row,
        categories: formatCategoryList((categories.get(row.id) ?? []).map((category) => category.name)),
      }));
    },
    (row) => [
      row.domain_name,
      decimal(centsToDollarText(row.asking_price_cents)),
      row.tracking_id,
      row.owner_email,
      row.inquiry_count,
      row.created_at,
      row.categories,
      row.pitch ?? "",
      row.buy_now_cents === null ? "" : decimal(centsToDollarText(row.buy_now_cents)),
    ],
  );
}

/** Paid inquiries as CSV; with `ownerEmail` (normalized) only those sent to that owner (an owner's desk). */
export function exportInquiriesCsv(ownerEmail?: string): ReadableStream<Uint8Array> {
  return csvStream(
    [
      "id",
      "paid_at",
      "domain",
      "name",
      "email",
      "phone",
      "offer",
      "message",
      "amount",
      "status",
      "answered_at",
      "refunded_at",
    ],
    (afterId) =>
      db
        .selectFrom("inquiries")
        .select([
          "id",
          "paid_at",
          "domain_name",
          "name",
          "email",
          "phone",
          "offer",
          "message",
          "amount_cents",
          "status",
          "answered_at",
          "refunded_at",
        ])
        .where("paid_at", "is not", null)
        .where("status", "in", ["paid", "refunded"])
        .$if(ownerEmail !== undefined, (query) => query.where(inquiryOwnerIs(ownerEmail!)))
        .where("id", ">", afterId)
        .orderBy("id")
        .limit(CHUNK)
        .$narrowType<{ paid_at: string }>()
        .execute(),
    (row) => [
      row.id,
      row.paid_at,
      row.domain_name,
      row.name,
      row.email,
      row.phone,
      row.offer,
      row.message,
      decimal(centsToDollarText(row.amount_cents)),
      row.status,
      row.answered_at ?? "",
      row.refunded_at ?? "",
    ],
  );
}

export function csvResponse(stream: ReadableStream<Uint8Array>, filename: string): Response {
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
