import { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { Driver } from 'typeorm/driver/Driver';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata';

/** Sets an entity's columns from a row that holds them under aliases. */
type Filler = (entity: ObjectLiteral, row: Record<string, unknown>) => void;

/**
 * Column types whose values both drivers hand over as they read them (mysql2 and better-sqlite3 give numbers and
 * strings): `prepareHydratedValue` converts booleans, dates, times, JSON, arrays, enums and `Number` columns only.
 */
const AS_READ = new Set<unknown>(['int', 'integer', 'varchar', 'char', 'text', 'mediumtext', 'longtext']);

/**
 * The filler of `columns` read under `<prefix><index>`, each value converted by the driver as TypeORM converts it.
 * Written once per entity as a function of its own, one statement per column with the alias and property as
 * constants: a list page hydrates a few dozen records with some thirty columns each, and a loop over the columns
 * read each through a lookup by a name that changes every step (megamorphic, about a thirtieth of a list's time).
 * A column that is a plain property of its entity is set directly (virtual columns are never read), one in an
 * embedded object through its metadata; a column whose type the driver hands over as read is not converted.
 */
function filler(columns: ColumnMetadata[], prefix: string, driver: Driver): Filler {
  const converted: ColumnMetadata[] = [];
  const embedded: ColumnMetadata[] = [];
  const statements = columns.map((column, index) => {
    const read = `row[${JSON.stringify(`${prefix}${index}`)}]`;
    const value = !column.transformer && AS_READ.has(column.type) ? read : `driver.prepareHydratedValue(${read}, converted[${converted.push(column) - 1}])`;
    if (column.embeddedMetadata) return `embedded[${embedded.push(column) - 1}].setEntityValue(entity, ${value});`;
    return `entity[${JSON.stringify(column.propertyName)}] = ${value};`;
  });
  const make = new Function('driver', 'converted', 'embedded', `return function fill(entity, row) {\n${statements.join('\n')}\n};`) as (driver: Driver, converted: ColumnMetadata[], embedded: ColumnMetadata[]) => Filler;
  return make(driver, converted, embedded);
}

/**
 * Loads records with their translations by id: one query whose SQL is built once, hydrated from the entities'
 * column metadata with the driver's own value conversions. Lists load a page of records on every request;
 * TypeORM's query builder spends more time building that query and mapping its rows than the database spends
 * answering it.
 */
export class TranslatedLoader<E extends ObjectLiteral> {
  private prepared?: {
    /** The columns of a record and of a translation, each under its own alias (`r<n>`, `t<n>`). */
    select: string;
    from: string;
    /** The FROM clause of the records of a derived table `p` with an `id` column, joined with their translations. */
    joined: (source: string) => string;
    /** How each row fills a record and a translation: column by column, from its alias. */
    record: Filler;
    translation: Filler;
    idAlias: string;
    textIdAlias: string;
    metadata: EntityMetadata;
    target: EntityMetadata;
  };

  constructor(
    private readonly dataSource: DataSource,
    private readonly entity: EntityTarget<E>,
    /** The property of the entity that holds its translations (a one-to-many relation). */
    private readonly translationsProperty = 'translations',
  ) {}

  private prepare() {
    if (this.prepared) return this.prepared;
    const metadata = this.dataSource.getMetadata(this.entity);
    const relation = metadata.findRelationWithPropertyPath(this.translationsProperty);
    if (!relation?.inverseRelation) throw new Error(`${metadata.name}.${this.translationsProperty} is not a one-to-many relation`);
    const target = relation.inverseEntityMetadata;
    const owner = relation.inverseRelation.joinColumns[0].databaseName;
    const quote = (name: string) => this.dataSource.driver.escape(name);
    const record = metadata.columns.filter((column) => !column.isVirtual);
    const translation = target.columns.filter((column) => !column.isVirtual);
    const columns = [
      ...record.map((column, index) => `r.${quote(column.databaseName)} AS ${quote(`r${index}`)}`),
      ...translation.map((column, index) => `t.${quote(column.databaseName)} AS ${quote(`t${index}`)}`),
    ];
    const select = columns.join(', ');
    const translations = `LEFT JOIN ${quote(target.tableName)} t ON t.${quote(owner)} = r.${quote('id')}`;
    const from = `FROM ${quote(metadata.tableName)} r ${translations}`;
    const joined = (source: string) => `FROM ${source} INNER JOIN ${quote(metadata.tableName)} r ON r.${quote('id')} = p.id ${translations}`;
    const idAlias = `r${record.findIndex((column) => column.isPrimary)}`;
    const textIdAlias = `t${translation.findIndex((column) => column.isPrimary)}`;
    const driver = this.dataSource.driver;
    this.prepared = { select, from, joined, record: filler(record, 'r', driver), translation: filler(translation, 't', driver), idAlias, textIdAlias, metadata, target };
    return this.prepared;
  }

  /** The records of `ids` that exist, in the order of `ids`, each with all its translations. */
  async load(ids: number[], manager: EntityManager = this.dataSource.manager): Promise<E[]> {
    if (ids.length === 0) return [];
    const byId = new Map((await this.loadWhere(`r.id IN (${ids.map(() => '?').join(', ')})`, ids, undefined, manager)).map((entity) => [entity['id'] as number, entity]));
    return ids.map((id) => byId.get(id)).filter((entity): entity is E => entity !== undefined);
  }

  /**
   * The records meeting an SQL condition on alias `r` (with `?` parameters), each with all its translations, in
   * the order of `orderBy` (SQL on alias `r`): a page can be selected and loaded in one query.
   */
  async loadWhere(condition: string, params: unknown[], orderBy?: string, manager: EntityManager = this.dataSource.manager): Promise<E[]> {
    const { select, from } = this.prepare();
    const rows: Record<string, unknown>[] = await manager.query(`SELECT ${select} ${from} WHERE ${condition}${orderBy ? ` ORDER BY ${orderBy}` : ''}`, params);
    return [...this.hydrate(rows).keys()];
  }

  /**
   * As `loadWhere`, with more columns read in the same statement (SQL on alias `r`, each with its own alias): each
   * record with the first row it was read from, which holds those columns.
   */
  async loadWith(condition: string, params: unknown[], also: string, manager: EntityManager = this.dataSource.manager): Promise<Map<E, Record<string, unknown>>> {
    const { select, from } = this.prepare();
    const rows: Record<string, unknown>[] = await manager.query(`SELECT ${select}, ${also} ${from} WHERE ${condition}`, params);
    return this.hydrate(rows);
  }

  /**
   * The records whose ids a derived table gives (`source`: SQL naming it `p`, with an `id` column), each with all its
   * translations and more columns (as `loadWith`), in the order of `orderBy` (SQL on `p` and `r`): a page's rows
   * selected and their records read in one statement.
   */
  async loadJoined(source: string, params: unknown[], also: string, orderBy: string, manager: EntityManager = this.dataSource.manager): Promise<Map<E, Record<string, unknown>>> {
    const { select, joined } = this.prepare();
    const rows: Record<string, unknown>[] = await manager.query(`SELECT ${select}, ${also} ${joined(source)} ORDER BY ${orderBy}`, params);
    return this.hydrate(rows);
  }

  /** The records of joined rows (one per translation), in the order of their first rows, each with that row. */
  private hydrate(rows: Record<string, unknown>[]): Map<E, Record<string, unknown>> {
    const { record, translation, idAlias, textIdAlias, metadata, target } = this.prepare();
    const relation = this.translationsProperty;
    const byId = new Map<number, E>();
    const firstRows = new Map<E, Record<string, unknown>>();
    for (const row of rows) {
      const id = Number(row[idAlias]);
      let entity = byId.get(id);
      if (!entity) {
        entity = metadata.create() as E;
        record(entity, row);
        (entity as Record<string, unknown>)[relation] = [];
        byId.set(id, entity);
        firstRows.set(entity, row);
      }
      if (row[textIdAlias] === null || row[textIdAlias] === undefined) continue;
      const text = target.create() as ObjectLiteral;
      translation(text, row);
      ((entity as Record<string, unknown>)[relation] as ObjectLiteral[]).push(text);
    }
    return firstRows;
  }
}
