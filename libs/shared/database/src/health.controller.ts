import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiException } from '@calendar/shared/http';
import { DataSource } from 'typeorm';

/** Liveness and readiness, outside the API root. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('healthz')
  @HttpCode(200)
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(): Promise<{ status: string; database: string }> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw ApiException.serviceUnavailable();
    }
    return { status: 'ok', database: this.dataSource.options.type === 'mysql' ? 'mysql' : 'sqlite' };
  }
}
