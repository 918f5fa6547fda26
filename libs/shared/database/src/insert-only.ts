import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

/**
 * Inserts rows of an entity as they are given, without reading them back. TypeORM's `insert` follows each insert
 * with a select of the columns that have defaults, to copy them onto the entity: one statement more per write, for
 * values the writes have set themselves or never read. Gives the id generated for a row inserted alone (MySQL's
 * insert id, SQLite's last row id).
 */
export async function insertOnly<E extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<E>, values: QueryDeepPartialEntity<E> | QueryDeepPartialEntity<E>[]): Promise<number> {
  const { raw } = await manager.createQueryBuilder().insert().into(entity).values(values).updateEntity(false).execute();
  return Number(typeof raw === 'object' && raw !== null && 'insertId' in raw ? (raw as { insertId: number }).insertId : raw);
}
