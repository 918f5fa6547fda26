import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiException } from '@calendar/shared/http';
import { DataSource } from 'typeorm';
import { GaleraNode, galeraNotReady } from './galera';

/** Liveness and readiness, outside the API root. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly galera: GaleraNode,
  ) {}

  @Get('healthz')
  @HttpCode(200)
  live(): { status: string } {
    return { status: 'ok' };
  }

  /** Ready while the database answers, and on a Galera node while it is Synced (SPEC §15). */
  @Get('readyz')
  async ready(): Promise<{ status: string; database: string }> {
    let problem: string | null;
    try {
      await this.dataSource.query('SELECT 1');
      problem = this.galera.on ? await galeraNotReady(this.dataSource) : null;
    } catch {
      throw ApiException.serviceUnavailable();
    }
    if (problem) throw new ApiException(503, 'service-unavailable', `The database cannot take writes: ${problem}.`, {}, { 'Retry-After': '5' });
    return { status: 'ok', database: this.dataSource.options.type === 'mysql' ? 'mysql' : 'sqlite' };
  }
}
