import { createHash } from "node:crypto";
import { parse, protocol, types } from "@electric-sql/pglite";
import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite";
import pg from "pg";

/**
 * Named prepared statements for the application's queries, on both databases.
 *
 * Every query the application sends is one of a few hundred texts that drizzle builds the same way
 * each time, with the values apart. Sent unnamed, PostgreSQL parses and plans each of them again on
 * every call; on the embedded database planning is most of a query's cost (the client's filing
 * page: 16 ms of database time per view unnamed, under 4 ms named, in the same process). Named,
 * a text is parsed once per connection, and after five runs PostgreSQL keeps one plan for it when
 * that plan is no worse than the ones made for the values (its plan cache's own rule).
 *
 * Only the statements that plan (SELECT, INSERT, UPDATE, DELETE, WITH) are named, and only texts
 * of a sensible size with few values: a one-off text (a list of ten thousand ids, say) stays
 * unnamed and leaves nothing behind. See docs/decisions/0034-named-prepared-statements.md.
 */
const PLANNED = /^\s*(select|insert|update|delete|with)\b/i;
const MAX_TEXT = 20_000;
const MAX_VALUES = 200;

/** Whether a query's text is one to name. */
export function worthNaming(text: string, values: number): boolean {
  return text.length <= MAX_TEXT && values <= MAX_VALUES && PLANNED.test(text);
}

/** A statement's name: the same text always gets the same name, on every connection. */
export function statementName(text: string): string {
  return `tb_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
}

/** How many named statements the embedded database keeps; the least recently used one goes first. */
export const PGLITE_STATEMENTS = 300;

type Statement = { name: string; types: number[] };

function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** PostgreSQL's "cached plan must not change result type": a table changed under a statement. */
function planChanged(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "0A000";
}

type Message = { name: string };
type Field = { name: string; dataTypeID: number };

/**
 * The rows of one statement's answer, as PGlite's own parseResults reads them (the same parsers,
 * the call's first, then the database's, then PGlite's defaults), without that function's cost:
 * it copies the database's table of parsers (several hundred, one per array type) into a new
 * object for every query that brings parsers of its own, as drizzle's all do.
 */
function resultOf<T>(messages: readonly Message[], parsers: Record<number | string, types.Parser>, options: QueryOptions | undefined): Results<T> {
  let fields: Field[] = [];
  let read: Array<((value: string) => unknown) | null> = [];
  const rows: unknown[] = [];
  const asArrays = options?.rowMode === "array";
  for (const message of messages) {
    if (message.name === "rowDescription") {
      fields = (message as unknown as { fields: Field[] }).fields.map(({ name, dataTypeID }) => ({ name, dataTypeID }));
      read = fields.map(({ dataTypeID }) => {
        const parser = options?.parsers?.[dataTypeID] ?? parsers[dataTypeID] ?? types.parsers[dataTypeID];
        return parser ? (value: string) => parser(value, dataTypeID) : null;
      });
    } else if (message.name === "dataRow") {
      const values = (message as unknown as { fields: (string | null)[] }).fields.map((value, i) => {
        const parser = read[i];
        return value === null ? null : parser ? parser(value) : value;
      });
      rows.push(asArrays ? values : Object.fromEntries(values.map((value, i) => [fields[i]!.name, value])));
    } else if (message.name === "commandComplete") {
      const words = (message as unknown as { text: string }).text.split(" ");
      const command = words[0] ?? "";
      const count = parseInt(words.at(-1) ?? "", 10);
      const affectedRows = ["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"].includes(command) ? count : 0;
      return { rows: rows as T[], fields, command, affectedRows, ...(Number.isNaN(count) ? {} : { rowCount: count }) } as Results<T>;
    }
  }
  return { rows: rows as T[], fields, affectedRows: 0 } as Results<T>;
}

/**
 * Makes an embedded database's `query` (the one drizzle calls outside a transaction) use named
 * statements. It keeps PGlite's own rules: the same mutexes as `query`, values turned into text
 * by the database's serializers for the parameter types the statement declares, rows read by
 * PGlite's own parser, and a Sync after each so that an error leaves the session ready. What it
 * does not name (a COPY with a blob, given parameter types, a text it does not plan) goes to
 * PGlite's own `query` unchanged. Queries inside a transaction keep PGlite's path.
 */
export function namePgliteStatements(client: PGlite, capacity = PGLITE_STATEMENTS): void {
  const unnamed = client.query.bind(client);
  const statements = new Map<string, Statement>();
  const serialize = protocol.serialize;

  async function prepared(text: string): Promise<Statement> {
    const known = statements.get(text);
    if (known) {
      // Most recently used last: the first entry is the one to close when the cache is full.
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    const name = statementName(text);
    const described = await client.execProtocolStream(
      joined([serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()]),
    );
    const statement = { name, types: parse.parseDescribeStatementResults(described) };
    statements.set(text, statement);
    if (statements.size > capacity) {
      const [oldest, old] = statements.entries().next().value as [string, Statement];
      statements.delete(oldest);
      await client.execProtocolStream(joined([serialize.close({ type: "S", name: old.name }), serialize.sync()]));
    }
    return statement;
  }

  async function forget(text: string): Promise<void> {
    const statement = statements.get(text);
    if (!statement) return;
    statements.delete(text);
    await client.execProtocolStream(joined([serialize.close({ type: "S", name: statement.name }), serialize.sync()]));
  }

  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const statement = await prepared(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.types[i] ?? 0;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await client.execProtocolStream(
      joined([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    return resultOf<T>(messages, client.parsers, options);
  }

  client.query = async function query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    if (options?.blob || options?.paramTypes || (!statements.has(text) && !worthNaming(text, params.length))) {
      return unnamed<T>(text, params, options);
    }
    await client._checkReady();
    // The same two locks as PGlite's own query: never inside another's transaction or query.
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        try {
          return await run<T>(text, params, options);
        } catch (error) {
          if (!planChanged(error)) throw error;
          // A migration changed a table under the statement: prepare it again, once.
          await forget(text);
          return run<T>(text, params, options);
        }
      }),
    );
  };
}

/** The names given so far by text (null: not named), so that a text is hashed once. */
const namesByText = new Map<string, string | null>();

function nameFor(text: string, values: number): string | null {
  let name = namesByText.get(text);
  if (name === undefined) {
    name = worthNaming(text, values) ? statementName(text) : null;
    // Texts are a few hundred; a flood of one-off texts only empties the memo.
    if (namesByText.size >= 2000) namesByText.clear();
    namesByText.set(text, name);
  }
  return name;
}

type QueryConfig = { text: string; name?: string; values?: unknown[] };

function isConfig(value: unknown): value is QueryConfig {
  return typeof value === "object" && value !== null && typeof (value as { text?: unknown }).text === "string";
}

/**
 * The PostgreSQL pool's client: a query drizzle sends as `{ text, ... }` with no name gets its
 * statement name. node-postgres parses a named statement once per connection and keeps it for
 * the connection's life (the pool ends a connection after an hour, so what it keeps stays small).
 */
export class NamedStatementClient extends pg.Client {
  // node-postgres's query has many overloads; this one passes every call through unchanged
  // except a config object, which gains a name.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the overloads are forwarded as they are
  override query(...args: any[]): any {
    const [config, values] = args as [unknown, unknown];
    if (isConfig(config) && config.name === undefined) {
      const name = nameFor(config.text, Array.isArray(values) ? values.length : (config.values?.length ?? 0));
      if (name !== null) args[0] = { ...config, name };
    }
    return (super.query as (...a: unknown[]) => unknown)(...args);
  }
}
