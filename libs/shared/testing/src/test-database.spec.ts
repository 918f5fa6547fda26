import { existsSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
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
  it('gives SQLite tests a file of their own in a new folder, which dropping removes', async () => {
    const [first, second] = [await createTestDatabase('sqlite'), await createTestDatabase('sqlite')];
    expect(first.url).toMatch(/^sqlite:.*calendar-test-[^/]+\/calendar\.sqlite$/);
    expect(second.url).not.toBe(first.url);
    const folder = dirname(first.url.slice('sqlite:'.length));
    writeFileSync(first.url.slice('sqlite:'.length), 'x');
    await expect(first.drop()).resolves.toBeUndefined();
    expect(existsSync(folder)).toBe(false);
    await second.drop();
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
