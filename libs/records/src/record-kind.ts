import type { RecordEntity, RecordTranslationEntity } from './entities/record.entity';

/** What the shared record mechanisms need to know about one kind of record. */
export interface RecordKind<E extends RecordEntity = RecordEntity, T extends RecordTranslationEntity = RecordTranslationEntity> {
  /** `venue`, `organizer`, `event`: the stem of error codes. */
  kind: 'venue' | 'organizer' | 'event';
  /** Collection path below the namespace: `venues`. */
  path: string;
  /** Public page path below SITE_URL: `venue`. */
  sitePath: string;
  /** The response key of the name (`venue`, `organizer`, `title`). */
  nameKey: string;
  entity: new () => E;
  translation: new () => T;
  /** The translation's property and column that point at the record. */
  ownerProperty: string;
  ownerColumn: string;
  /** Error code when a trashed record is read by someone who may not (SPEC §3.1). */
  trashedCode: string;
  /** Translatable text fields besides name and description (events: `excerpt`), same name in write and table. */
  extraTexts?: string[];
  /** The table has a `revision` column that every write replaces with a new random value (events). */
  revised?: boolean;
}
