import type { DataSource, ObjectLiteral } from 'typeorm';

/** What adds conditions to a statement over one table: a `SelectStatement`, or TypeORM's query builder. */
export interface Conditions {
  andWhere(sql: string, params?: ObjectLiteral): unknown;
}

/**
 * A SELECT over one table under an alias, written from SQL fragments (conditions with `:name` and `:...list`
 * parameters, select expressions, ordering and paging) and made into the driver's statement and positional
 * parameters in one step. For statements whose conditions are SQL already (column names, not entity properties):
 * TypeORM's query builder reads every fragment again to rename properties, and made a tenth of an event list's
 * CPU time in the service; this joins the fragments as given. The text is `SELECT <list> FROM <table> <alias>
 * [WHERE (<condition>) AND ...] [ORDER BY ...] [LIMIT n [OFFSET m]]`, the table and alias quoted as the driver
 * quotes them.
 */
export class SelectStatement {
  private selection: string[] = [];
  private readonly conditions: string[] = [];
  private readonly params: ObjectLiteral = {};
  private ordering: string[] = [];
  private limitValue?: number;
  private offsetValue?: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly table: string,
    private readonly alias: string,
  ) {}

  /** Adds a condition (SQL on the alias) that every row must meet, with its named parameters. */
  andWhere(sql: string, params?: ObjectLiteral): this {
    this.conditions.push(sql);
    if (params) Object.assign(this.params, params);
    return this;
  }

  /** Selects one expression (in place of what was selected), under a name when given. */
  select(sql: string, as?: string): this {
    this.selection = [];
    return this.addSelect(sql, as);
  }

  /** Selects one more expression, under a name when given. */
  addSelect(sql: string, as?: string): this {
    this.selection.push(as === undefined ? sql : `${sql} AS ${this.dataSource.driver.escape(as)}`);
    return this;
  }

  /** Orders by one expression (in place of any ordering before). */
  orderBy(sql: string, direction: 'ASC' | 'DESC' = 'ASC'): this {
    this.ordering = [];
    return this.addOrderBy(sql, direction);
  }

  addOrderBy(sql: string, direction: 'ASC' | 'DESC' = 'ASC'): this {
    this.ordering.push(`${sql} ${direction}`);
    return this;
  }

  limit(count: number): this {
    this.limitValue = wholeNumber(count, 'limit');
    return this;
  }

  offset(count: number): this {
    this.offsetValue = wholeNumber(count, 'offset');
    return this;
  }

  /** The statement's text and its positional parameters, in the driver's form. */
  getQueryAndParameters(): [string, unknown[]] {
    return this.statement(this.selection.length > 0 ? this.selection.join(', ') : `${this.dataSource.driver.escape(this.alias)}.*`, true);
  }

  async getRawMany<T = Record<string, unknown>>(): Promise<T[]> {
    const [sql, params] = this.getQueryAndParameters();
    return this.dataSource.query(sql, params);
  }

  async getRawOne<T = Record<string, unknown>>(): Promise<T | undefined> {
    return (await this.getRawMany<T>())[0];
  }

  /** How many rows meet the conditions (ordering and paging left out). */
  async getCount(): Promise<number> {
    const [sql, params] = this.statement(`COUNT(*) AS ${this.dataSource.driver.escape('cnt')}`, false);
    const [row] = await this.dataSource.query(sql, params);
    return Number(row?.cnt ?? 0);
  }

  private statement(selection: string, paged: boolean): [string, unknown[]] {
    const { driver } = this.dataSource;
    let sql = `SELECT ${selection} FROM ${driver.escape(this.table)} ${driver.escape(this.alias)}`;
    if (this.conditions.length > 0) sql += ` WHERE ${this.conditions.map((condition) => `(${condition})`).join(' AND ')}`;
    if (paged) {
      if (this.ordering.length > 0) sql += ` ORDER BY ${this.ordering.join(', ')}`;
      // An offset alone is written with the largest limit each engine takes, as TypeORM writes it.
      if (this.limitValue !== undefined) sql += ` LIMIT ${this.limitValue}`;
      else if (this.offsetValue !== undefined) sql += this.dataSource.options.type === 'mysql' ? ' LIMIT 18446744073709551615' : ' LIMIT -1';
      if (this.offsetValue !== undefined) sql += ` OFFSET ${this.offsetValue}`;
    }
    return driver.escapeQueryWithParameters(sql, this.params, {});
  }
}

function wholeNumber(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`a statement's ${name} is a whole number, not ${value}`);
  return value;
}
