import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { createMigratedSqlite, createTestDatabase, resetDatabase } from './test-database';

/** The users table of the schema, mapped here so that this library needs no feature library. */
@Entity('users')
class UserRow {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar' }) login: string;
  @Column({ type: 'varchar' }) role: string;
  @Column({ name: 'created_at', type: 'datetime' }) createdAt: Date;
}

describe('test databases', () => {
  it('gives SQLite tests an in-memory database', async () => {
    const database = await createTestDatabase('sqlite');
    expect(database.url).toBe('sqlite::memory:');
    await expect(database.drop()).resolves.toBeUndefined();
  });

  it('empties tables and restarts ids', async () => {
    const dataSource = await createMigratedSqlite([UserRow]);
    const users = dataSource.getRepository(UserRow);
    await users.save(users.create({ login: 'a', role: 'editor', createdAt: new Date() }));
    await resetDatabase(dataSource);
    expect(await users.count()).toBe(0);
    const again = await users.save(users.create({ login: 'b', role: 'editor', createdAt: new Date() }));
    expect(again.id).toBe(1);
    await dataSource.destroy();
  });
});
