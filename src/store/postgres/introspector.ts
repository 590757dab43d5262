// Kysely's PostgreSQL dialect with an introspector that sees the store's own schema only. Kysely's migrator asks the
// introspector whether its bookkeeping tables exist, and the stock one reads every table of every schema of the
// database: slow on a database shared with other applications, and it fails ("schema … does not exist") when another
// schema is dropped while it reads.
import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`SELECT current_schema() AS name`.execute(this.db);
    return rows;
  }

  /** The tables of the current schema, without their columns (nothing here reads them). */
  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; type: string }>`
      SELECT table_name AS name, table_schema AS schema, table_type AS type
      FROM information_schema.tables WHERE table_schema = current_schema()`.execute(this.db);
    return rows.map((row) => ({ name: row.name, schema: row.schema, isView: row.type === 'VIEW', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}
