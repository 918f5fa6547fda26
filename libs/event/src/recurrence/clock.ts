import { Injectable } from '@nestjs/common';

/** The time the series' horizon is counted from; replaced in tests to move time on. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
