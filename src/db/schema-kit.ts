/**
 * Schema from one definition (issue "Past one machine", scope 3): a table is declared once
 * with the kit's dialect-neutral columns and built as drizzle's `sqliteTable` or `pgTable`.
 * The SQLite build is what `*.table.ts` exports, so queries, types and migrations stay as they were;
 * the PostgreSQL build exists for the next step. Timestamps stay ISO text on both, so answers are
 * byte-identical; flags are 0/1 integers on SQLite and booleans on PostgreSQL; JSON is text on
 * SQLite and jsonb on PostgreSQL; real is double precision on PostgreSQL; blobs are bytea.
 * Where the SQL itself differs (a generated column's expression, an index on an expression), the
 * definition gives both texts with `perDialect({ sqlite, pg })` and each build takes its own.
 */
import { type Column, getTableColumns, is, SQL } from "drizzle-orm";
import type {
  $Type,
  ColumnBuilderBase,
  HasDefault,
  HasGenerated,
  IsPrimaryKey,
  NotNull,
} from "drizzle-orm/column-builder";
import {
  type PgBigInt53BuilderInitial,
  type PgBooleanBuilderInitial,
  type PgColumnBuilderBase,
  type PgCustomColumnBuilder,
  type PgDoublePrecisionBuilderInitial,
  type PgIntegerBuilderInitial,
  type PgJsonbBuilderInitial,
  type PgTableWithColumns,
  type PgTextBuilderInitial,
  type ReferenceConfig as PgReferenceConfig,
  bigint as pgBigint,
  boolean as pgBoolean,
  customType as pgCustomType,
  doublePrecision as pgDouble,
  index as pgIndex,
  integer as pgInteger,
  jsonb as pgJsonb,
  primaryKey as pgPrimaryKey,
  text as pgText,
  uniqueIndex as pgUniqueIndex,
  ExtraConfigColumn,
  PgColumn,
  PgJsonb,
  pgTable as drizzlePgTable,
} from "drizzle-orm/pg-core";
import type { ConvertCustomConfig } from "drizzle-orm/pg-core/columns/custom";
import {
  type SQLiteBlobBufferBuilderInitial,
  type SQLiteBooleanBuilderInitial,
  type SQLiteColumnBuilderBase,
  type SQLiteIntegerBuilderInitial,
  type SQLiteRealBuilderInitial,
  type SQLiteTableWithColumns,
  type SQLiteTextBuilderInitial,
  type SQLiteTextJsonBuilderInitial,
  blob as sqliteBlob,
  index as sqliteIndex,
  integer as sqliteInteger,
  primaryKey as sqlitePrimaryKey,
  real as sqliteReal,
  SQLiteColumn,
  sqliteTable as drizzleSqliteTable,
  text as sqliteText,
  uniqueIndex as sqliteUniqueIndex,
} from "drizzle-orm/sqlite-core";
import type { BuildColumns } from "drizzle-orm/column-builder";
import type { Writable } from "drizzle-orm/utils";
import { processEngine } from "../config/engine";

type Kind = "text" | "integer" | "bigint" | "boolean" | "json" | "real" | "blob";
type Enum = [string, ...string[]];
/** No `$type<T>()` given: the column keeps its dialect's data type. */
type Untyped = { readonly untyped: unique symbol };
type OnDelete = NonNullable<PgReferenceConfig["actions"]["onDelete"]>;

/**
 * SQL whose text differs between the dialects, given once for each: `perDialect({ sqlite: sql`…`,
 * pg: sql`…` })`. Accepted wherever the kit takes SQL (generated columns, index parts, a partial
 * index's WHERE); each build uses its own text, so the SQLite schema stays exactly as written.
 */
export class DialectSql {
  constructor(
    readonly sqlite: SQL,
    readonly pg: SQL,
  ) {}
}
export const perDialect = (texts: { sqlite: SQL; pg: SQL }) => new DialectSql(texts.sqlite, texts.pg);
type KitSql = SQL | DialectSql;
const sqlFor = (part: KitSql, dialect: "sqlite" | "pg"): SQL => (part instanceof DialectSql ? part[dialect] : part);

/**
 * What `references` needs of the target: its name and its two builds. Not `KitTable<string, …>`:
 * a concrete table's builds are not assignable to the widened build types, so that bound refused
 * every real target.
 */
type RefTable = { readonly name: string; readonly columns: object; readonly sqlite: object; readonly pg: object };

type ColState = {
  notNull: boolean;
  hasDefault: boolean;
  defaultValue?: unknown;
  primaryKey: boolean;
  enumValues?: Readonly<Enum>;
  references?: { target: () => readonly [RefTable, string]; onDelete?: OnDelete };
  /** SQLite keeps its mode; PostgreSQL (15+) has stored generated columns only. */
  generated?: { as: KitSql; mode: "virtual" | "stored" };
};

/**
 * One dialect-neutral column. Its type parameters mirror what drizzle's builders record
 * (name, enum, not-null, default, primary key, `$type`, generated), so both builds infer what the
 * hand-written `sqliteTable` inferred.
 */
export class KitColumn<
  K extends Kind = Kind,
  N extends string = string,
  E extends Enum = Enum,
  T = Untyped,
  NN extends boolean = boolean,
  HD extends boolean = boolean,
  PK extends boolean = boolean,
  G extends boolean = boolean,
> {
  declare readonly _types: {
    kind: K;
    name: N;
    enum: E;
    type: T;
    notNull: NN;
    hasDefault: HD;
    primaryKey: PK;
    generated: G;
  };
  constructor(
    readonly kind: K,
    readonly name: N,
    readonly state: ColState,
  ) {}
  private with<R>(patch: Partial<ColState>): R {
    // The patched copy differs from `this` only in its type flags, which the caller's return type states.
    return new KitColumn(this.kind, this.name, { ...this.state, ...patch }) as R;
  }
  notNull(): KitColumn<K, N, E, T, true, HD, PK, G> {
    return this.with({ notNull: true });
  }
  default(value: Data<this> | SQL): KitColumn<K, N, E, T, NN, true, PK, G> {
    return this.with({ hasDefault: true, defaultValue: value });
  }
  primaryKey(): KitColumn<K, N, E, T, true, HD, true, G> {
    return this.with({ primaryKey: true, notNull: true });
  }
  $type<U>(): KitColumn<K, N, E, U, NN, HD, PK, G> {
    return this.with({});
  }
  /**
   * `GENERATED ALWAYS AS (…)`: `mode` is SQLite's (virtual or stored, as the table had it); the
   * PostgreSQL build is always stored, the only kind PostgreSQL 15 has. Its SQL must be immutable
   * there (no now(), no locale), which `CASE` on the row's own columns and `->>` on jsonb are.
   */
  generatedAlwaysAs(as: KitSql, options: { mode: "virtual" | "stored" }): KitColumn<K, N, E, T, NN, HD, PK, true> {
    return this.with({ generated: { as, mode: options.mode } });
  }
  /** `references(() => [users, "id"], { onDelete: "cascade" })`: resolved in the same dialect's build. */
  references<R extends RefTable>(
    target: () => readonly [R, keyof R["columns"] & string],
    actions?: { onDelete?: OnDelete },
  ): this {
    return this.with({ references: { target, onDelete: actions?.onDelete } });
  }
}

type AnyKitColumn = KitColumn<Kind, string, Enum, unknown, boolean, boolean, boolean, boolean>;
type KitColumns = Record<string, AnyKitColumn>;
type Flags<C extends AnyKitColumn> = C["_types"];
type Data<C extends AnyKitColumn> = Flags<C>["type"] extends Untyped
  ? Flags<C>["kind"] extends "text"
    ? Flags<C>["enum"][number]
    : Flags<C>["kind"] extends "integer" | "bigint" | "real"
      ? number
      : Flags<C>["kind"] extends "boolean"
        ? boolean
        : Flags<C>["kind"] extends "blob"
          ? Buffer
          : unknown
  : Flags<C>["type"];

type Apply<B extends ColumnBuilderBase, F extends Flags<AnyKitColumn>> = Gen<
  Typed<Pk<Def<Nn<B, F["notNull"]>, F["hasDefault"]>, F["primaryKey"]>, F["type"]>,
  F["generated"]
>;
type Nn<B extends ColumnBuilderBase, X> = X extends true ? NotNull<B> : B;
type Def<B extends ColumnBuilderBase, X> = X extends true ? HasDefault<B> : B;
type Pk<B extends ColumnBuilderBase, X> = X extends true ? IsPrimaryKey<NotNull<B>> : B;
type Typed<B extends ColumnBuilderBase, T> = T extends Untyped ? B : $Type<B, T>;
type Gen<B extends ColumnBuilderBase, X> = X extends true ? HasGenerated<B, { type: "always" }> : B;

type SqliteBase<F extends Flags<AnyKitColumn>> = F["kind"] extends "text"
  ? SQLiteTextBuilderInitial<F["name"], F["enum"], number | undefined>
  : F["kind"] extends "integer" | "bigint"
    ? SQLiteIntegerBuilderInitial<F["name"]>
    : F["kind"] extends "boolean"
      ? SQLiteBooleanBuilderInitial<F["name"]>
      : F["kind"] extends "json"
        ? SQLiteTextJsonBuilderInitial<F["name"]>
        : F["kind"] extends "real"
          ? SQLiteRealBuilderInitial<F["name"]>
          : SQLiteBlobBufferBuilderInitial<F["name"]>;
type ByteaConfig = { data: Buffer; driverData: Buffer };
type PgBase<F extends Flags<AnyKitColumn>> = F["kind"] extends "text"
  ? PgTextBuilderInitial<F["name"], F["enum"]>
  : F["kind"] extends "integer"
    ? PgIntegerBuilderInitial<F["name"]>
    : F["kind"] extends "bigint"
      ? PgBigInt53BuilderInitial<F["name"]>
      : F["kind"] extends "boolean"
        ? PgBooleanBuilderInitial<F["name"]>
        : F["kind"] extends "json"
          ? PgJsonbBuilderInitial<F["name"]>
          : F["kind"] extends "real"
            ? PgDoublePrecisionBuilderInitial<F["name"]>
            : PgCustomColumnBuilder<ConvertCustomConfig<F["name"], ByteaConfig>>;

/** The builders `sqliteTable` / `pgTable` would have been given by hand for these kit columns. */
export type SqliteBuilders<C extends KitColumns> = { [K in keyof C]: Apply<SqliteBase<Flags<C[K]>>, Flags<C[K]>> };
export type PgBuilders<C extends KitColumns> = { [K in keyof C]: Apply<PgBase<Flags<C[K]>>, Flags<C[K]>> };
export type SqliteBuild<N extends string, C extends KitColumns> = SQLiteTableWithColumns<{
  name: N;
  schema: undefined;
  columns: BuildColumns<N, SqliteBuilders<C>, "sqlite">;
  dialect: "sqlite";
}>;
export type PgBuild<N extends string, C extends KitColumns> = PgTableWithColumns<{
  name: N;
  schema: undefined;
  columns: BuildColumns<N, PgBuilders<C>, "pg">;
  dialect: "pg";
}>;

// Column constructors. `mode` and SQL types per dialect are decided at build time, never here.
const col = <K extends Kind, N extends string, E extends Enum = Enum>(kind: K, name: N, enumValues?: Readonly<Enum>) =>
  new KitColumn<K, N, E, Untyped, false, false, false, false>(kind, name, {
    notNull: false,
    hasDefault: false,
    primaryKey: false,
    enumValues,
  });
/** `enum` takes a literal list or an `as const` one, as drizzle's `text` does. */
export const text = <N extends string, const E extends Readonly<Enum> = Enum>(name: N, options?: { enum: E }) =>
  col<"text", N, Writable<E>>("text", name, options?.enum);
/** integer on both: 32 bits on PostgreSQL (SQLite's are 64), so counts, positions and minutes, not sizes or sums. */
export const integer = <N extends string>(name: N) => col("integer", name);
/**
 * integer on SQLite, bigint (read as a number) on PostgreSQL: values that may pass 2^31 (byte sizes,
 * money in micro-units), which PostgreSQL's integer would refuse.
 */
export const bigint = <N extends string>(name: N) => col("bigint", name);
/** 0/1 integer on SQLite (`mode: "boolean"`), boolean on PostgreSQL. */
export const boolean = <N extends string>(name: N) => col("boolean", name);
/** Text on SQLite (`mode: "json"`), jsonb on PostgreSQL. */
export const json = <T, N extends string = string>(name: N) => col("json", name).$type<T>();
/** real on SQLite, double precision on PostgreSQL. @public for the tables still to convert */
export const real = <N extends string>(name: N) => col("real", name);
/** blob (`mode: "buffer"`) on SQLite, bytea on PostgreSQL. @public for the tables still to convert */
export const blob = <N extends string>(name: N) => col("blob", name);

// The shapes `src/db/columns.ts` gives every table, from the kit.
export const id = () => text("id").primaryKey();
export const workspaceId = () => text("workspace_id").notNull();
/** ISO 8601 UTC text on both dialects: sorts correctly and reads back exactly as the API answers it. @public for the tables still to convert */
export const timestamp = <N extends string>(name: N) => text(name);
export const createdAt = () => text("created_at").notNull();
export const updatedAt = () => text("updated_at").notNull();
export const flag = <N extends string>(name: N) => boolean(name).notNull().default(false);

// Extras: indexes, unique indexes (optionally partial) and composite primary keys.
type IndexPart = Column | KitSql;
type KitExtra =
  | { kind: "index"; unique: boolean; name: string; on: IndexPart[]; where?: KitSql }
  | { kind: "primaryKey"; columns: Column[] };
class KitIndex {
  constructor(readonly extra: Extract<KitExtra, { kind: "index" }>) {}
  where(condition: KitSql): KitIndex {
    return new KitIndex({ ...this.extra, where: condition });
  }
}
const indexOn = (unique: boolean, name: string) => ({
  on: (...on: [IndexPart, ...IndexPart[]]) => new KitIndex({ kind: "index", unique, name, on }),
});
export const index = (name: string) => indexOn(false, name);
/** Optionally partial: `.where(sql`…`)`, portable SQL, or `perDialect` where it cannot be. */
export const uniqueIndex = (name: string) => indexOn(true, name);
export const primaryKey = (...columns: [Column, ...Column[]]) => ({ kind: "primaryKey", columns }) as const;
type Extras<C extends KitColumns> = (t: { [K in keyof C]: Column }) => Array<KitIndex | ReturnType<typeof primaryKey>>;

export type KitTable<N extends string, C extends KitColumns> = {
  readonly name: N;
  readonly columns: C;
  /** The SQLite table, as `sqliteTable` builds it (what `*.table.ts` exports). Built once. */
  readonly sqlite: SqliteBuild<N, C>;
  /** The PostgreSQL table, as `pgTable` builds it. Built once, on first use. */
  readonly pg: PgBuild<N, C>;
};

const bytea = pgCustomType<ByteaConfig>({ dataType: () => "bytea" });

function need<T>(value: unknown, guard: (v: unknown) => v is T, what: string): T {
  if (!guard(value)) throw new Error(`schema-kit: ${what}`);
  return value;
}
const isSqliteColumn = (v: unknown): v is SQLiteColumn => is(v, SQLiteColumn);
const isPgColumn = (v: unknown): v is PgColumn => is(v, PgColumn);
const isSqlitePart = (v: unknown): v is SQLiteColumn | SQL => is(v, SQLiteColumn) || is(v, SQL);
const isPgPart = (v: unknown): v is ExtraConfigColumn | SQL => is(v, ExtraConfigColumn) || is(v, SQL);

/**
 * The builder methods the kit calls, seen with a loose value type: the kit's flags, not this
 * code, give each column its static type (a builder's `default` takes only its own data type).
 */
type Modifiers<Col> = {
  notNull(): unknown;
  default(value: unknown): unknown;
  primaryKey(): unknown;
  references(ref: () => Col, actions?: { onDelete?: OnDelete }): unknown;
  generatedAlwaysAs(as: SQL, config?: { mode?: "virtual" | "stored" }): unknown;
};

function sqliteColumn(c: AnyKitColumn): SQLiteColumnBuilderBase {
  const s = c.state;
  const base =
    c.kind === "text"
      ? sqliteText(c.name, s.enumValues ? { enum: s.enumValues } : {})
      : c.kind === "integer" || c.kind === "bigint"
        ? sqliteInteger(c.name)
        : c.kind === "boolean"
          ? sqliteInteger(c.name, { mode: "boolean" })
          : c.kind === "json"
            ? sqliteText(c.name, { mode: "json" })
            : c.kind === "real"
              ? sqliteReal(c.name)
              : sqliteBlob(c.name, { mode: "buffer" });
  applyState(base, s, "sqlite", isSqliteColumn);
  return base;
}

/**
 * The column's flags on a dialect's builder, in the hand-written tables' call order (notNull,
 * default, primaryKey, references, generated); a reference resolves to the same dialect's column.
 */
function applyState<Col>(
  b: Modifiers<Col>,
  s: ColState,
  dialect: "sqlite" | "pg",
  isColumn: (v: unknown) => v is Col,
): void {
  if (s.notNull && !s.primaryKey) b.notNull();
  if (s.hasDefault) b.default(s.defaultValue);
  if (s.primaryKey) b.primaryKey();
  const ref = s.references;
  if (ref) {
    const target = () => {
      const [table, key] = ref.target();
      return need(Reflect.get(table[dialect], key), isColumn, `${table.name}.${key} is not a column`);
    };
    b.references(target, ref.onDelete ? { onDelete: ref.onDelete } : undefined);
  }
  // PostgreSQL 15 has stored generated columns only; SQLite keeps the declared mode.
  if (s.generated)
    b.generatedAlwaysAs(sqlFor(s.generated.as, dialect), dialect === "sqlite" ? { mode: s.generated.mode } : undefined);
}

function pgColumn(c: AnyKitColumn): PgColumnBuilderBase {
  const s = c.state;
  const base =
    c.kind === "text"
      ? pgText(c.name, s.enumValues ? { enum: s.enumValues } : {})
      : c.kind === "integer"
        ? pgInteger(c.name)
        : c.kind === "bigint"
          ? pgBigint(c.name, { mode: "number" })
          : c.kind === "boolean"
            ? pgBoolean(c.name)
            : c.kind === "json"
              ? pgJsonb(c.name)
              : c.kind === "real"
                ? pgDouble(c.name)
                : bytea(c.name);
  applyState(base, s, "pg", isPgColumn);
  return base;
}

function mapColumns<C extends KitColumns, B>(columns: C, build: (c: AnyKitColumn) => B): Record<string, B> {
  const out: Record<string, B> = {};
  for (const [key, c] of Object.entries(columns)) out[key] = build(c);
  return out;
}

/**
 * Declares a table once: `table("macros", { id: id(), … }, (t) => [index("…").on(t.workspaceId)])`.
 * `.sqlite` and `.pg` build it for each dialect (extras are handed that dialect's columns).
 */
export function table<N extends string, C extends KitColumns>(name: N, columns: C, extras?: Extras<C>): KitTable<N, C> {
  let sqliteBuilt: SqliteBuild<N, C> | undefined;
  let pgBuilt: PgBuild<N, C> | undefined;
  return {
    name,
    columns,
    get sqlite() {
      if (sqliteBuilt) return sqliteBuilt;
      // The builders are made at run time from the kit's flags; their static type is the mapped
      // `SqliteBuilders<C>`, which the table type test checks against a hand-written `sqliteTable`.
      const builders = mapColumns(columns, sqliteColumn) as unknown as SqliteBuilders<C>;
      sqliteBuilt = drizzleSqliteTable(name, builders, (t) =>
        (extras?.(t) ?? []).map((x) => {
          const e = x instanceof KitIndex ? x.extra : x;
          if (e.kind === "primaryKey") {
            const [head, ...rest] = e.columns.map((c) => need(c, isSqliteColumn, "primary key part"));
            return sqlitePrimaryKey({ columns: [head, ...rest] });
          }
          const parts = e.on.map((p) => (p instanceof DialectSql ? p.sqlite : p));
          const [head, ...rest] = parts.map((p) => need(p, isSqlitePart, `${e.name}: not a column or SQL`));
          const built = (e.unique ? sqliteUniqueIndex : sqliteIndex)(e.name).on(head, ...rest);
          return e.where ? built.where(sqlFor(e.where, "sqlite")) : built;
        }),
      );
      return sqliteBuilt;
    },
    get pg() {
      if (pgBuilt) return pgBuilt;
      const builders = mapColumns(columns, pgColumn) as unknown as PgBuilders<C>;
      pgBuilt = drizzlePgTable(name, builders, (t) =>
        (extras?.(t) ?? []).map((x) => {
          const e = x instanceof KitIndex ? x.extra : x;
          if (e.kind === "primaryKey") {
            const [head, ...rest] = e.columns.map((c) => need(c, isPgColumn, "primary key part"));
            return pgPrimaryKey({ columns: [head, ...rest] });
          }
          const parts = e.on.map((p) => (p instanceof DialectSql ? p.pg : p));
          const [head, ...rest] = parts.map((p) => need(p, isPgPart, `${e.name}: not a column or SQL`));
          const built = (e.unique ? pgUniqueIndex : pgIndex)(e.name).on(head, ...rest);
          return e.where ? built.where(sqlFor(e.where, "pg")) : built;
        }),
      );
      for (const column of Object.values(getTableColumns(pgBuilt))) if (is(column, PgJsonb)) passJsonThrough(column);
      return pgBuilt;
    },
  };
}

/**
 * Bun's PostgreSQL client encodes a json or jsonb parameter itself (JSON.stringify of the value it
 * is given) and answers jsonb already parsed. drizzle's jsonb column stringifies too, so a value
 * went in twice encoded: a jsonb string holding the JSON text, which `->>`, `@>` and every JSON
 * function in SQL then see as a string. So the kit's jsonb columns hand the value over as it is.
 */
function passJsonThrough(column: PgColumn): void {
  const jsonb = column as unknown as { mapToDriverValue(v: unknown): unknown; mapFromDriverValue(v: unknown): unknown };
  jsonb.mapToDriverValue = (value) => value;
  jsonb.mapFromDriverValue = (value) => value;
}

function built<N extends string, T>(name: N, def: { name: string }, build: () => T): T {
  if (def.name !== name) throw new Error(`schema-kit: table "${def.name}" exported as "${name}"`);
  return build();
}
/**
 * The build this process runs on, which a `*.table.ts` exports as `deskTable("<name>", <kit table>)`
 * (scripts/check-tables.ts and gen-feature-map.ts find a table's owner by that exported call): the
 * SQLite build, or the PostgreSQL one when the process runs on PostgreSQL (src/config/engine.ts).
 * Typed as the SQLite build, which is what drizzle-kit and `bun run typecheck` see; `bun run
 * typecheck:pg` checks the same code against the PostgreSQL builds (`*.table.pg.ts`), so code that
 * type-checks both ways runs on either.
 */
export const deskTable = <N extends string, C extends KitColumns>(name: N, def: KitTable<N, C>): SqliteBuild<N, C> =>
  built(name, def, () => (processEngine === "postgres" ? (def.pg as unknown as SqliteBuild<N, C>) : def.sqlite));
/** The PostgreSQL build, `pgTable("<name>", <kit table>)`, exported from a file drizzle-kit does not read. */
export const pgTable = <N extends string, C extends KitColumns>(name: N, def: KitTable<N, C>): PgBuild<N, C> =>
  built(name, def, () => def.pg);
