import type Database from "better-sqlite3";

let counter = 0;

/** A unique, valid domain name for one test, so tests sharing a server never collide. */
export function uniqueDomainName(prefix = "test"): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}.com`;
}

/** Random lower-case letters after `prefix` (no digits: a tag that length and "No digits" filters leave alone). */
export function letterTag(prefix: string, length = 4): string {
  const letters = Array.from({ length }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26)));
  return `${prefix}${letters.join("")}`;
}

/** Inserts a listed domain straight into the server's SQLite file (test setup only). */
export function insertDomain(
  db: Database.Database,
  domain: { name: string; priceCents: number; trackingId?: string; ownerEmail?: string; createdAt?: string },
): number {
  const timestamp = domain.createdAt ?? new Date().toISOString();
  const result = db
    .prepare(
      `INSERT INTO domains (domain_name, asking_price_cents, tracking_id, owner_email, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(
      domain.name,
      domain.priceCents,
      domain.trackingId ?? "tracker",
      domain.ownerEmail ?? "owner@example.test",
      timestamp,
      timestamp,
    );
  return Number(result.lastInsertRowid);
}

/**
 * Inserts many rows into one table in one transaction, a few hundred rows a statement (test setup only):
 * one round trip per statement on PostgreSQL, where a statement per row would take a minute for 6,000.
 */
export function insertRows(db: Database.Database, table: string, rows: Record<string, unknown>[]): void {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  db.transaction(() => {
    for (let start = 0; start < rows.length; start += 500) {
      const chunk = rows.slice(start, start + 500);
      db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${chunk.map(() => tuple).join(", ")}`).run(
        chunk.flatMap((row) => columns.map((column) => row[column])),
      );
    }
  })();
}
