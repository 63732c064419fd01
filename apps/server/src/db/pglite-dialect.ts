import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

// Both drivers must hand code the same JavaScript types (TOOLCHAIN.md): int8 and numeric as
// numbers (counts, sums, money in USD), date as 'YYYY-MM-DD' text (pg would shift it to local midnight).
export const INT8 = 20;
export const NUMERIC = 1700;
export const DATE = 1082;
const toNumber = (v: string) => Number(v);
const asText = (v: string) => v;
export const pgliteParsers = { [INT8]: toNumber, [NUMERIC]: toNumber, [DATE]: asText };

/**
 * A Kysely dialect over one embedded PGlite instance. PGlite has a single connection, so the
 * driver hands it to one user at a time: a transaction holds it until commit or rollback.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;
  constructor(pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.queue;
    this.queue = previous.then(() => next);
    await previous;
    this.connection.release = release;
    return this.connection;
  }
  async beginTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(conn: DatabaseConnection) {
    (conn as PGliteConnection).release?.();
  }
  async destroy() {}
}

class PGliteConnection implements DatabaseConnection {
  release: (() => void) | undefined;
  constructor(private readonly pglite: PGlite) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Parameterless SQL goes through the simple protocol, which (like pg) allows several
    // statements in one text, as migrations use.
    const result =
      compiled.parameters.length === 0
        ? ((await this.pglite.exec(compiled.sql, { parsers: pgliteParsers })).at(-1) as Awaited<ReturnType<PGlite['query']>>)
        : // Parsers per query: a clone() of an instance does not inherit the instance's parsers.
          await this.pglite.query<R>(compiled.sql, [...compiled.parameters], { parsers: pgliteParsers });
    const affected = result?.affectedRows;
    return {
      rows: (result?.rows ?? []) as R[],
      ...(affected !== undefined && result?.command !== 'SELECT' ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not support streaming queries');
  }
}
