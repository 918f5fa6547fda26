import { Field, FREE_OBJECT, INTEGER, ref, STRING, TRANSLATIONS, TranslationSummary, URI, WALL_CLOCK } from '@calendar/shared/http';
import { ApiExtraModels } from '@nestjs/swagger';
import type { CommonFields, LanguageFields } from './record.mapper';

/*
 * The response models of SPEC §3.4, §4.1 and §5.1 that every record kind shares. Mappers build their answers as
 * these classes (the compiler holds every answer to its class), and the API description is generated from the
 * same classes.
 */

/** An attached image (SPEC §4.1 `image`). */
export class ImageResponse {
  @Field(INTEGER)
  id: number;

  @Field(URI)
  url: string;

  @Field({ ...STRING, description: 'File extension, lower case, without the dot ("" when unknown)' })
  extension: string;

  @Field(INTEGER, false)
  width?: number;

  @Field(INTEGER, false)
  height?: number;

  @Field({ type: 'object', maxProperties: 0, description: 'Always empty: no resized copies are made' })
  sizes: Record<string, never>;
}

export const IMAGE_OR_FALSE = { oneOf: [ref(ImageResponse), { type: 'boolean', const: false }] };
export const JSON_LD = { ...FREE_OBJECT, description: 'schema.org JSON-LD; single reads only' };

/** The fields of every venue, organizer and event (SPEC §3.4, §7). */
@ApiExtraModels(ImageResponse, TranslationSummary)
export class RecordResponse implements CommonFields, LanguageFields {
  @Field(INTEGER)
  id: number;

  @Field({ ...STRING, description: 'host?id=<id>' })
  global_id: string;

  @Field({ type: 'string', pattern: '^\\d+$', description: 'User id of the author, as a string of digits (as TEC sends it)' })
  author: string;

  @Field({ type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash'] })
  status: string;

  @Field({ ...WALL_CLOCK, description: 'Publication date in the service time zone' })
  date: string;

  @Field(WALL_CLOCK)
  date_utc: string;

  @Field(WALL_CLOCK)
  modified: string;

  @Field(WALL_CLOCK)
  modified_utc: string;

  @Field({ ...URI, description: 'The public page' })
  url: string;

  @Field(URI)
  rest_url: string;

  @Field({ ...STRING, description: 'The language of the texts' })
  lang: string;

  @Field(TRANSLATIONS)
  translations: Record<string, TranslationSummary>;
}
