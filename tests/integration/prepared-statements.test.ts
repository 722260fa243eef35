import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namePgliteStatements, NamedStatementClient, statementName, worthNaming } from "~/server/db/prepared.server";

// The application's queries run as named prepared statements (app/server/db/prepared.server.ts).
// These tests hold them to what an unnamed query does: the same rows and types, the same errors,
// a session still usable after an error, the database's own locks, and a bounded number of
// statements kept.

/** The named statements the session keeps, read by the simple protocol (which is never named). */
async function kept(client: PGlite): Promise<string[]> {
  const [result] = await client.exec("select name from pg_prepared_statements where name like 'tb\\_%' order by name");
  return (result?.rows ?? []).map((row) => (row as { name: string }).name);
}

describe("named statements on the embedded database", () => {
  let named: PGlite;
  let plain: PGlite;

  beforeAll(async () => {
    named = new PGlite();
    plain = new PGlite();
    namePgliteStatements(named, 3);
    const schema = `
      create table things (id serial primary key, label text not null unique, at timestamptz, tags text[], data jsonb, ok boolean, n int);
      insert into things (label, at, tags, data, ok, n) values
        ('a', '2026-01-31 21:00:00-05', '{x,y}', '{"k": [1, 2]}', true, 1),
        ('b', null, '{}', null, false, 2);`;
    await named.exec(schema);
    await plain.exec(schema);
  });

  afterAll(async () => {
    await named.close();
    await plain.close();
  });

  it("answers every kind of value as PGlite's own query does, and keeps one statement per text", async () => {
    const before = await kept(named);
    const text = "select id, label, at, tags, data, ok, n from things where n >= $1 and label <> $2 order by id";
    const params = [1, "zzz"];
    for (const options of [undefined, { rowMode: "array" as const }]) {
      const mine = await named.query(text, params, options);
      const theirs = await plain.query(text, params, options);
      // The whole answer: rows, fields, command, affected rows and row count.
      expect(mine).toEqual(theirs);
      expect(mine.rows).toHaveLength(2);
    }
    // Values of every kind go in as PGlite would send them.
    const insert = "insert into things (label, at, tags, data, ok, n) values ($1, $2, $3, $4, $5, $6) returning label, at, tags, data, ok, n";
    const values = ["c", new Date("2026-02-01T02:00:00Z"), ["p", "q"], { nested: { list: [1] } }, true, null];
    const mine = await named.query(insert, values);
    const theirs = await plain.query(insert, values);
    expect(mine).toEqual(theirs);
    expect(mine.affectedRows).toBe(1);
    // A parser given with the query comes first, as in PGlite's own query.
    const asText = { parsers: { 1184: (value: string) => `at ${value}` } };
    expect(await named.query("select at from things where label = $1", ["a"], asText)).toEqual(
      await plain.query("select at from things where label = $1", ["a"], asText),
    );
    // Three texts, run five times: three statements more (PGlite's own start-up query may be one already).
    const added = (await kept(named)).filter((name) => !before.includes(name));
    expect(added).toEqual([statementName(insert), statementName(text), statementName("select at from things where label = $1")].sort());
  });

  it("gives the database's error, and the session answers the next query", async () => {
    await expect(named.query("select 1 / $1::int as x", [0])).rejects.toThrow("division by zero");
    await expect(named.query("insert into things (label) values ($1)", ["a"])).rejects.toMatchObject({ code: "23505" });
    expect((await named.query<{ x: number }>("select 1 / $1::int as x", [1])).rows).toEqual([{ x: 1 }]);
  });

  it("keeps at most its number of statements, closing the least recently used", async () => {
    for (let i = 1; i <= 5; i++) await named.query(`select ${i} as n where $1::int > 0`, [1]);
    expect(await kept(named)).toEqual([3, 4, 5].map((i) => statementName(`select ${i} as n where $1::int > 0`)).sort());
  });

  it("prepares a statement again when a migration changed its table", async () => {
    const text = "select n from things where label = $1";
    expect((await named.query(text, ["a"])).rows).toEqual([{ n: 1 }]);
    await named.exec("alter table things alter column n type text");
    expect((await named.query(text, ["a"])).rows).toEqual([{ n: "1" }]);
  });

  it("waits for a transaction, as PGlite's own query does", async () => {
    const order: string[] = [];
    const transaction = named.transaction(async (tx) => {
      await tx.query("update things set ok = false where label = 'a'");
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.query("update things set ok = true where label = 'a'");
      order.push("transaction");
    });
    const reads = Array.from({ length: 10 }, async () => {
      const { rows } = await named.query<{ ok: boolean }>("select ok from things where label = $1", ["a"]);
      order.push(`read ${rows[0]!.ok}`);
    });
    await Promise.all([transaction, ...reads]);
    expect(order).toEqual(["transaction", ...Array<string>(10).fill("read true")]);
  });

  it("leaves unnamed what does not plan or is too large to keep", async () => {
    const before = await kept(named);
    await named.query("set statement_timeout = 0");
    const ids = Array.from({ length: 300 }, (_, i) => i);
    const { rows } = await named.query(`select count(*)::int as c from things where id in (${ids.map((i) => `$${i + 1}`).join(", ")})`, ids);
    expect(rows).toEqual([{ c: 3 }]);
    expect(await kept(named)).toEqual(before);
  });
});

describe("which texts are named", () => {
  it("names the statements that plan, of a sensible size", () => {
    expect(worthNaming('select "id" from "user" where "id" = $1', 1)).toBe(true);
    expect(worthNaming("  WITH x as (select 1) select * from x", 0)).toBe(true);
    expect(worthNaming("insert into t values ($1)", 1)).toBe(true);
    expect(worthNaming("vacuum analyze", 0)).toBe(false);
    expect(worthNaming("set local x = 1", 0)).toBe(false);
    expect(worthNaming("select $1", 201)).toBe(false);
    expect(worthNaming(`select '${"x".repeat(20_001)}'`, 0)).toBe(false);
    expect(statementName("select 1")).toBe(statementName("select 1"));
    expect(statementName("select 1")).not.toBe(statementName("select 2"));
    expect(statementName("select 1")).toMatch(/^tb_[0-9a-f]{24}$/);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL?.trim()))("named statements on PostgreSQL", () => {
  it("names drizzle's queries on each connection, and answers as an unnamed query does", async () => {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1, Client: NamedStatementClient });
    try {
      const client = await pool.connect();
      try {
        const text = "select $1::int + 1 as n, $2::text as label";
        const first = await client.query({ text, rowMode: "array" }, [1, "a"]);
        const again = await client.query({ text, rowMode: "array" }, [41, "b"]);
        expect(first.rows).toEqual([[2, "a"]]);
        expect(again.rows).toEqual([[42, "b"]]);
        await client.query("select $1::int as plain", [1]);
        const { rows } = await client.query<{ name: string }>("select name from pg_prepared_statements order by name");
        expect(rows.map((r) => r.name)).toEqual([statementName(text)]);
        await expect(client.query({ text: "select 1 / $1::int" }, [0])).rejects.toThrow("division by zero");
        expect((await client.query({ text, rowMode: "array" }, [2, "c"])).rows).toEqual([[3, "c"]]);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });
});
