import { Injectable } from '@nestjs/common';

/** The service's time where it decides by it (the series' horizon, the change log's retention); replaced in tests to move time on. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
