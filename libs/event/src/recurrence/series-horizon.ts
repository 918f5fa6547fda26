import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { TransactionRunner } from '@calendar/shared/database';
import { AppConfig } from '@calendar/shared/config';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { Clock } from './clock';
import { HORIZON, SeriesWriter } from './series.writer';

/** How often the horizon is moved on while the service runs (SPEC §13: at least daily). */
const EVERY_MS = 60 * 60 * 1000;

/**
 * Moves every series' horizon on with time (SPEC §13): at start-up and every hour, each series whose next
 * occurrence not written yet starts within two years gets the missing ones, one transaction per series. Several
 * instances may do it at once: each takes the head's row first (MySQL: `FOR UPDATE`; SQLite writes one at a time)
 * and looks again, and the unique (series, start) key stops any occurrence from being written twice.
 */
@Injectable()
export class SeriesHorizon implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SeriesHorizon');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly series: SeriesWriter,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runsJobs) return;
    this.schedule();
    this.timer = setInterval(() => this.schedule(), EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Extends every series that is due; returns how many occurrences were added. */
  async extend(): Promise<number> {
    const now = this.clock.now();
    const target = DateTime.fromJSDate(now).plus(HORIZON).toJSDate();
    let added = 0;
    for (const headId of await this.series.due(this.dataSource.manager, target)) {
      added += await this.transactions.run(async (manager) => {
        if (!(await this.series.stillDue(manager, headId, target))) return 0;
        // The occurrences added and their terms' counts are applied with the write's effects, as for any write.
        return (await this.series.sync(manager, headId, 'extend', now)).length;
      });
    }
    return added;
  }

  private schedule(): void {
    if (this.running) return;
    this.running = this.extend()
      .then((added) => {
        if (added > 0) this.logger.log(`series extended: ${added} occurrences added`);
        return added;
      })
      .catch((error: Error) => {
        this.logger.error(`extending series failed: ${error.message}`);
        return 0;
      })
      .finally(() => {
        this.running = undefined;
      });
  }
}
